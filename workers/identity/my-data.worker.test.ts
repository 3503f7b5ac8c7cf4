// My data (issue 15): the export holds what LinkUp keeps about the person, and deleting the account leaves no
// row in any table that names them, nothing of theirs in room storage or R2, and no session.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dmRoomId } from "../../core/envelope";
import { createDb } from "../../db";
import { findUserById } from "../../db/queries/users";
import { files } from "../../db/schema";
import { anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import { flushRoom, mustOpen, textEnvelope } from "../../tests/workers/room-socket";
import { openTicket } from "../assistant/support";

const stubOf = (roomId: string) => env.ROOMS.get(env.ROOMS.idFromName(roomId));
const sealed = (room: string, senderId: string) =>
  textEnvelope(room, senderId, "", { isEncrypted: true, content: { ciphertext: "c2VhbGVk", iv: "aXZpdml2aXZpdml2" } });
const senders = (roomId: string) =>
  runInDurableObject(stubOf(roomId), (_i, state) =>
    state.storage.sql
      .exec<{ sender_id: string }>("SELECT sender_id FROM envelopes")
      .toArray()
      .map((r) => r.sender_id),
  );

/** Every row of every table of the database, as text, for a search of a person's id and phone. */
async function everyRowAsText(): Promise<Record<string, string>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  const out: Record<string, string> = {};
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    out[name] = JSON.stringify(rows.results);
  }
  return out;
}

/** A person with a bit of everything: a group and a direct chat with B, keys, a contact, an SOS, a ticket, a file. */
async function busyPerson() {
  const a = await verifiedSession("0818", "Chioma");
  const b = await anonymousSession();
  const group = await call("/api/rooms/groups", {
    method: "POST",
    cookie: a.cookie,
    json: { name: "Market women", memberIds: [b.user.id] },
  });
  const groupId = (await group.json<{ room: { id: string } }>()).room.id;
  expect((await call(`/api/rooms/invitations/${encodeURIComponent(groupId)}/accept`, { method: "POST", cookie: b.cookie })).status).toBe(
    200,
  );
  const dm = dmRoomId(a.id, b.user.id);
  expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } })).status).toBe(201);
  for (const roomId of [groupId, dm]) {
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    for (const [s, id] of [
      [sa, a.id],
      [sb, b.user.id],
    ] as const) {
      const envelope = sealed(roomId, id);
      s.send({ type: "send", envelope });
      await s.waitForType("ack", (f) => f.id === envelope.id);
    }
    sa.close();
    sb.close();
  }
  await call("/api/keys", { method: "PUT", cookie: a.cookie, json: { deviceId: "phone-1", publicKey: "K".repeat(43) } });
  await call("/api/contacts", { method: "POST", cookie: a.cookie, json: { name: "Mama", phone: "+2348031112222" } });
  await call("/api/security/two-factor/setup", { method: "POST", cookie: a.cookie, json: {} });
  const db = createDb(env);
  const user = await findUserById(db, a.id);
  await openTicket(db, { user: user ?? null, phone: a.phone, message: "My code did not come", category: "technical" });
  await env.DB.prepare("INSERT INTO passkeys (id, user_id, public_key, name) VALUES (?, ?, 'pk', 'Phone')")
    .bind(`cred-${a.id}`, a.id)
    .run();
  const r2Key = `voice/${a.id}/note.webm`;
  await env.FILES.put(r2Key, new Uint8Array([1, 2, 3]));
  await db.insert(files).values({ id: `f-${a.id}`, ownerId: a.id, kind: "voice", name: "note.webm", size: 3, mime: "audio/webm", r2Key });
  // The rooms' minute passes: their batches write counts, points and presence (docs/decisions/056-…).
  for (const roomId of [groupId, dm]) await flushRoom(roomId);
  return { a, b, groupId, dm, r2Key };
}

// Each test builds a busy person through real rooms and sockets: slower than a plain API call on a loaded machine.
const BUSY_TEST_MS = 30_000;

describe("my data", () => {
  it(
    "exports the profile, sessions, memberships, messages, tickets, contacts, files and events, without secrets",
    async () => {
      const { a, groupId, dm } = await busyPerson();
      const res = await call("/api/me/export", { cookie: a.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toContain("attachment");
      const data = await res.json<Record<string, unknown> & { profile: { phone: string }; memberships: { roomId: string }[] }>();
      expect(data.profile.phone).toBe(a.phone);
      expect(data.memberships.map((m) => m.roomId).sort()).toEqual([dm, groupId].sort());
      expect(data).toMatchObject({
        sessions: [expect.objectContaining({ current: true })],
        messages: expect.arrayContaining([expect.objectContaining({ roomId: groupId }), expect.objectContaining({ roomId: dm })]),
        emergencyContacts: [expect.objectContaining({ name: "Mama" })],
        supportTickets: [expect.objectContaining({ message: "My code did not come" })],
        files: [expect.objectContaining({ name: "note.webm" })],
        passkeys: [expect.objectContaining({ name: "Phone" })],
        securityEvents: expect.arrayContaining([expect.objectContaining({ kind: "key_added" })]),
        twoFactor: { enabled: false, enabledAt: null, backupCodesLeft: 0 },
      });
      const secret = await env.DB.prepare("SELECT secret FROM two_factor WHERE user_id = ?").bind(a.id).first<{ secret: string }>();
      const text = JSON.stringify(data);
      expect(text).not.toContain(secret!.secret);
      expect(text).not.toContain("r2Key");
      // The export itself is recorded.
      const events = await (await call("/api/security/overview", { cookie: a.cookie })).json<{ events: { kind: string }[] }>();
      expect(events.events[0].kind).toBe("export");
      expect((await call("/api/me/export")).status).toBe(401);
    },
    BUSY_TEST_MS,
  );

  it(
    "deletes the account: no row names the person, the rooms drop their messages, their file is gone",
    async () => {
      const { a, b, groupId, dm, r2Key } = await busyPerson();
      const wrong = await call("/api/me", { method: "DELETE", cookie: a.cookie, json: { confirm: "delete" } });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({
        error: "Type DELETE MY ACCOUNT to confirm",
        code: "delete_phrase_wrong",
        values: { phrase: "DELETE MY ACCOUNT" },
      });
      expect(Object.values(await everyRowAsText()).some((t) => t.includes(a.id))).toBe(true);

      const res = await call("/api/me", { method: "DELETE", cookie: a.cookie, json: { confirm: "delete my account" } });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().join(";")).toMatch(/linkup_session=;|Max-Age=0/);
      expect((await call("/api/me", { cookie: a.cookie })).status).toBe(401);

      const named = Object.entries(await everyRowAsText())
        .filter(([, text]) => text.includes(a.id) || text.includes(a.phone) || text.includes(a.phone.slice(1)))
        .map(([table]) => table);
      expect(named).toEqual([]);
      // B's message stays in the group; the direct chat with the deleted person is gone on both sides.
      expect(await senders(groupId)).toEqual([b.user.id]);
      expect(await senders(dm)).toEqual([]);
      expect(await env.FILES.get(r2Key)).toBeNull();
      const bRooms = await (await call("/api/rooms", { cookie: b.cookie })).json<{ rooms: { id: string }[] }>();
      expect(bRooms.rooms.map((r) => r.id)).toContain(groupId);
      expect(bRooms.rooms.map((r) => r.id)).not.toContain(dm);
    },
    BUSY_TEST_MS,
  );

  it("refuses while a paid subscription is still running", async () => {
    const { cookie, id } = await verifiedSession("0818");
    await env.DB.prepare("INSERT INTO subscriptions (id, user_id, tier, status, source) VALUES (?, ?, 'premium', 'active', 'stripe')")
      .bind(`sub-${id}`, id)
      .run();
    const res = await call("/api/me", { method: "DELETE", cookie, json: { confirm: "DELETE MY ACCOUNT" } });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: "Cancel your subscription before deleting your account", code: "cancel_subscription_first" });
    expect((await call("/api/me", { cookie })).status).toBe(200);
  });
});
