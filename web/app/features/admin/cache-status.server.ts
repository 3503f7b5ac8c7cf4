// Loader and action of /cache-status: admins; the server's side from /api/cache (docs/decisions/028-cache-status.md).
import { apiGet, apiSend } from "../../lib/api.server";
import { requireScreenRole } from "./access.server";

type Ctx = Parameters<typeof apiGet>[0];

export interface ServerCache {
  edge: { available: boolean; entries: { key: string; cached: boolean; bytes: number }[] };
  memoryCache: null;
  timestamp: string;
}

export async function loadCacheStatus(context: Ctx) {
  await requireScreenRole(context, "admin", { opens: "the cache status", onlyFor: "Cache status is only for LinkUp admins." });
  return { server: await apiGet<ServerCache>(context, "/api/cache/stats") };
}

export async function cacheStatusAction(context: Ctx) {
  const res = await apiSend<{ purged: number }>(context, "POST", "/api/cache/purge", {});
  const n = res.json?.purged ?? 0;
  return { ok: res.ok, message: res.ok ? `Edge cache purged (${n} ${n === 1 ? "entry" : "entries"})` : (res.json?.error ?? "Not purged") };
}
