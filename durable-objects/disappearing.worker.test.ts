// Disappearing messages through the real Worker and MeshRoom (docs/decisions/040-disappearing-messages.md):
// a member sets the chat's timer, the room announces it, stamps each later message's expiry itself, and its
// alarm drops expired messages from its storage and their ciphertext from D1.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DISAPPEAR_MS } from "../core/disappearing";
import { dmRoomId, type Envelope } from "../core/envelope";
import { anonymousSession, call } from "../tests/workers/helpers";
import { mustOpen, type RoomSocket, textEnvelope } from "../tests/workers/room-socket";
import type { MeshRoom } from "./mesh-room";

const stubOf = (roomId: string) => env.ROOMS.get(env.ROOMS.idFromName(roomId)) as DurableObjectStub<MeshRoom>;

async function person(nickname: string) {
  const s = await anonymousSession();
  await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { nickname } });
  return { cookie: s.cookie, id: s.user.id };
}

async function dm() {
  const a = await person("Ada");
  const b = await person("Bola");
  expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.id } })).status).toBe(201);
  return { a, b, room: dmRoomId(a.id, b.id) };
}

const sealed = (room: string, senderId: string, extra: Partial<Envelope> = {}) =>
  textEnvelope(room, senderId, "", { isEncrypted: true, content: { ciphertext: "c2VhbGVk", iv: "iv-0123456789ab" }, ...extra });

async function sendAndAck(socket: RoomSocket, envelope: Envelope) {
  socket.send({ type: "send", envelope });
  await socket.waitForType("ack", (f) => f.id === envelope.id);
}

const setTimer = (cookie: string, room: string, timer: unknown) =>
  call(`/api/rooms/${encodeURIComponent(room)}/disappearing`, { method: "PUT", cookie, json: { timer } });

describe("disappearing messages", () => {
  it("a member sets the chat's timer and the room announces it as its own line", async () => {
    const { a, b, room } = await dm();
    const sb = await mustOpen(room, b.cookie);
    const res = await setTimer(a.cookie, room, "1day");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ timer: "1day", changed: true });
    const line = (await sb.waitForType("envelope")).envelope;
    // No server plain text in a private room: devices word the line from its meta.
    expect(line).toMatchObject({
      senderId: "system",
      type: "system",
      content: { text: "" },
      meta: { event: "disappearing", by: a.id, byName: "Ada", timer: "1day" },
    });
    expect(line.expiresAt).toBeUndefined();
    const read = await call(`/api/rooms/${encodeURIComponent(room)}/disappearing`, { cookie: b.cookie });
    expect(await read.json()).toEqual({ timer: "1day" });
    // The same timer again changes nothing and is not announced twice.
    expect(await (await setTimer(b.cookie, room, "1day")).json()).toEqual({ timer: "1day", changed: false });
    sb.close();
  });

  it("refuses outsiders, area rooms and timers settings do not offer", async () => {
    const { room } = await dm();
    const outsider = await person("Chidi");
    expect((await setTimer(outsider.cookie, room, "1hour")).status).toBe(403);
    const bad = await setTimer((await person("Dayo")).cookie, room, "5minutes");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toHaveProperty("error");
    const area = await setTimer(outsider.cookie, "nearby:s1v0g", "1hour");
    expect(area.status).toBe(400);
    expect(await area.json()).toMatchObject({ error: "Disappearing messages are for direct chats and groups" });
  });

  it("stamps the expiry itself: a client cannot choose one, with the timer off or on", async () => {
    const { a, b, room } = await dm();
    const sa = await mustOpen(room, a.cookie);
    const sb = await mustOpen(room, b.cookie);
    const forever = sealed(room, a.id, { expiresAt: 1 });
    await sendAndAck(sa, forever);
    expect((await sb.waitForType("envelope", (f) => f.envelope.id === forever.id)).envelope.expiresAt).toBeUndefined();

    await setTimer(b.cookie, room, "1day");
    const before = Date.now();
    const chosen = sealed(room, a.id, { expiresAt: Date.now() + 365 * DISAPPEAR_MS["1day"] });
    sa.send({ type: "send", envelope: chosen });
    const ack = await sa.waitForType("ack", (f) => f.id === chosen.id);
    const got = (await sb.waitForType("envelope", (f) => f.envelope.id === chosen.id)).envelope.expiresAt ?? 0;
    // The sender's device learns the same expiry from the acknowledgement, for its own copy.
    expect(ack.expiresAt).toBe(got);
    expect(got).toBeGreaterThanOrEqual(before + DISAPPEAR_MS["1day"]);
    expect(got).toBeLessThanOrEqual(Date.now() + DISAPPEAR_MS["1day"]);
    sa.close();
    sb.close();
  });

  it("the alarm drops an expired message from the room (D1 never held it), and resume never returns it", async () => {
    const { a, b, room } = await dm();
    const sa = await mustOpen(room, a.cookie);
    const kept = sealed(room, a.id);
    await sendAndAck(sa, kept);
    await setTimer(a.cookie, room, "1hour");
    const gone = sealed(room, a.id);
    await sendAndAck(sa, gone);
    // An hour has passed for this message.
    await runInDurableObject(stubOf(room), (_i, state) => {
      state.storage.sql.exec("UPDATE expiries SET expires_at = 1 WHERE id = ?", gone.id);
    });
    expect(await runDurableObjectAlarm(stubOf(room))).toBe(true);
    const bodies = await runInDurableObject(stubOf(room), (_i, state) =>
      state.storage.sql.exec<{ id: string; body: string | null }>("SELECT id, body FROM envelopes").toArray(),
    );
    expect(bodies.find((r) => r.id === gone.id)?.body).toBeNull();
    expect(bodies.find((r) => r.id === kept.id)?.body).toContain("c2VhbGVk");
    // D1 holds the room's count, never a message (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
    const tables = await env.DB.prepare("select name from sqlite_master where type = 'table' and name = 'messages'").all();
    expect(tables.results).toEqual([]);

    const sb = await mustOpen(room, b.cookie);
    sb.send({ type: "resume", cursor: 0 });
    await sb.waitForType("resume-done");
    const resumed = sb.of("resume-batch").flatMap((f) => f.items.map((i) => i.envelope.id));
    expect(resumed).toContain(kept.id);
    expect(resumed).not.toContain(gone.id);
    // A resend of the expired id is a duplicate: it never comes back.
    sa.send({ type: "send", envelope: gone });
    expect(await sa.waitForType("ack", (f) => f.id === gone.id && f.duplicate === true)).toBeTruthy();
    sa.close();
    sb.close();
  });

  it("resume leaves out a message past its expiry even before the alarm ran", async () => {
    const { a, b, room } = await dm();
    const sa = await mustOpen(room, a.cookie);
    await setTimer(a.cookie, room, "1week");
    const gone = sealed(room, a.id);
    await sendAndAck(sa, gone);
    await runInDurableObject(stubOf(room), (_i, state) => {
      state.storage.sql.exec("UPDATE expiries SET expires_at = 1 WHERE id = ?", gone.id);
    });
    const sb = await mustOpen(room, b.cookie);
    sb.send({ type: "resume", cursor: 0 });
    await sb.waitForType("resume-done");
    expect(sb.of("resume-batch").flatMap((f) => f.items.map((i) => i.envelope.id))).not.toContain(gone.id);
    sa.close();
    sb.close();
  });

  it("a new chat starts with its creator's auto-delete setting as its timer", async () => {
    const a = await person("Ada");
    const b = await person("Bola");
    expect((await call("/api/me", { method: "PATCH", cookie: a.cookie, json: { autoDelete: "1week" } })).status).toBe(200);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.id } })).status).toBe(201);
    const room = dmRoomId(a.id, b.id);
    expect(await (await call(`/api/rooms/${encodeURIComponent(room)}/disappearing`, { cookie: b.cookie })).json()).toEqual({
      timer: "1week",
    });
    const group = await call("/api/rooms/groups", { method: "POST", cookie: a.cookie, json: { name: "Market", memberIds: [] } });
    const { room: g } = await group.json<{ room: { id: string } }>();
    expect(await (await call(`/api/rooms/${encodeURIComponent(g.id)}/disappearing`, { cookie: a.cookie })).json()).toEqual({
      timer: "1week",
    });
  });
});
