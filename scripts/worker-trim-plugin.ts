// What the Worker's build leaves out (docs/decisions/082-a-worker-that-starts-small.md):
// - browser-only packages that screens import with `import()` in an event handler or effect, which never run on the
//   server but which the server build would still bundle and upload: `jsqr` (the camera's QR reader) and the whole
//   `qrcode` package (its canvas and PNG renderers, with pngjs). In the Worker's build each is a module that throws
//   when loaded, naming itself; the Worker draws QR codes with qrcode's encoder and SVG renderer, imported by their
//   own paths (workers/services/qr-svg.ts), which this does not touch.
// - the browser's mesh node (web/app/mesh/tab-node.ts: IndexedDB, WebRTC, the tab's own sockets), which screens
//   start with `import()` in an effect or a tap, never while the server renders; its stand-in throws the same way.
// - React DOM's legacy string renderer: `react-dom/server` in workerd is `server.edge.js`, which loads both the
//   stream renderer and `renderToString`'s renderer (about 90 KiB); web/app/entry.server.tsx uses only
//   `renderToReadableStream`, so the build takes the stream renderer's file alone.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

const BROWSER_ONLY = new Set(["jsqr", "qrcode"]);
const BROWSER_ONLY_FILES = ["/web/app/mesh/tab-node.ts"];
const STUB = "\0linkup:browser-only:";

export function workerTrim(): Plugin {
  const require = createRequire(import.meta.url);
  return {
    name: "linkup:worker-trim",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    enforce: "pre",
    resolveId(id) {
      if (BROWSER_ONLY.has(id)) return STUB + id;
      // The file by its path: React DOM's package exports do not list it.
      if (id === "react-dom/server")
        return join(dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-server.edge.production.js");
      return null;
    },
    load(id) {
      const file = BROWSER_ONLY_FILES.find((f) => id.endsWith(f));
      if (!id.startsWith(STUB) && !file) return null;
      const name = file ?? id.slice(STUB.length);
      return `throw new Error(${JSON.stringify(`${name} is browser-only and not in the Worker's build (scripts/worker-trim-plugin.ts)`)});`;
    },
  };
}
