import { describe, expect, it } from "vitest";
import { inlineStylesheet, inlineStylesheetStream } from "./inline-css.server";

// The head React Router writes: its stylesheet links end in `#`.
const HEAD =
  '<!DOCTYPE html><html lang="ha"><head><meta charSet="utf-8"/><title>Ƙungiya — LinkUp</title>' +
  '<link nonce="n1" rel="stylesheet" href="/assets/root-c.css#"/>';
const REST = "</head><body><main><p>Saƙo</p></main></body></html>";
const CSS = "body{margin:0}.card{padding:1rem}";

describe("the stylesheet inline", () => {
  it("puts the CSS in the head under the page's nonce and disables the link, so the paint waits for no request", () => {
    const out = inlineStylesheet(HEAD, "n1", CSS);
    expect(out).toContain(`<style nonce="n1">${CSS}</style><link nonce="n1" rel="stylesheet" href="/assets/root-c.css#" disabled=""/>`);
  });

  it("leaves a head without the root stylesheet as it was", () => {
    const head = '<head><link rel="stylesheet" href="/assets/other-d.css"/>';
    expect(inlineStylesheet(head, "n1", CSS)).toBe(head);
  });

  it("rewrites the head of a streamed page cut anywhere, letters and tags split", async () => {
    const text = HEAD + REST;
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 7, 64, bytes.length]) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
          controller.close();
        },
      });
      const out = await new Response(inlineStylesheetStream(stream, "n1", CSS)).text();
      expect(out, `cut every ${size} bytes`).toBe(inlineStylesheet(HEAD, "n1", CSS) + REST);
    }
  });
});
