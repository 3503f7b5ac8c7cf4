import { describe, expect, it } from "vitest";
import { HELD_TYPE, paintFirst, paintFirstStream } from "./paint-first.server";

// The shape React Router and React write: preloads hoisted into the head, the module script after the page.
const HEAD =
  '<!DOCTYPE html><html lang="ha"><head><meta charSet="utf-8"/><title>Ƙungiya — LinkUp</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-a.js" nonce="n1"/>' +
  '<link rel="modulepreload" href="/assets/root-b.js" nonce="n1"/>' +
  '<link nonce="n1" rel="stylesheet" href="/assets/root-c.css"/></head>';
const PAGE = '<body><main><p>Saƙo mai tsawo</p></main><script nonce="n1">window.__reactRouterContext = {};</script>';
const CODE =
  'import * as route0 from "/assets/root-b.js";\nwindow.__reactRouterRouteModules = {"root":route0};\nimport("/assets/entry.client-a.js");';
const MODULE = `<script nonce="n1" type="module" async="">${CODE}</script>`;
const REST = '<script nonce="n1">window.__reactRouterContext.streamController.close();</script></body></html>';

/** Streams `text` as bytes cut at every `size`-th byte, which splits multi-byte letters and the tags. */
function streamOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
      controller.close();
    },
  });
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("paintFirst", () => {
  it("leaves nothing in the page that fetches a script before the first paint", () => {
    const out = paintFirst(HEAD + PAGE + MODULE);
    expect(out).not.toContain('modulepreload" href');
    expect(out).not.toContain('type="module"');
    // The stylesheet, the page and the data scripts are untouched.
    expect(out).toContain('<link nonce="n1" rel="stylesheet" href="/assets/root-c.css"/></head>');
    expect(out).toContain(PAGE);
    // The module script is kept word for word, typed so the browser neither runs nor fetches it…
    expect(out).toContain(`<script nonce="n1" type="${HELD_TYPE}">${CODE}</script>`);
    // …followed by the script that starts it and the preloads, with the page's nonce.
    const starter = /<script nonce="n1">\((.*)\)\((\[.*?\]), (\[.*\])\)<\/script>$/s.exec(out);
    expect(JSON.parse(starter![2])).toEqual(["/assets/entry.client-a.js", "/assets/root-b.js"]);
    expect(JSON.parse(starter![3])).toEqual([]);
  });

  it("starts the held scripts and the page's words after a painted frame, with the page's nonce", () => {
    const WORDS = ["/assets/words-v1/ha/_shared.json", "/assets/words-v1/ha/chat.json"];
    const out = paintFirst(HEAD + PAGE + MODULE, WORDS);
    const starter = /<script nonce="n1">\((.*)\)\((\[.*?\]), (\[.*\])\)<\/script>$/s.exec(out)!;
    const fetched: string[] = [];
    const win: { __linkupWords?: [string, Promise<unknown>][] } = {};
    const fetchStub = (href: string) => {
      fetched.push(href);
      return Promise.resolve({ ok: true, json: () => Promise.resolve({}) });
    };
    const added: { tag: string; rel?: string; href?: string; type?: string; nonce?: string; textContent?: string }[] = [];
    const frames: (() => void)[] = [];
    const timers: (() => void)[] = [];
    const make = (tag: string) => ({ tag }) as (typeof added)[number];
    const doc = {
      currentScript: { nonce: "n1", previousElementSibling: { textContent: CODE }, dataset: {} as Record<string, string> },
      visibilityState: "visible",
      createElement: make,
      head: { append: (e: (typeof added)[number]) => added.push(e) },
      body: { append: (e: (typeof added)[number]) => added.push(e) },
    };
    new Function("document", "requestAnimationFrame", "setTimeout", "window", "fetch", `(${starter[1]})(${starter[2]}, ${starter[3]})`)(
      doc,
      (f: () => void) => frames.push(f),
      (f: () => void) => timers.push(f),
      win,
      fetchStub,
    );
    expect(added).toEqual([]);
    expect(fetched).toEqual([]);
    expect(doc.currentScript.dataset).toEqual({ paintFirst: "held" });
    for (const f of frames) f();
    expect(added).toEqual([]);
    for (const f of timers) f();
    expect(added).toEqual([
      { tag: "link", rel: "modulepreload", href: "/assets/entry.client-a.js" },
      { tag: "link", rel: "modulepreload", href: "/assets/root-b.js" },
      { tag: "script", type: "module", nonce: "n1", textContent: CODE },
    ]);
    // The words are on their way with the scripts, for the browser entry to wait on (docs/decisions/078).
    expect(fetched).toEqual(WORDS);
    expect(win.__linkupWords?.map(([href]) => href)).toEqual(WORDS);
  });

  it("returns a shell without React Router's module script as it was", () => {
    expect(paintFirst(HEAD + PAGE)).toBe(HEAD + PAGE);
    expect(paintFirst(PAGE + MODULE)).toBe(PAGE + MODULE);
  });
});

describe("paintFirstStream", () => {
  it("rewrites the shell however the stream is cut, and passes the rest through", async () => {
    const whole = HEAD + PAGE + MODULE + REST;
    for (const size of [1, 5, 64, 100_000]) {
      expect(await read(paintFirstStream(streamOf(whole, size)))).toBe(paintFirst(HEAD + PAGE + MODULE) + REST);
    }
  });

  it("passes a document without a module script through unchanged", async () => {
    const text = `${HEAD}<body><p>Ƙ</p></body></html>`;
    expect(await read(paintFirstStream(streamOf(text, 3)))).toBe(text);
  });
});
