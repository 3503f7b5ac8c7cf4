// Bans through the real Worker: guards, sessions ended, sockets closed, sign-in refused, unban restoring, audit rows.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BANNED_MESSAGE } from "../../core/admin-schemas";
import { encodeGeohash } from "../../core/geohash";
import { nearbyRoomId } from "../../core/room-ids";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import { mustOpen, openRoom } from "../../tests/workers/room-socket";

const verifiedUser = (nickname = "Ada") => verifiedSession("0903", nickname);

/** An admin, made by ADMIN_PHONES at verification (tested in workers/identity). */
const adminUser = adminSession;

async function staffUser() {
  const admin = await adminUser();
  const staff = await verifiedUser("Helper");
  const made = await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
  expect(made.status).toBe(200);
  return { admin, staff };
}

async function auditOf(target: string, action: string) {
  const row = await env.DB.prepare(
    "select actor_id, detail from audit_log where target = ? and action = ? order by created_at desc limit 1",
  )
    .bind(target, action)
    .first<{ actor_id: string; detail: string }>();
  return row ? { ...row, detail: JSON.parse(row.detail) } : null;
}

/** Asks for a sign-in code for the phone from a fresh browser, as a person signing back in would. */
async function askForCode(local: string) {
  const fresh = await anonymousSession();
  return call("/api/auth/register", { method: "POST", cookie: fresh.cookie, json: { phoneNumber: local, nickname: "Again" } });
}

describe("bans", () => {
  it("only staff and admins ban or unban: 401 without a session, 403 for anonymous and ordinary people", async () => {
    const person = await verifiedUser();
    const anon = await anonymousSession();
    const ban = (cookie?: string) => call(`/api/admin/people/${person.id}/ban`, { method: "POST", cookie, json: { reason: "spam" } });
    expect((await ban()).status).toBe(401);
    expect((await ban(anon.cookie)).status).toBe(403);
    const self = await ban(person.cookie);
    expect(self.status).toBe(403);
    expect(await self.json()).toEqual({ error: "Staff access required", code: "staff_required" });
    expect((await call(`/api/admin/people/${person.id}/unban`, { method: "POST", cookie: person.cookie })).status).toBe(403);
    expect((await call("/api/me", { cookie: person.cookie })).status).toBe(200);
  });

  it("a ban ends the person's sessions at once and closes their sockets (code 4003, which the client does not retry)", async () => {
    const admin = await adminUser();
    const person = await verifiedUser("Troll");
    // Their socket in their own area's room, opened a moment ago: the room has not told D1 yet (its batch is once a
    // minute), and the ban still closes it.
    const place = { latitude: 6 + Math.random() * 4, longitude: 3 + Math.random() * 6 };
    expect((await call("/api/me/location", { method: "PUT", cookie: person.cookie, json: place })).status).toBe(200);
    const roomId = nearbyRoomId(encodeGeohash(place.latitude, place.longitude));
    const socket = await mustOpen(roomId, person.cookie);

    const bad = await call(`/api/admin/people/${person.id}/ban`, { method: "POST", cookie: admin.cookie, json: { reason: "" } });
    expect(bad.status).toBe(400);
    const banned = await call(`/api/admin/people/${person.id}/ban`, {
      method: "POST",
      cookie: admin.cookie,
      json: { reason: "Spam in rooms" },
    });
    expect(banned.status).toBe(200);
    expect(await banned.json()).toMatchObject({ id: person.id, banned: true, sessionsEnded: 1, socketsClosed: 1 });

    await socket.waitFor(() => socket.closed);
    expect(socket.closed?.code).toBe(4003);
    expect((await call("/api/me", { cookie: person.cookie })).status).toBe(401);
    expect((await openRoom(roomId, person.cookie)).status).toBe(401);
    expect(await auditOf(person.id, "support.person_banned")).toMatchObject({
      actor_id: admin.id,
      detail: { before: { banned: false }, after: { banned: true, reason: "Spam in rooms" }, sessionsEnded: 1, socketsClosed: 1 },
    });
  });

  it("staff ban: sign-in is refused with a clear message; unban lets the person back in; both audited", async () => {
    const { staff } = await staffUser();
    const person = await verifiedUser("Troll");
    const json = { reason: "Spam in rooms" };
    expect((await call(`/api/admin/people/${person.id}/ban`, { method: "POST", cookie: staff.cookie, json })).status).toBe(200);

    const again = await askForCode(person.local);
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ error: BANNED_MESSAGE, code: "banned" });
    const found = await call(`/api/admin/people?q=${encodeURIComponent(person.local)}`, { cookie: staff.cookie });
    expect((await found.json<{ people: unknown[] }>()).people).toEqual([
      expect.objectContaining({ id: person.id, banned: true, banReason: "Spam in rooms", sessions: 0 }),
    ]);

    const lifted = await call(`/api/admin/people/${person.id}/unban`, { method: "POST", cookie: staff.cookie });
    expect(lifted.status).toBe(200);
    expect(await auditOf(person.id, "support.person_unbanned")).toMatchObject({
      actor_id: staff.id,
      detail: { before: { banned: true, reason: "Spam in rooms" }, after: { banned: false } },
    });
    expect((await askForCode(person.local)).status).toBe(200);
  });

  it("staff cannot ban a colleague or an admin; an admin can ban staff", async () => {
    const { admin, staff } = await staffUser();
    const colleague = await verifiedUser("Colleague");
    await call(`/api/admin/people/${colleague.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    const json = { reason: "Left the team" };
    expect((await call(`/api/admin/people/${colleague.id}/ban`, { method: "POST", cookie: staff.cookie, json })).status).toBe(403);
    expect((await call(`/api/admin/people/${admin.id}/ban`, { method: "POST", cookie: staff.cookie, json })).status).toBe(409);
    expect((await call(`/api/admin/people/${colleague.id}/ban`, { method: "POST", cookie: admin.cookie, json })).status).toBe(200);
    expect((await call("/api/support/tickets", { cookie: colleague.cookie })).status).toBe(401);
    expect((await call("/api/admin/people/nobody/ban", { method: "POST", cookie: admin.cookie, json })).status).toBe(404);
  });

  it("a banned person's browser cannot start a new anonymous identity; another browser can; unban lifts it", async () => {
    const admin = await adminUser();
    // A browser's first visit: the session cookie first, then the long-lived device cookie.
    const first = await call("/api/auth/anonymous", { method: "POST" });
    expect(first.status).toBe(201);
    const cookies = first.headers.getSetCookie();
    expect(cookies[1]).toMatch(/^linkup_device=[^;]+;.*HttpOnly/i);
    const device = cookies[1].split(";")[0];
    const { user } = await first.json<{ user: { id: string } }>();

    const banned = await call(`/api/admin/people/${user.id}/ban`, { method: "POST", cookie: admin.cookie, json: { reason: "Threats" } });
    expect(await banned.json()).toMatchObject({ devices: 1 });
    expect(await auditOf(user.id, "support.person_banned")).toMatchObject({ detail: { devices: 1 } });

    // The same browser, its session gone: neither a fresh identity nor a first-visit code request.
    const again = await call("/api/auth/anonymous", { method: "POST", cookie: device });
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ error: BANNED_MESSAGE, code: "banned" });
    const register = await call("/api/auth/register", { method: "POST", cookie: device, json: { phoneNumber: "09031234567" } });
    expect(register.status).toBe(403);
    expect(await register.json()).toEqual({ error: BANNED_MESSAGE, code: "banned" });
    // A browser with no device cookie (another browser, cleared cookies) gets through: the limit of this rule.
    expect((await call("/api/auth/anonymous", { method: "POST" })).status).toBe(201);

    await call(`/api/admin/people/${user.id}/unban`, { method: "POST", cookie: admin.cookie });
    const lifted = await call("/api/auth/anonymous", { method: "POST", cookie: device });
    expect(lifted.status).toBe(201);
    // The browser kept its device cookie, so no new one is set.
    expect(lifted.headers.getSetCookie().some((c) => c.startsWith("linkup_device="))).toBe(false);
  });

  it("a ban revokes the person's API keys and push subscriptions; unban brings neither back", async () => {
    const admin = await adminUser();
    const person = await verifiedUser("Keyed");
    const made = await call("/api/api-keys", { method: "POST", cookie: person.cookie, json: { name: "bot" } });
    const { key } = await made.json<{ key: string }>();
    const bearer = { authorization: `Bearer ${key}` };
    expect((await call("/api/me", { headers: bearer })).status).toBe(200);
    await env.DB.prepare("insert into push_subscriptions (id, user_id, endpoint, p256dh, auth) values (?, ?, ?, 'p', 'a')")
      .bind(crypto.randomUUID(), person.id, `https://push.example/${person.id}`)
      .run();

    const banned = await call(`/api/admin/people/${person.id}/ban`, { method: "POST", cookie: admin.cookie, json: { reason: "Abuse" } });
    expect(await banned.json()).toMatchObject({ keysRevoked: 1, pushesDropped: 1 });
    for (const path of ["/api/me", "/api/emergency/nearby"]) {
      expect((await call(path, { headers: bearer })).status).toBe(401);
    }
    const pushes = await env.DB.prepare("select count(*) as n from push_subscriptions where user_id = ?")
      .bind(person.id)
      .first<{ n: number }>();
    expect(pushes?.n).toBe(0);

    await call(`/api/admin/people/${person.id}/unban`, { method: "POST", cookie: admin.cookie });
    expect((await call("/api/me", { headers: bearer })).status).toBe(401);
  });

  it("a key whose owner is banned is refused even if it escaped revocation (403 with the suspension message)", async () => {
    const person = await verifiedUser("Escaped");
    const made = await call("/api/api-keys", { method: "POST", cookie: person.cookie, json: { name: "bot" } });
    const { key } = await made.json<{ key: string }>();
    // A ban written without the revocation step (an older ban, a direct write): the key itself still looks live.
    await env.DB.prepare("update users set banned_at = ?, ban_reason = 'old ban' where id = ?").bind(Date.now(), person.id).run();
    for (const [method, path, json] of [
      ["GET", "/api/me", undefined],
      ["POST", "/api/emergency/broadcast", { message: "help", emergencyType: "medical", clientRequestId: "escaped-key-1" }],
      ["POST", "/api/ai/chat", { message: "hello" }],
    ] as const) {
      const res = await call(path, { method, headers: { authorization: `Bearer ${key}` }, json });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: BANNED_MESSAGE, code: "banned" });
    }
  });
});
