// Build step for per-route messages (docs/decisions/078-each-page-carries-its-own-words.md). The scan of
// scripts/route-words.ts decides which keys each route carries; this plugin hands the result to the app:
// - `virtual:linkup/route-words/server` (the pages' server build): every route's keys, so the server renders a
//   page with the shared set and its own words, and names the two files the browser fetches to hydrate it;
// - `virtual:linkup/route-words/client` (the browser): each route's path and the address of its words, one small
//   JSON file per language and route under /assets/words-<version>/, emitted into the client build (served as a
//   static asset, cached for a year, kept by the offline worker once used).
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { type Plugin, runnerImport } from "vite";
import { isServerOnlyKey, LANGUAGE_TAGS, UI_LANGUAGES } from "../core/i18n/languages.ts";
import { type RouteWords, routeName, scanRouteWords } from "./route-words.ts";

const SERVER_ID = "virtual:linkup/route-words/server";
const CLIENT_ID = "virtual:linkup/route-words/client";

interface Built {
  words: RouteWords;
  /** Object.keys of the English catalog, in its order. */
  keyOrder: string[];
  version: string;
  /** "<tag>/<route name>.json" → its JSON text. */
  files: Map<string, string>;
}

export async function buildRouteWords(appDir: string): Promise<Built> {
  // The catalogs through Vite's module runner: the config's own loader does not resolve their extensionless imports.
  const { module } = await runnerImport<typeof import("../core/i18n/catalogs")>(resolve("core/i18n/catalogs.ts"));
  const CATALOGS = module.CATALOGS;
  const words = scanRouteWords(
    appDir,
    Object.keys(CATALOGS.english).filter((k) => !isServerOnlyKey(k)),
  );
  const files = new Map<string, string>();
  for (const language of UI_LANGUAGES) {
    const catalog = CATALOGS[language] as Record<string, unknown>;
    files.set(`${LANGUAGE_TAGS[language]}/_shared.json`, JSON.stringify(Object.fromEntries(words.shared.map((k) => [k, catalog[k]]))));
    for (const r of words.routes) {
      if (!r.keys.length) continue;
      files.set(
        `${LANGUAGE_TAGS[language]}/${routeName(r.file)}.json`,
        JSON.stringify(Object.fromEntries(r.keys.map((k) => [k, catalog[k]]))),
      );
    }
  }
  const hash = createHash("sha256");
  for (const [name, text] of files) hash.update(name).update(text);
  hash.update(JSON.stringify(words)).update(Object.keys(CATALOGS.english).join("\n"));
  return { words, keyOrder: Object.keys(CATALOGS.english), version: hash.digest("hex").slice(0, 10), files };
}

function serverModule({ words, version, keyOrder }: Built): string {
  // Routes as indexes into the English catalog's own key order: the Worker has that catalog already
  // (core/i18n/load-catalog.ts), so the pages' server build carries no key names.
  const index = new Map(keyOrder.map((k, i) => [k, i]));
  const routes = words.routes.map((r) => [
    r.path,
    r.keys.map((k) => index.get(k)),
    r.title.map((k) => index.get(k)),
    r.keys.length ? routeName(r.file) : null,
  ]);
  return `export const WORDS_BASE = ${JSON.stringify(`/assets/words-${version}`)};
export const KEY_COUNT = ${keyOrder.length};
export const SHARED = ${JSON.stringify(words.shared.map((k) => index.get(k)))};
export const ROUTES = ${JSON.stringify(routes)};`;
}

function clientModule({ words, version }: Built): string {
  const routes = words.routes.map((r) => [r.path, r.keys.length ? routeName(r.file) : null]);
  return `export const WORDS_BASE = ${JSON.stringify(`/assets/words-${version}`)};
export const ROUTES = ${JSON.stringify(routes)};`;
}

export function routeWords(appDir = "web/app"): Plugin {
  let built: Promise<Built> | null = null;
  const get = () => {
    built ??= buildRouteWords(appDir);
    return built;
  };
  return {
    name: "linkup:route-words",
    resolveId(id) {
      return id === SERVER_ID || id === CLIENT_ID ? `\0${id}` : null;
    },
    async load(id) {
      if (id === `\0${SERVER_ID}`) return serverModule(await get());
      if (id === `\0${CLIENT_ID}`) return clientModule(await get());
      return null;
    },
    async generateBundle() {
      if (this.environment.name !== "client") return;
      const { version, files } = await get();
      for (const [name, source] of files) this.emitFile({ type: "asset", fileName: `assets/words-${version}/${name}`, source });
    },
    configureServer(server) {
      // `react-router dev`: the same files from memory; a change to the sources restarts the scan.
      server.watcher.on("change", (file) => {
        if (/\.(ts|tsx)$/.test(file) && file.includes(join("web", "app"))) built = null;
      });
      server.middlewares.use((req, res, next) => {
        const m = /^\/assets\/words-(\w+)\/(.+\.json)$/.exec(req.url ?? "");
        if (!m) return next();
        get().then(({ files }) => {
          const text = files.get(m[2]);
          if (!text) return next();
          res.setHeader("Content-Type", "application/json");
          res.end(text);
        }, next);
      });
    },
  };
}
