import { describe, expect, it } from "vitest";
import { HELD_TYPE, paintFirst, paintFirstStream } from "./paint-first.server";

// The shape React Router and React write: preloads hoisted into the head, the module script after the page.
const HEAD =
  '<!DOCTYPE html><html lang="ha"><head><meta charSet="utf-8"/><title>Ƙungiya — LinkUp</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-a.js" nonce="n1"/>' +
  '<link rel="modulepreload" href="/assets/root-b.js" nonce="n1"/>' +
  '<link rel="manifest" href="/manifest.webmanifest"/>' +
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
  it("leaves nothing in the page that fetches a script or the manifest before the first paint", () => {
    const out = paintFirst(HEAD + PAGE + MODULE);
    expect(out).not.toContain('modulepreload" href');
    expect(out).not.toContain('rel="manifest"');
    expect(out).not.toContain('type="module"');
    // The stylesheet, the page and the data scripts are untouched.
    expect(out).toContain('<link nonce="n1" rel="stylesheet" href="/assets/root-c.css"/></head>');
    expect(out).toContain(PAGE);
    // The module script is kept word for word, typed so the browser neither runs nor fetches it…
    expect(out).toContain(`<script nonce="n1" type="${HELD_TYPE}">${CODE}</script>`);
    // …followed by the script that starts it and the preloads, with the page's nonce.
    const starter = /<script nonce="n1">\((.*)\)\((\[.*?\]), (\[.*?\]), (.*?)\)<\/script>$/s.exec(out);
    expect(JSON.parse(starter![2])).toEqual(["/assets/entry.client-a.js", "/assets/root-b.js"]);
    expect(JSON.parse(starter![3])).toEqual([]);
    expect(JSON.parse(starter![4])).toBe("/manifest.webmanifest");
  });

  /** Runs the starter script of `out` against a stub document; returns what it did and the callbacks it left. */
  function runStarter(out: string, { paintTiming = true, hidden = false } = {}) {
    const starter = /<script nonce="n1">\((.*)\)\((\[.*?\]), (\[.*?\]), (.*?)\)<\/script>$/s.exec(out)!;
    const fetched: string[] = [];
    const win: { __linkupWords?: [string, Promise<unknown>][] } = {};
    const fetchStub = (href: string) => {
      fetched.push(href);
      return Promise.resolve({ ok: true, json: () => Promise.resolve({}) });
    };
    const added: { tag: string; rel?: string; href?: string; type?: string; nonce?: string; textContent?: string }[] = [];
    const frames: (() => void)[] = [];
    const timers: { f: () => void; ms: number }[] = [];
    const observers: { callback: (list: unknown, observer: unknown) => void; disconnected: boolean }[] = [];
    class Observer {
      entry: (typeof observers)[number];
      constructor(callback: (typeof observers)[number]["callback"]) {
        this.entry = { callback, disconnected: false };
        observers.push(this.entry);
      }
      observe({ type }: { type: string }) {
        if (type !== "paint") throw new Error("unsupported");
      }
      disconnect() {
        this.entry.disconnected = true;
      }
    }
    const make = (tag: string) => ({ tag }) as (typeof added)[number];
    const doc = {
      currentScript: { nonce: "n1", previousElementSibling: { textContent: CODE }, dataset: {} as Record<string, string> },
      visibilityState: hidden ? "hidden" : "visible",
      createElement: make,
      head: { append: (e: (typeof added)[number]) => added.push(e) },
      body: { append: (e: (typeof added)[number]) => added.push(e) },
    };
    new Function(
      "document",
      "requestAnimationFrame",
      "setTimeout",
      "window",
      "fetch",
      "PerformanceObserver",
      `(${starter[1]})(${starter[2]}, ${starter[3]}, ${starter[4]})`,
    )(
      doc,
      (f: () => void) => frames.push(f),
      (f: () => void, ms = 0) => timers.push({ f, ms }),
      win,
      fetchStub,
      paintTiming ? Observer : undefined,
    );
    /** The browser reports paint entries of these names to every observer still listening. */
    const paint = (...names: string[]) => {
      for (const o of observers.filter((o) => !o.disconnected))
        o.callback(
          { getEntriesByName: (n: string) => names.filter((x) => x === n).map((name) => ({ name })) },
          {
            disconnect: () => (o.disconnected = true),
          },
        );
    };
    const runTimers = (pick: (ms: number) => boolean) => {
      const due = timers.filter((t) => pick(t.ms));
      timers.splice(0, timers.length, ...timers.filter((t) => !pick(t.ms)));
      for (const t of due) t.f();
    };
    return { added, fetched, win, frames, timers, paint, runTimers, dataset: doc.currentScript.dataset };
  }

  const STARTED = [
    { tag: "link", rel: "manifest", href: "/manifest.webmanifest" },
    { tag: "link", rel: "modulepreload", href: "/assets/entry.client-a.js" },
    { tag: "link", rel: "modulepreload", href: "/assets/root-b.js" },
    { tag: "script", type: "module", nonce: "n1", textContent: CODE },
  ];

  it("starts the held scripts and the page's words once the browser reports the first contentful paint, not before", () => {
    const WORDS = ["/assets/words-v1/ha/_shared.json", "/assets/words-v1/ha/chat.json"];
    const run = runStarter(paintFirst(HEAD + PAGE + MODULE, WORDS));
    expect(run.dataset).toEqual({ paintFirst: "held" });
    // A frame drawn, and a first paint without content: nothing asked for yet.
    for (const f of run.frames.splice(0)) f();
    for (const f of run.frames.splice(0)) f();
    run.paint("first-paint");
    run.runTimers((ms) => ms === 0);
    expect(run.added).toEqual([]);
    expect(run.fetched).toEqual([]);
    run.paint("first-contentful-paint");
    run.runTimers((ms) => ms === 0);
    expect(run.added).toEqual(STARTED);
    // The words are on their way with the scripts, for the browser entry to wait on (docs/decisions/078).
    expect(run.fetched).toEqual(WORDS);
    expect(run.win.__linkupWords?.map(([href]) => href)).toEqual(WORDS);
    // The fallback a second after the frame starts nothing twice.
    expect(run.timers.map((t) => t.ms)).toEqual([1000]);
    run.runTimers(() => true);
    expect(run.added).toEqual(STARTED);
    expect(run.fetched).toEqual(WORDS);
  });

  it("without paint timing, starts a second after a painted frame; in a hidden tab, at once", () => {
    const run = runStarter(paintFirst(HEAD + PAGE + MODULE), { paintTiming: false });
    expect(run.added).toEqual([]);
    for (const f of run.frames.splice(0)) f();
    for (const f of run.frames.splice(0)) f();
    expect(run.timers.map((t) => t.ms)).toEqual([1000]);
    run.runTimers(() => true);
    expect(run.added).toEqual(STARTED);

    expect(runStarter(paintFirst(HEAD + PAGE + MODULE), { hidden: true }).added).toEqual(STARTED);
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
