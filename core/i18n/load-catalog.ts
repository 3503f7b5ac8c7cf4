// The catalogs for server code at run time (push texts, notices, the FAQ, the page's messages): English is always
// here; every other language loads the first time a request needs it, so an isolate evaluates only the languages
// it speaks (docs/decisions/070-light-enough-for-2g.md). core/i18n/catalogs.ts keeps every catalog in one table for
// the tests that read them all.
import { type Catalog, en, type MessageKey } from "./en";
import { LANGUAGE_TAGS, type UiLanguage } from "./languages";
import { formatMessage, type Vars } from "./translate";

export type Translate = (key: MessageKey, vars?: Vars) => string;

// One import per language, each its own chunk of the Worker's build.
const LOADERS: Record<Exclude<UiLanguage, "english">, () => Promise<Catalog>> = {
  hausa: () => import("./ha").then((m) => m.ha),
  yoruba: () => import("./yo").then((m) => m.yo),
  igbo: () => import("./ig").then((m) => m.ig),
  pidgin: () => import("./pcm").then((m) => m.pcm),
  french: () => import("./fr").then((m) => m.fr),
  arabic: () => import("./ar").then((m) => m.ar),
};

const loaded = new Map<UiLanguage, Promise<Catalog>>([["english", Promise.resolve(en)]]);

/** The language's catalog; a failed load is forgotten so the next request tries again. */
export function loadCatalog(language: UiLanguage): Promise<Catalog> {
  let catalog = loaded.get(language);
  if (!catalog) {
    catalog = LOADERS[language as Exclude<UiLanguage, "english">]().catch((e: unknown) => {
      loaded.delete(language);
      throw e;
    });
    loaded.set(language, catalog);
  }
  return catalog;
}

/** Formats with one catalog: English for a key the catalog lacks. */
export function translatorOf(catalog: Catalog, language: UiLanguage): Translate {
  const tag = LANGUAGE_TAGS[language];
  return (key, vars) => formatMessage(catalog[key] ?? en[key], tag, vars, key);
}

/** A translator for server code (push texts, notifications), once the language's catalog is loaded. */
export async function loadTranslator(language: UiLanguage): Promise<Translate> {
  return translatorOf(await loadCatalog(language), language);
}
