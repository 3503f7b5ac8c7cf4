// What the Worker keeps in the edge cache, for /cache-status (docs/decisions/028-cache-status.md). The edge
// Cache API cannot list its keys, so the Worker names every key it writes here and reports each one's state.
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { auditAction } from ".";

/**
 * Every key LinkUp puts into the edge cache: the system-health probe (workers/admin/console.ts) and the landing
 * page's live figures (workers/api/routes/content.ts), counted at most once a minute per location.
 */
export const EDGE_CACHE_KEYS = ["https://linkup.internal/admin-health-probe", "https://linkup.internal/public-stats"] as const;

/**
 * Keys written per area cell: how many people an area has, shown on /emergency (docs/decisions/057). Not listed
 * in EDGE_CACHE_KEYS (one per cell, and the Cache API cannot list them): each lives a minute and goes.
 */
export const AREA_USERS_KEY = "https://linkup.internal/area-users/";
type EdgeCacheKey = (typeof EDGE_CACHE_KEYS)[number] | `${typeof AREA_USERS_KEY}${string}`;

/**
 * The JSON under `key`, computed and kept for `maxAgeSeconds` when the edge cache has none (or is not there).
 * For figures every visitor sees alike: a page load must not count whole tables (issue 28).
 */
export async function edgeCached<T>(key: EdgeCacheKey, maxAgeSeconds: number, compute: () => Promise<T>): Promise<T> {
  const edge = edgeCache();
  const request = new Request(key);
  const hit = edge ? await edge.match(request) : undefined;
  if (hit) return (await hit.json()) as T;
  const value = await compute();
  await edge
    ?.put(
      request,
      new Response(JSON.stringify(value), { headers: { "content-type": "application/json", "cache-control": `max-age=${maxAgeSeconds}` } }),
    )
    .catch((e) => console.error("edge cache: put", key, e));
  return value;
}

function edgeCache(): Cache | null {
  if (typeof caches === "undefined") return null;
  // workerd's edge cache; the DOM lib's CacheStorage type does not name it.
  return (caches as unknown as { default: Cache }).default;
}

export async function edgeCacheStats() {
  const edge = edgeCache();
  const entries = await Promise.all(
    EDGE_CACHE_KEYS.map(async (key) => {
      const hit = edge ? await edge.match(new Request(key)) : undefined;
      const bytes = hit ? (await hit.arrayBuffer()).byteLength : 0;
      return { key, cached: Boolean(hit), bytes };
    }),
  );
  return { available: edge !== null, entries };
}

export async function purgeEdgeCache(db: Db, admin: User) {
  const edge = edgeCache();
  const before = await edgeCacheStats();
  let purged = 0;
  if (edge) for (const key of EDGE_CACHE_KEYS) if (await edge.delete(new Request(key))) purged++;
  await auditAction(
    db,
    admin,
    "admin.edge_cache_purged",
    "edge-cache",
    { cached: before.entries.filter((e) => e.cached).length },
    { cached: 0 },
    { purged },
  );
  return { purged };
}
