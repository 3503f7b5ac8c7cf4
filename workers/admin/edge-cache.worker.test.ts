// /api/cache through the real Worker: admins only; the edge cache's real entries, and a purge that empties them, audited.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";

/** An admin, made by ADMIN_PHONES at verification (tested in workers/identity). */
const adminUser = adminSession;

type Stats = {
  edge: { available: boolean; entries: { key: string; cached: boolean; bytes: number }[] };
  memoryCache: null;
  timestamp: string;
};

describe("cache stats", () => {
  it("is for admins only: 401 without a session, 403 for anonymous and verified people", async () => {
    expect((await call("/api/cache/stats")).status).toBe(401);
    expect((await call("/api/cache/stats", { cookie: (await anonymousSession()).cookie })).status).toBe(403);
    const person = await verifiedSession("0907");
    expect((await call("/api/cache/stats", { cookie: person.cookie })).status).toBe(403);
    expect((await call("/api/cache/purge", { method: "POST", cookie: person.cookie, json: {} })).status).toBe(403);
  });

  it("reports what the edge cache really holds, and a purge empties it (audited)", async () => {
    const admin = await adminUser();
    const empty = await (await call("/api/cache/stats", { cookie: admin.cookie })).json<Stats>();
    expect(empty.edge.entries.every((e) => !e.cached)).toBe(true);
    expect(empty.memoryCache).toBeNull();
    // The system-health check writes its probe into the edge cache.
    expect((await call("/api/admin/health", { cookie: admin.cookie })).status).toBe(200);
    const held = await (await call("/api/cache/stats", { cookie: admin.cookie })).json<Stats>();
    expect(held.edge.entries[0]).toEqual({ key: "https://linkup.internal/admin-health-probe", cached: true, bytes: 2 });
    expect(held.edge.entries[1]).toEqual({ key: "https://linkup.internal/public-stats", cached: false, bytes: 0 });
    // The landing page's live figures are kept too, and listed with their size.
    const stats = await (await call("/api/stats/public")).text();
    const both = await (await call("/api/cache/stats", { cookie: admin.cookie })).json<Stats>();
    expect(both.edge.entries[1]).toEqual({ key: "https://linkup.internal/public-stats", cached: true, bytes: stats.length });

    const purged = await call("/api/cache/purge", { method: "POST", cookie: admin.cookie, json: {} });
    expect(await purged.json()).toEqual({ purged: 2 });
    const after = await (await call("/api/cache/stats", { cookie: admin.cookie })).json<Stats>();
    expect(after.edge.entries.every((e) => !e.cached)).toBe(true);
    const log = await env.DB.prepare("select actor_id, detail from audit_log where action = 'admin.edge_cache_purged'").first<{
      actor_id: string;
      detail: string;
    }>();
    expect(log?.actor_id).toBe(admin.id);
    expect(JSON.parse(log?.detail ?? "{}")).toMatchObject({ before: { cached: 2 }, after: { cached: 0 }, purged: 2 });
  });
});
