// Build step: every language's whole catalog as a static asset (docs/decisions/082-a-worker-that-starts-small.md).
// The client build emits /assets/catalogs-<version>/<tag>.json (cached for a year like every file under /assets,
// web/public/_headers; not in the offline worker's precache, which lists only Vite's manifest); the Worker's build
// gets `virtual:linkup/catalogs` with that address and the English catalog's size, and reads a language's file
// through its assets binding on first use (workers/catalog-assets.ts). The catalogs leave the Worker's upload.
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { type Plugin, runnerImport } from "vite";
import { LANGUAGE_TAGS, UI_LANGUAGES } from "../core/i18n/languages.ts";

const ID = "virtual:linkup/catalogs";

interface Built {
  base: string;
  keyCount: number;
  /** "<tag>.json" → its JSON text. */
  files: Map<string, string>;
}

export async function buildCatalogAssets(): Promise<Built> {
  // Through Vite's module runner, as scripts/route-words-plugin.ts does: the catalogs' imports are extensionless.
  const { module } = await runnerImport<typeof import("../core/i18n/catalogs")>(resolve("core/i18n/catalogs.ts"));
  const files = new Map<string, string>();
  for (const language of UI_LANGUAGES) files.set(`${LANGUAGE_TAGS[language]}.json`, JSON.stringify(module.CATALOGS[language]));
  const hash = createHash("sha256");
  for (const [name, text] of files) hash.update(name).update(text);
  return { base: `/assets/catalogs-${hash.digest("hex").slice(0, 10)}`, keyCount: Object.keys(module.CATALOGS.english).length, files };
}

export function catalogAssets(): Plugin {
  let built: Promise<Built> | null = null;
  const get = () => {
    built ??= buildCatalogAssets();
    return built;
  };
  return {
    name: "linkup:catalog-assets",
    resolveId(id) {
      return id === ID ? `\0${id}` : null;
    },
    async load(id) {
      if (id !== `\0${ID}`) return null;
      const { base, keyCount } = await get();
      return `export const CATALOGS_BASE = ${JSON.stringify(base)};\nexport const KEY_COUNT = ${keyCount};`;
    },
    async generateBundle() {
      if (this.environment.name !== "client") return;
      const { base, files } = await get();
      for (const [name, source] of files) this.emitFile({ type: "asset", fileName: `${base.slice(1)}/${name}`, source });
    },
  };
}
