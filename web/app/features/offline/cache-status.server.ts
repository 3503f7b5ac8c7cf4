// Loader and action of /cache-status (docs/decisions/028-cache-status.md). The device part is everyone's and runs
// in the browser; the server's edge cache is shown to admins only, and the API refuses anyone else.
import type { Me } from "../../../../core/api-types";
import { apiGet, apiSend } from "../../lib/api.server";
import { refusalOf } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export interface ServerCache {
  edge: { available: boolean; entries: { key: string; cached: boolean; bytes: number }[] };
  memoryCache: null;
  timestamp: string;
}

export async function loadCacheStatus(context: Ctx) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const admin = me?.user.role === "admin";
  return { admin, server: admin ? await apiGet<ServerCache>(context, "/api/cache/stats") : null };
}

export async function cacheStatusAction(context: Ctx) {
  const res = await apiSend<{ purged: number }>(context, "POST", "/api/cache/purge", {});
  return res.ok ? { ok: true as const, purged: res.json?.purged ?? 0 } : { ok: false as const, error: refusalOf(res.json) };
}
