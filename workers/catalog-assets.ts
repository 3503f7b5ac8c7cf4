// The catalogs as static assets (docs/decisions/082-a-worker-that-starts-small.md): the production build writes each
// language's whole catalog to /assets/catalogs-<version>/<tag>.json (scripts/catalog-assets-plugin.ts) and the
// Worker reads one through its assets binding the first time a request needs that language; core/i18n/load-catalog.ts
// keeps it for the isolate's life. Static assets do not count in the Worker's upload (Cloudflare's limits: 25 MiB
// a file, none of these is over 200 KiB). A missing or broken file fails loudly, naming the file, and is read again
// by the next request.
import type { Catalog } from "../core/i18n/en";
import { LANGUAGE_TAGS, type UiLanguage } from "../core/i18n/languages";
import type { CatalogSource } from "../core/i18n/load-catalog";

/** The part of the assets binding used here (a Fetcher in workerd). */
export type AssetsFetcher = { fetch: (input: Request | string | URL) => Promise<Response> };

/** The catalog file of a language under `base` (the build's `/assets/catalogs-<version>`). */
export const catalogPath = (base: string, language: UiLanguage) => `${base}/${LANGUAGE_TAGS[language]}.json`;

/**
 * Reads catalogs from the assets binding. `keyCount` is the English catalog's size the build saw: a file of another
 * size comes from another build and is refused rather than shown with raw keys.
 */
export function catalogsFromAssets(assets: AssetsFetcher | undefined, base: string, keyCount: number): CatalogSource {
  return async (language) => {
    const path = catalogPath(base, language);
    if (!assets) throw new Error(`catalog ${path}: the Worker has no ASSETS binding (wrangler.toml [assets])`);
    // The host is not looked at: the binding serves the Worker's own assets by path.
    const res = await assets.fetch(new Request(`https://assets.invalid${path}`));
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`catalog ${path}: the static assets answered ${res.status} (is build/client deployed with the Worker?)`);
    }
    let catalog: unknown;
    try {
      catalog = await res.json();
    } catch {
      throw new Error(`catalog ${path}: not JSON`);
    }
    const count = catalog && typeof catalog === "object" ? Object.keys(catalog).length : 0;
    if (count !== keyCount) throw new Error(`catalog ${path}: ${count} messages, the build has ${keyCount}`);
    return catalog as Catalog;
  };
}
