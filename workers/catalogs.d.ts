// The module scripts/catalog-assets-plugin.ts builds (docs/decisions/082-a-worker-that-starts-small.md).
declare module "virtual:linkup/catalogs" {
  /** Where the catalogs are among the static assets: `${CATALOGS_BASE}/${language tag}.json`. */
  export const CATALOGS_BASE: string;
  /** How many messages the English catalog (and so every catalog file) had at build time. */
  export const KEY_COUNT: number;
}
