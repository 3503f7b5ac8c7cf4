// The admin console through the real Worker and D1: refusals and tricks, the row cap, masked phones, the audit.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminSession, call, verifiedSession } from "../../tests/workers/helpers";

const verifiedUser = (nickname = "Ada") => verifiedSession("0807", nickname);

/** An admin, made by ADMIN_PHONES at verification (tested in workers/identity). */
const adminUser = adminSession;

const sqlAs = (cookie: string, query: string) => call("/api/admin/sql", { method: "POST", cookie, json: { query } });
const userCount = async () => (await env.DB.prepare("select count(*) as n from users").first<{ n: number }>())?.n;

describe("/api/admin console", () => {
  it("is for admins only: staff and people are refused, and nothing runs", async () => {
    const admin = await adminUser();
    const staff = await verifiedUser("Helper");
    await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    expect((await call("/api/admin/sql", { method: "POST", json: { query: "select 1" } })).status).toBe(401);
    for (const path of ["/api/admin/stats", "/api/admin/health", "/api/admin/quick-queries"]) {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, { cookie: staff.cookie })).status).toBe(403);
    }
    const res = await sqlAs(staff.cookie, "select 1");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Admin access required", code: "admin_required" });
  });

  it("refuses writes, PRAGMA, ATTACH, several statements and comment tricks; the table is untouched and each refusal audited", async () => {
    const admin = await adminUser();
    const before = await userCount();
    const tricks = [
      "delete from users",
      "PRAGMA writable_schema = 1",
      "ATTACH DATABASE ':memory:' AS x",
      "select 1; delete from users",
      "select 1 -- harmless\n; delete from users",
      "select 1 /* ; */; drop table users",
      "with gone as (select id from users) delete from users where id in gone",
      "select 1; ",
    ];
    for (const query of tricks.slice(0, -1)) {
      const res = await sqlAs(admin.cookie, query);
      expect(res.status, query).toBe(400);
      // The refusal names what was refused and nothing of the database (its code and the reason, no rows).
      expect(Object.keys(await res.json<object>()).sort()).toEqual(["code", "error", "values"]);
    }
    expect((await sqlAs(admin.cookie, tricks.at(-1) as string)).status).toBe(200);
    expect(await userCount()).toBe(before);
    const refused = await env.DB.prepare("select count(*) as n from audit_log where actor_id = ? and action = 'admin.sql_refused'")
      .bind(admin.id)
      .first<{ n: number }>();
    expect(refused?.n).toBe(tricks.length - 1);
  });

  it("runs a SELECT with phones masked, caps the rows, answers SQLite's reason for a bad query, and audits what it ran", async () => {
    const admin = await adminUser();
    const person = await verifiedUser("Chidi");
    const res = await sqlAs(admin.cookie, `SELECT nickname, phone FROM users WHERE id = '${person.id}'`);
    expect(res.status).toBe(200);
    const body = await res.json<{ rows: { nickname: string; phone: string }[]; truncated: boolean }>();
    expect(body.rows).toEqual([{ nickname: "Chidi", phone: `+${"•".repeat(10)}${person.phone.slice(-3)}` }]);
    expect(JSON.stringify(body)).not.toContain(person.phone.slice(1));
    expect((await sqlAs(admin.cookie, `select hex(phone) from users`)).status).toBe(400);

    const many = await sqlAs(admin.cookie, `select * from (values ${Array.from({ length: 150 }, (_, i) => `(${i})`).join(",")})`);
    const capped = await many.json<{ rows: unknown[]; truncated: boolean; rowCap: number }>();
    expect(capped).toMatchObject({ truncated: true, rowCap: 100 });
    expect(capped.rows).toHaveLength(100);

    const bad = await sqlAs(admin.cookie, "select nope from users");
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: string }>()).error).toMatch(/^The database refused the query: .*no such column: nope/);

    const log = await env.DB.prepare("select detail from audit_log where actor_id = ? and action = 'admin.sql_run' order by created_at")
      .bind(admin.id)
      .all<{ detail: string }>();
    // The one admin (ADMIN_PHONES) ran other tests' queries too: this one is among them.
    expect(log.results.map((r) => JSON.parse(r.detail).query)).toContain(`SELECT nickname, phone FROM users WHERE id = '${person.id}'`);
  });

  it("health comes from real checks; stats count the tables; the quick queries run", async () => {
    const admin = await adminUser();
    const health = await (await call("/api/admin/health", { cookie: admin.cookie })).json<Record<string, unknown>>();
    // The test Worker runs development without Stripe: the local stand-in is a warning, not healthy.
    expect(health).toMatchObject({ database: "healthy", cache: "healthy", websocket: "healthy", stripe: "warning" });
    const stats = await (await call("/api/admin/stats", { cookie: admin.cookie })).json<{ totalUsers: number }>();
    expect(stats.totalUsers).toBe(await userCount());
    const { queries } = await (await call("/api/admin/quick-queries", { cookie: admin.cookie })).json<{ queries: { query: string }[] }>();
    for (const q of queries) expect((await sqlAs(admin.cookie, q.query)).status, q.query).toBe(200);
  });

  it("reads no secret column, and no phone but as it is, however the query is written", async () => {
    const admin = await adminUser();
    const person = await verifiedUser("Bola");
    const refusals: [string, RegExp][] = [
      ["select phone+0 from users", /Phone numbers are shown masked/],
      ["select substr(phone,1) from users", /substr\(\) is not allowed/],
      ["select phone || '' from users", /Phone numbers are shown masked/],
      ["select lower(phone) from users", /Phone numbers are shown masked/],
      [`select nickname from users where phone like '${person.phone.slice(0, 8)}%'`, /Phone numbers are shown masked/],
      ["select nickname from users order by phone", /Phone numbers are shown masked/],
      ["select * from main.sqlite_schema", /Internal tables/],
      ['select nickname from "main"."users"', /Schema names/],
      ["select * from temp.sqlite_temp_master", /Internal tables/],
      ["select id from sessions", /sessions\.id holds secrets/],
      ["select * from sessions", /name the columns/],
      ["select secret from two_factor", /two_factor\.secret holds secrets/],
      ["select code_hash from backup_codes", /backup_codes\.code_hash/],
      ["select code_hash from verifications", /verifications\.code_hash/],
      ["select key_hash from api_keys", /api_keys\.key_hash/],
      ["select endpoint, p256dh, auth from push_subscriptions", /push_subscriptions\./],
      ["select id, public_key from passkeys", /passkeys\./],
      ["select challenge from webauthn_challenges", /webauthn_challenges\.challenge/],
      ["select body from outbound_messages", /outbound_messages\.body/],
    ];
    for (const [query, reason] of refusals) {
      const res = await sqlAs(admin.cookie, query);
      expect(res.status, query).toBe(400);
      expect((await res.json<{ error: string }>()).error, query).toMatch(reason);
    }
    // Named as it is, a phone is still shown masked.
    const own = await sqlAs(admin.cookie, `select u.phone as number from users u where u.id = '${person.id}'`);
    expect(await own.json()).toMatchObject({ rows: [{ number: `+${"•".repeat(10)}${person.phone.slice(-3)}` }] });
  });

  it("refuses heavy queries before running them, and health still answers", async () => {
    const admin = await adminUser();
    const big = JSON.stringify(Array.from({ length: 100 }, (_, i) => i));
    const heavy: [string, RegExp][] = [
      [`select count(*) from json_each('${big}') a, json_each('${big}') b, json_each('${big}') c, json_each('${big}') d`, /json_each\(\)/],
      // 100⁴ rows had it run. Two full scans joined on something no index serves: one table read once per row of the other.
      ["select count(*) from users a join users b on a.nickname like b.nickname", /once for each row/],
      ["select (select count(*) from support_tickets m where m.message like u.nickname) from users u", /once for each row/],
    ];
    for (const [query, reason] of heavy) {
      const res = await sqlAs(admin.cookie, query);
      expect(res.status, query).toBe(400);
      expect((await res.json<{ error: string }>()).error, query).toMatch(reason);
    }
    expect((await call("/api/health")).status).toBe(200);
    // Joined on an id, the same tables run.
    expect(
      (await sqlAs(admin.cookie, "select u.nickname, count(*) as n from users u join sessions s on s.user_id = u.id group by u.id")).status,
    ).toBe(200);
  });
});
