// Data the production Worker reads from its static assets on first use (docs/decisions/082-a-worker-that-starts-small.md):
// the build writes each language's whole catalog and the phone metadata under /assets/worker-<version>/
// (scripts/worker-assets-plugin.ts); the modules that use them keep what was read for the isolate's life
// (core/i18n/load-catalog.ts, core/phone.ts). Static assets do not count in the Worker's upload (Cloudflare's limit
// is 25 MiB a file; none of these is over 200 KiB). A missing or broken file fails loudly, naming the file, and is
// read again by the next request that needs it.
import type { MetadataJson } from "libphonenumber-js/core";
import type { Catalog } from "../core/i18n/en";
import { LANGUAGE_TAGS, type UiLanguage } from "../core/i18n/languages";
import type { CatalogSource } from "../core/i18n/load-catalog";
import type { PhoneMetadataSource } from "../core/phone";

/** The part of the assets binding used here (a Fetcher in workerd). */
export type AssetsFetcher = { fetch: (input: Request | string | URL) => Promise<Response> };

/** One JSON file of the static assets, or an error that names it and says what went wrong. */
export async function readAssetJson(assets: AssetsFetcher | undefined, path: string): Promise<unknown> {
  if (!assets) throw new Error(`${path}: the Worker has no ASSETS binding (wrangler.toml [assets])`);
  // The host is not looked at: the binding serves the Worker's own assets by path.
  const res = await assets.fetch(new Request(`https://assets.invalid${path}`));
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${path}: the static assets answered ${res.status} (is build/client deployed with the Worker?)`);
  }
  try {
    return await res.json();
  } catch {
    throw new Error(`${path}: not JSON`);
  }
}

/** The catalog file of a language under `base` (the build's `/assets/worker-<version>`). */
export const catalogPath = (base: string, language: UiLanguage) => `${base}/catalog-${LANGUAGE_TAGS[language]}.json`;

/**
 * Reads catalogs from the assets binding. `keyCount` is the English catalog's size the build saw: a file of another
 * size comes from another build and is refused rather than shown with raw keys.
 */
export function catalogsFromAssets(assets: AssetsFetcher | undefined, base: string, keyCount: number): CatalogSource {
  return async (language) => {
    const path = catalogPath(base, language);
    const catalog = await readAssetJson(assets, path);
    const count = catalog && typeof catalog === "object" ? Object.keys(catalog).length : 0;
    if (count !== keyCount) throw new Error(`${path}: ${count} messages, the build has ${keyCount}`);
    return catalog as Catalog;
  };
}

/** Reads the phone metadata from the assets binding; a file without its countries is refused. */
export function phoneMetadataFromAssets(assets: AssetsFetcher | undefined, base: string): PhoneMetadataSource {
  return async () => {
    const path = `${base}/phone-metadata.json`;
    const metadata = (await readAssetJson(assets, path)) as Partial<MetadataJson> | null;
    if (!metadata?.countries || !metadata.country_calling_codes) throw new Error(`${path}: not libphonenumber-js metadata`);
    return metadata as MetadataJson;
  };
}
