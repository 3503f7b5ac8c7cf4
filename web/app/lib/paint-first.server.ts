// The first paint needs only the HTML and its stylesheet: pages render on the server and work before their
// JavaScript (docs/architecture.md §10). React Router's <Scripts> asks for every module of the page at once: a
// `modulepreload` for the entry and each static import of the matched routes (React hoists them into <head>,
// ahead of the stylesheet) and an inline module script whose imports the parser fetches on sight. On a slow
// link those 14–30 requests share the first round trips with the stylesheet. So the page's shell is rewritten
// as it streams out: the preloads and the module script are held in the page and started by a small inline
// script once the browser has painted (docs/decisions/042-paint-before-scripts.md).

const HEAD_END = "</head>";
const MODULE_SCRIPT = /<script([^>]*) type="module" async="">([\s\S]*?)<\/script>/;
const PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
// Chromium fetches a linked manifest as the document finishes loading, before the first paint on a small page:
// it is linked by the starter with the preloads (installing needs the offline worker, which needs the scripts).
const MANIFEST = /<link rel="manifest" href="([^"]+)"\/>/;
/** What the held module script is typed as: the browser neither runs nor fetches a script of unknown type. */
export const HELD_TYPE = "text/x-linkup-held-module";

/**
 * Runs once the browser has reported the page's first contentful paint (a hidden tab paints nothing, so it starts at
 * once): adds the module preloads, then runs the held module script with the page's nonce, exactly as React Router
 * wrote it. It marks itself `data-paint-first`, so whoever drives the page can tell held scripts from none
 * (tests/e2e/fixtures.ts). Waiting for a drawn frame alone was not enough: Chromium times the paint when the frame
 * reaches the screen, tens of milliseconds later, and on 2G a request started in between costs the paint a round
 * trip in Lighthouse's estimate (docs/decisions/083-the-first-paint-on-2g.md). A browser without paint timing, or a
 * page with nothing contentful, starts a second after a painted frame.
 */
const START = `(hrefs, words, manifest) => {
  const me = document.currentScript;
  me.dataset.paintFirst = "held";
  const code = me.previousElementSibling.textContent;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    window.__linkupWords = words.map((href) => [href, fetch(href).then((r) => (r.ok ? r.json() : Promise.reject(new Error(href))))]);
    if (manifest) {
      const link = document.createElement("link");
      link.rel = "manifest";
      link.href = manifest;
      document.head.append(link);
    }
    for (const href of hrefs) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = me.nonce;
    script.textContent = code;
    document.body.append(script);
  };
  if (document.visibilityState === "hidden") return start();
  try {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      setTimeout(start);
    }).observe({ type: "paint", buffered: true });
  } catch {}
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 1000)));
}`;

/**
 * The page's shell (from its start to the end of React Router's module script) with the module preloads taken
 * out of the head and the module script held until after the first paint. A shell without both is returned as
 * it was, so a page never loses its scripts.
 */
export function paintFirst(shell: string, words: readonly string[] = []): string {
  const headEnd = shell.indexOf(HEAD_END);
  const boot = MODULE_SCRIPT.exec(shell);
  if (headEnd === -1 || !boot || boot.index < headEnd) return shell;
  const hrefs: string[] = [];
  let manifest: string | null = null;
  const head = shell
    .slice(0, headEnd)
    .replace(PRELOAD, (_, href: string) => {
      hrefs.push(href);
      return "";
    })
    .replace(MANIFEST, (_, href: string) => {
      manifest = href;
      return "";
    });
  const attrs = boot[1];
  // The hrefs are asset paths; `<` is escaped anyway so no value can close the script early.
  const json = (v: unknown) => JSON.stringify(v).replaceAll("<", "\\u003c");
  // The page's words (docs/decisions/078-each-page-carries-its-own-words.md) are fetched with the scripts: the
  // browser entry waits for them before hydrating, not for a fetch of its own after the scripts have run.
  const held = `<script${attrs} type="${HELD_TYPE}">${boot[2]}</script><script${attrs}>(${START})(${json(hrefs)}, ${json(words)}, ${json(manifest)})</script>`;
  const body = shell.slice(headEnd, boot.index) + held + shell.slice(boot.index + boot[0].length);
  return head + body;
}

/**
 * Passes a streamed HTML document through with its shell rewritten by `paintFirst`. React writes the shell (the
 * head, the page and <Scripts>) in one piece, so holding bytes until the module script's end delays nothing; a
 * document without one is passed on unchanged at the end.
 */
export function paintFirstStream(html: ReadableStream<Uint8Array>, words: readonly string[] = []): ReadableStream<Uint8Array> {
  const moduleScript = new TextEncoder().encode('type="module" async="">');
  const scriptEnd = new TextEncoder().encode("</script>");
  let held: Uint8Array | null = new Uint8Array(0);
  return html.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (held === null) return controller.enqueue(chunk);
        held = concat(held, chunk);
        const start = indexOf(held, moduleScript, 0);
        const end = start === -1 ? -1 : indexOf(held, scriptEnd, start);
        if (end === -1) return;
        const cut = end + scriptEnd.length;
        // The shell ends with ASCII `>`, so it holds whole characters and decodes on its own.
        controller.enqueue(new TextEncoder().encode(paintFirst(new TextDecoder().decode(held.subarray(0, cut)), words)));
        controller.enqueue(held.subarray(cut));
        held = null;
      },
      flush(controller) {
        if (held?.length) controller.enqueue(held);
      },
    }),
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
