// The module scripts/worker-assets-plugin.ts builds (docs/decisions/082-a-worker-that-starts-small.md).
declare module "virtual:linkup/worker-assets" {
  /** Where the Worker's data files are among the static assets: `${WORKER_ASSETS_BASE}/catalog-<tag>.json`, `…/phone-metadata.json`. */
  export const WORKER_ASSETS_BASE: string;
  /** How many messages the English catalog (and so every catalog file) had at build time. */
  export const KEY_COUNT: number;
}
