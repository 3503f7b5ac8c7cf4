// /api/cache: what the server caches, for /cache-status (admins; docs/decisions/028-cache-status.md).
import { Hono } from "hono";
import { edgeCacheStats, purgeEdgeCache } from "../../admin/edge-cache";
import { requireAdmin } from "../../auth/session";
import type { AppBindings } from "../../env";

export const cacheApi = new Hono<AppBindings>()
  .get("/stats", async (c) => {
    requireAdmin(c);
    // The stats' memoryCache (docs/product/admin-and-analytics.md): a Worker keeps no memory cache between
    // requests, so there is none to count.
    return c.json({ edge: await edgeCacheStats(), memoryCache: null, timestamp: new Date().toISOString() });
  })
  .post("/purge", async (c) => c.json(await purgeEdgeCache(c.var.db, requireAdmin(c))));
