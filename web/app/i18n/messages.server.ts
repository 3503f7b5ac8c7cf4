// The language of a page request and the messages the page gets (docs/decisions/031-web-app-languages.md,
// docs/decisions/078-each-page-carries-its-own-words.md). Server only: the catalogs never enter the JavaScript
// bundle. The server renders a page with the shared set (the shell, toasts, error texts) and the route's own words;
// its HTML carries none of them but its title's (the browser fetches the same two files under /assets to hydrate).
/// <reference path="./route-words.d.ts" />
import { KEY_COUNT, ROUTES, SHARED, WORDS_BASE } from "virtual:linkup/route-words/server";
import { loadCatalog } from "../../../core/i18n/load-catalog";
import { chooseLanguage, directionOf, LANGUAGE_TAGS, type UiLanguage } from "../../../core/i18n/languages";
import type { Message } from "../../../core/i18n/translate";
import { pagePath, routeIndexOf } from "./route-match";
import { encodeWords } from "./words-codec";
import type { ServerPageWords } from "./words-context";

export interface PageLanguage {
  language: UiLanguage;
  tag: string;
  dir: "ltr" | "rtl";
  /** The page title's words only, encoded by ./words-codec.ts: a route's meta function has no hooks. */
  words: string;
}

interface Built {
  title: string;
  page: ServerPageWords;
}

// The route lists index the English catalog's keys in their order (scripts/route-words-plugin.ts); the Worker
// reads that catalog on first use like any other (docs/decisions/082-a-worker-that-starts-small.md).
let keys: Promise<string[]> | undefined;
function englishKeys(): Promise<string[]> {
  keys ??= loadCatalog("english").then(
    (en) => {
      const order = Object.keys(en);
      if (order.length !== KEY_COUNT) throw new Error("route words: the catalog changed after the build");
      return order;
    },
    (e: unknown) => {
      keys = undefined; // a failed load is forgotten: the next page tries again
      throw e;
    },
  );
  return keys;
}

// One copy per language and route.
const BUILT = new Map<string, Built>();
async function built(language: UiLanguage, route: number): Promise<Built> {
  const id = `${language}:${route}`;
  let done = BUILT.get(id);
  if (!done) {
    const [catalog, KEYS] = await Promise.all([loadCatalog(language) as Promise<Record<string, Message>>, englishKeys()]);
    const pick = (indexes: readonly number[]) => encodeWords(Object.fromEntries(indexes.map((i) => [KEYS[i], catalog[KEYS[i]]])));
    const [, own = [], title = [], name = null] = ROUTES[route] ?? [];
    const tag = LANGUAGE_TAGS[language];
    const hrefs = [`${WORDS_BASE}/${tag}/_shared.json`, ...(name ? [`${WORDS_BASE}/${tag}/${name}.json`] : [])];
    done = { title: pick(title), page: { tag, words: pick([...SHARED, ...own]), hrefs } };
    BUILT.set(id, done);
  }
  return done;
}

/** The page's language and title words for the root loader's data, and its whole words for the server's render. */
export async function pageLanguage(
  saved: string | null | undefined,
  request: Request,
): Promise<{ i18n: PageLanguage; page: ServerPageWords }> {
  const language = chooseLanguage(saved, request.headers.get("accept-language"));
  const { title, page } = await built(language, routeIndexOf(ROUTES, pagePath(new URL(request.url).pathname)));
  return { i18n: { language, tag: LANGUAGE_TAGS[language], dir: directionOf(language), words: title }, page };
}

/** English words for a page whose root loader did not run (the error screen of a failed page load). */
export async function fallbackPageWords(request: Request): Promise<ServerPageWords> {
  return (await built("english", routeIndexOf(ROUTES, pagePath(new URL(request.url).pathname)))).page;
}
