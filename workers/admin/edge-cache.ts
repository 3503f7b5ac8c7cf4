// What the Worker keeps in the edge cache, for /cache-status (docs/decisions/028-cache-status.md). The edge
// Cache API cannot list its keys, so the Worker names every key it writes here and reports each one's state.
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { auditAction } from ".";

/** Every key LinkUp puts into the edge cache: today only the system-health probe (workers/admin/console.ts). */
export const EDGE_CACHE_KEYS = ["https://linkup.internal/admin-health-probe"] as const;

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
