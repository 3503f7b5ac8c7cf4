// Build step: data the Worker reads on first use, as static assets instead of modules
// (docs/decisions/082-a-worker-that-starts-small.md): every language's whole catalog and libphonenumber-js's mobile
// metadata. The client build emits them under /assets/worker-<version>/ (cached for a year like every file under
// /assets, web/public/_headers; not in the offline worker's precache, which lists only Vite's manifest); the
// Worker's build gets `virtual:linkup/worker-assets` with their address and the English catalog's size, and reads
// a file through its assets binding the first time a request needs it (workers/worker-assets.ts). Static assets do
// not count in the Worker's upload.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { type Plugin, runnerImport } from "vite";
import { LANGUAGE_TAGS, UI_LANGUAGES } from "../core/i18n/languages.ts";

const ID = "virtual:linkup/worker-assets";

interface Built {
  base: string;
  keyCount: number;
  /** File name under `base` → its JSON text. */
  files: Map<string, string>;
}

export async function buildWorkerAssets(): Promise<Built> {
  // Through Vite's module runner, as scripts/route-words-plugin.ts does: the catalogs' imports are extensionless.
  const { module } = await runnerImport<typeof import("../core/i18n/catalogs")>(resolve("core/i18n/catalogs.ts"));
  const files = new Map<string, string>();
  for (const language of UI_LANGUAGES) files.set(`catalog-${LANGUAGE_TAGS[language]}.json`, JSON.stringify(module.CATALOGS[language]));
  // The metadata core/phone.ts parses with (libphonenumber-js's "mobile" set), byte for byte as the package ships it.
  const phone = createRequire(import.meta.url).resolve("libphonenumber-js/metadata.mobile.json");
  files.set("phone-metadata.json", readFileSync(phone, "utf8"));
  const hash = createHash("sha256");
  for (const [name, text] of files) hash.update(name).update(text);
  return { base: `/assets/worker-${hash.digest("hex").slice(0, 10)}`, keyCount: Object.keys(module.CATALOGS.english).length, files };
}

export function workerAssets(): Plugin {
  let built: Promise<Built> | null = null;
  const get = () => {
    built ??= buildWorkerAssets();
    return built;
  };
  return {
    name: "linkup:worker-assets",
    resolveId(id) {
      return id === ID ? `\0${id}` : null;
    },
    async load(id) {
      if (id !== `\0${ID}`) return null;
      const { base, keyCount } = await get();
      return `export const WORKER_ASSETS_BASE = ${JSON.stringify(base)};\nexport const KEY_COUNT = ${keyCount};`;
    },
    async generateBundle() {
      if (this.environment.name !== "client") return;
      const { base, files } = await get();
      for (const [name, source] of files) this.emitFile({ type: "asset", fileName: `${base.slice(1)}/${name}`, source });
    },
  };
}
