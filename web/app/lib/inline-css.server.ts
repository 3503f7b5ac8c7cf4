// The first paint waits for nothing but the document: the app's one stylesheet (about 4 KiB compressed) rides in
// the page's <head> as a nonce-carrying <style>, instead of a render-blocking request that costs a whole round trip
// on a slow link (800 ms on 2G). docs/decisions/070-light-enough-for-2g.md.
import rootCss from "../styles.css?inline";

const HEAD_END = "</head>";
/** The root stylesheet's link as React Router writes it (its href ends `.css#`: React Router's own mark). */
const ROOT_LINK = /<link([^>]*) rel="stylesheet" href="\/assets\/root-[^"]+\.css#?"([^>]*)\/>/;
/**
 * The link stays as React Router wrote it, so React hydrates it (React matches a link by rel, href, crossOrigin and
 * title, and skips the <style> in the head, a tag it did not render), but `disabled`: the browser neither fetches
 * nor applies a disabled stylesheet, and React never touches an attribute it did not render. Client navigations keep
 * the <style>.
 */
export const DISABLED = ' disabled=""';

/** The head with the root stylesheet's link swapped for the same CSS inline; any other head is returned as it was. */
export function inlineStylesheet(head: string, nonce: string, css: string = rootCss): string {
  const link = ROOT_LINK.exec(head);
  if (!link || !css) return head;
  // `</style` cannot occur in CSS we wrote, but a stray one would end the element early: escape it like the HTML parser needs.
  const style = `<style nonce="${nonce}">${css.replaceAll("</style", "<\\/style")}</style>`;
  const inert = `${link[0].slice(0, -2)}${DISABLED}/>`;
  return head.slice(0, link.index) + style + inert + head.slice(link.index + link[0].length);
}

/** Passes a streamed document through with `inlineStylesheet` applied to its head (React writes the head whole). */
export function inlineStylesheetStream(html: ReadableStream<Uint8Array>, nonce: string, css: string = rootCss): ReadableStream<Uint8Array> {
  const headEnd = new TextEncoder().encode(HEAD_END);
  let held: Uint8Array | null = new Uint8Array(0);
  return html.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (held === null) return controller.enqueue(chunk);
        const all = new Uint8Array(held.length + chunk.length);
        all.set(held);
        all.set(chunk, held.length);
        held = all;
        const end = indexOf(held, headEnd);
        if (end === -1) return;
        // The head ends with ASCII `>`, so it holds whole characters and decodes on its own.
        controller.enqueue(new TextEncoder().encode(inlineStylesheet(new TextDecoder().decode(held.subarray(0, end)), nonce, css)));
        controller.enqueue(held.subarray(end));
        held = null;
      },
      flush(controller) {
        if (held?.length) controller.enqueue(held);
      },
    }),
  );
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
