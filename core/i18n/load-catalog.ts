// The catalogs for server code at run time (push texts, notices, the FAQ, the page's messages). Each language,
// English too, is read the first time a request needs it and kept for the isolate's life, so a Worker starts with
// no catalog and evaluates only the languages it speaks. In the production build they are not in the Worker at all:
// the build writes each as a static asset (scripts/worker-assets-plugin.ts) and the Worker's entry names where
// to read them (`serveCatalogsFrom`, workers/worker-assets.ts), so none of the seven counts in the upload
// (docs/decisions/082-a-worker-that-starts-small.md). Development and the tests import them from the sources.
// core/i18n/catalogs.ts keeps every catalog in one table for the tests that read them all.
import type { Catalog, MessageKey } from "./en";
import { LANGUAGE_TAGS, type UiLanguage } from "./languages";
import { formatMessage, type Vars } from "./translate";

export type Translate = (key: MessageKey, vars?: Vars) => string;

/** Where the catalogs come from: one language's whole catalog, or a rejection that says what is missing. */
export type CatalogSource = (language: UiLanguage) => Promise<Catalog>;

// From the sources, one chunk per language. `import.meta.env.PROD` is true only in `vite build`: the production
// build drops this table, and with it every catalog's chunk.
const FROM_SOURCES: CatalogSource | null = import.meta.env.PROD
  ? null
  : (language) =>
      ({
        english: () => import("./en").then((m) => m.en),
        hausa: () => import("./ha").then((m) => m.ha),
        yoruba: () => import("./yo").then((m) => m.yo),
        igbo: () => import("./ig").then((m) => m.ig),
        pidgin: () => import("./pcm").then((m) => m.pcm),
        french: () => import("./fr").then((m) => m.fr),
        arabic: () => import("./ar").then((m) => m.ar),
      })[language]();

let source: CatalogSource | null = FROM_SOURCES;
const loaded = new Map<UiLanguage, Promise<Catalog>>();

/** Where the production Worker reads its catalogs (its entry, workers/app.ts); forgets what was loaded. */
export function serveCatalogsFrom(from: CatalogSource): void {
  source = from;
  loaded.clear();
}

/** The language's catalog; a failed load is forgotten so the next request tries again. */
export function loadCatalog(language: UiLanguage): Promise<Catalog> {
  let catalog = loaded.get(language);
  if (!catalog) {
    const from = source;
    catalog = (
      from
        ? from(language)
        : Promise.reject(new Error("catalogs: no source (the production entry, workers/app.ts, must call serveCatalogsFrom)"))
    ).catch((e: unknown) => {
      loaded.delete(language);
      throw e;
    });
    loaded.set(language, catalog);
  }
  return catalog;
}

/** Formats with one catalog: English (`english`) for a key the catalog lacks. */
export function translatorOf(catalog: Catalog, language: UiLanguage, english: Catalog): Translate {
  const tag = LANGUAGE_TAGS[language];
  return (key, vars) => formatMessage(catalog[key] ?? english[key], tag, vars, key);
}

/** A translator for server code (push texts, notifications), once the language's catalog and English are loaded. */
export async function loadTranslator(language: UiLanguage): Promise<Translate> {
  const [catalog, english] = await Promise.all([loadCatalog(language), loadCatalog("english")]);
  return translatorOf(catalog, language, english);
}
