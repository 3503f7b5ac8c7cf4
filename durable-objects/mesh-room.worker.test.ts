// MeshRoom through the real Worker: WebSockets opened with SELF.fetch and a session cookie, the Durable Object
// in workerd with its SQLite storage, D1 for metadata.
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decryptContent, derivePairwiseKey, encryptContent, exportPublicKey, generateDeviceKeyPair } from "../core/crypto";
import { dmRoomId, MAX_META_BYTES } from "../core/envelope";
import { MAX_FRAME_BYTES } from "../core/frames";
import type { RoomStats } from "../core/rooms";
import { newId } from "../core/ids";
import { createDb } from "../db";
import { countActiveConnections } from "../db/queries/rooms";
import { findRoomActivity } from "../db/queries/room-activity";
import { anonymousSession, call, shareAnAreaRoom } from "../tests/workers/helpers";
import { CLOSE_REPLACED as CLIENT_CLOSE_REPLACED } from "../core/frames";
import type { MeshRoom } from "./mesh-room";
import { MAX_SOCKETS_PER_PERSON, PERSON_RATE, RESUME_MAX_BYTES } from "./mesh-logic";
import { flushRoom, mustOpen, openRoom, type RoomSocket, textEnvelope } from "../tests/workers/room-socket";
import { until } from "../tests/workers/until";

const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";
/** A fresh area room per test (storage is shared within the file). */
const area = () => `nearby:${Array.from({ length: 5 }, () => GEOHASH[Math.floor(Math.random() * 32)]).join("")}`;
const stubOf = (roomId: string) => env.ROOMS.get(env.ROOMS.idFromName(roomId));

async function group(owner: { cookie: string }, memberIds: string[]): Promise<string> {
  const res = await call("/api/rooms/groups", { method: "POST", cookie: owner.cookie, json: { name: "Market women", memberIds } });
  expect(res.status).toBe(201);
  return (await res.json<{ room: { id: string } }>()).room.id;
}

/** A group whose invited people have all accepted. */
async function groupOf(owner: { cookie: string }, members: { cookie: string; user: { id: string } }[]): Promise<string> {
  const roomId = await group(
    owner,
    members.map((m) => m.user.id),
  );
  for (const m of members) {
    const res = await call(`/api/rooms/invitations/${encodeURIComponent(roomId)}/accept`, { method: "POST", cookie: m.cookie });
    expect(res.status).toBe(200);
  }
  return roomId;
}

describe("socket upgrade", () => {
  it("refuses an upgrade without a session with 401", async () => {
    const { status, body } = await openRoom(area());
    expect(status).toBe(401);
    expect(body).toEqual({ error: "Sign in required", code: "sign_in_required" });
  });

  it("lets any signed-in user into an area room but only members into groups and direct chats", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const c = await anonymousSession();
    const nearby = await openRoom(area(), c.cookie);
    expect(nearby.status).toBe(101);
    nearby.socket?.close();

    const roomId = await groupOf(a, [b]);
    expect((await openRoom(roomId, c.cookie)).status).toBe(403);
    expect((await openRoom(roomId, c.cookie)).body).toEqual({ error: "You are not a member of this room", code: "not_member" });
    const member = await openRoom(roomId, b.cookie);
    expect(member.status).toBe(101);
    member.socket?.close();

    const dm = dmRoomId(a.user.id, b.user.id);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } })).status).toBe(201);
    expect((await openRoom(dm, c.cookie)).status).toBe(403);
    const ok = await openRoom(dm, b.cookie);
    expect(ok.status).toBe(101);
    ok.socket?.close();

    expect((await openRoom("group:doesnotexist123", a.cookie)).status).toBe(404);
    expect((await openRoom("lobby", a.cookie)).status).toBe(404);
  });
});

describe("relay, storage and resume", () => {
  it("acks once stored, relays to the others once, and dedupes a resent envelope", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    await sa.waitForPresence((p) => p.nodes === 2);
    const presence = await sb.waitForPresence((p) => p.nodes === 2);
    expect(presence.members.map((m) => m.userId).sort()).toEqual([a.user.id, b.user.id].sort());

    const env1 = textEnvelope(roomId, a.user.id, "Rain is coming to Ikeja market");
    sa.send({ type: "send", envelope: env1 });
    const ack = await sa.waitForType("ack", (f) => f.id === env1.id);
    expect(ack).toMatchObject({ status: "sent", seq: 1 });
    expect(ack.duplicate).toBeUndefined();
    const got = await sb.waitForType("envelope", (f) => f.envelope.id === env1.id);
    expect(got.seq).toBe(1);
    expect(got.envelope.content).toEqual({ text: "Rain is coming to Ikeja market" });

    sa.send({ type: "send", envelope: env1 });
    const again = await sa.waitFor(() => sa.of("ack").filter((f) => f.id === env1.id)[1]);
    expect(again).toMatchObject({ seq: 1, duplicate: true });
    // A later envelope arrives, and the resend was never relayed a second time.
    const env2 = textEnvelope(roomId, a.user.id, "second");
    sa.send({ type: "send", envelope: env2 });
    await sb.waitForType("envelope", (f) => f.envelope.id === env2.id);
    expect(sb.of("envelope").filter((f) => f.envelope.id === env1.id)).toHaveLength(1);
    expect(sa.of("envelope")).toHaveLength(0);

    // Nothing reached D1 on the way; the room's batch counts the two messages once, the resend not at all.
    const db = createDb(env);
    expect(await findRoomActivity(db, roomId)).toBeUndefined();
    expect(await flushRoom(roomId)).toBe(true);
    expect(await findRoomActivity(db, roomId)).toMatchObject({ messages: 2 });
    sa.close();
    sb.close();
  });

  it("keeps envelopes across eviction and answers a resume cursor with everything missed", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const texts = ["one", "two", "three"];
    for (const text of texts) {
      const e = textEnvelope(roomId, a.user.id, text);
      sa.send({ type: "send", envelope: e });
      await sa.waitForType("ack", (f) => f.id === e.id);
    }
    // The room is torn down with its sockets closed: only its storage survives.
    await evictDurableObject(stubOf(roomId), { webSockets: "close" });

    const sb = await mustOpen(roomId, b.cookie);
    expect(sb.of("hello")[0]).toMatchObject({ latestSeq: 3, encrypted: false, userId: b.user.id, room: roomId });
    sb.send({ type: "resume", cursor: 0 });
    const done = await sb.waitForType("resume-done");
    expect(done.cursor).toBe(3);
    const items = sb.of("resume-batch").flatMap((f) => f.items);
    expect(items.map((i) => i.seq)).toEqual([1, 2, 3]);
    expect(items.map((i) => (i.envelope.content as { text: string }).text)).toEqual(texts);

    sb.send({ type: "resume", cursor: 2 });
    await sb.waitFor(() => sb.of("resume-done").length === 2);
    expect(
      sb
        .of("resume-batch")
        .flatMap((f) => f.items)
        .slice(3)
        .map((i) => i.seq),
    ).toEqual([3]);
    sb.close();
  });

  it("keeps relaying on hibernated sockets after the room is evicted", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    await evictDurableObject(stubOf(roomId));
    const e = textEnvelope(roomId, a.user.id, "after eviction");
    sa.send({ type: "send", envelope: e });
    expect((await sa.waitForType("ack", (f) => f.id === e.id)).seq).toBe(1);
    await sb.waitForType("envelope", (f) => f.envelope.id === e.id);
    sa.close();
    sb.close();
  });

  it("sends missed emergencies first on resume", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const plain = textEnvelope(roomId, a.user.id, "hello");
    sa.send({ type: "send", envelope: plain });
    await sa.waitForType("ack", (f) => f.id === plain.id);
    // An SOS comes from the SOS module (deliver RPC), never from a member's socket.
    const sos = textEnvelope(roomId, a.user.id, "Flooding on Herbert Macaulay Way", { type: "emergency" });
    await stubOf(roomId).deliver(sos);
    const sb = await mustOpen(roomId, b.cookie);
    sb.send({ type: "resume", cursor: 0 });
    await sb.waitForType("resume-done");
    const items = sb.of("resume-batch").flatMap((f) => f.items);
    expect(items.map((i) => i.envelope.id)).toEqual([sos.id, plain.id]);
    expect(items[0].envelope.priority).toBe("high");
    sa.close();
    sb.close();
  });

  it("writes no D1 row on connect or close: the room's batch says who is present, then that they left", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const db = createDb(env);
    expect(await countActiveConnections(db, roomId)).toBe(0);
    expect(await flushRoom(roomId)).toBe(true);
    expect(await countActiveConnections(db, roomId)).toBe(1);
    sa.close();
    await until(async () => {
      await flushRoom(roomId);
      return (await countActiveConnections(db, roomId)) === 0;
    });
  });

  it("drops the presence of sockets lost when the room was torn down without close events", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sa2 = await mustOpen(roomId, a.cookie);
    const db = createDb(env);
    await flushRoom(roomId);
    expect(await countActiveConnections(db, roomId)).toBe(2);
    await evictDurableObject(stubOf(roomId), { webSockets: "close" });
    const again = await mustOpen(roomId, a.cookie);
    await flushRoom(roomId);
    expect(await countActiveConnections(db, roomId)).toBe(1);
    for (const s of [sa, sa2, again]) s.close();
  });
});

describe("receipts and presence", () => {
  it("relays delivered and read receipts to the sender, and replays them on resume", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const e = textEnvelope(roomId, a.user.id, "Are you at the clinic?");
    sa.send({ type: "send", envelope: e });
    await sb.waitForType("envelope", (f) => f.envelope.id === e.id);

    sb.send({ type: "receipt", status: "delivered", ids: [e.id] });
    expect(await sa.waitForType("receipt", (f) => f.status === "delivered")).toMatchObject({ ids: [e.id], by: b.user.id });
    sb.send({ type: "receipt", status: "read", ids: [e.id] });
    expect(await sa.waitForType("receipt", (f) => f.status === "read")).toMatchObject({ ids: [e.id], by: b.user.id });
    // B does not get receipts for A's envelope, and a late 'delivered' never undoes 'read'.
    sb.send({ type: "receipt", status: "delivered", ids: [e.id] });
    await sa.waitFor(() => sa.of("receipt").length === 3);
    expect(sb.of("receipt")).toHaveLength(0);

    sa.close();
    const back = await mustOpen(roomId, a.cookie);
    back.send({ type: "resume", cursor: 1 });
    const done = await back.waitForType("resume-done");
    expect(done.receipts).toEqual([{ id: e.id, status: "read", by: b.user.id }]);
    back.close();
    sb.close();
  });

  it("in a group, passes each envelope's receipt signature to the sender and hands it back on resume", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const roomId = await groupOf(a, [b]);
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const sealed = () =>
      textEnvelope(roomId, a.user.id, "", { isEncrypted: true, content: { ciphertext: "A".repeat(40), iv: "iv-0123456789ab" } });
    const [e1, e2] = [sealed(), sealed()];
    for (const e of [e1, e2]) {
      sa.send({ type: "send", envelope: e });
      await sb.waitForType("envelope", (f) => f.envelope.id === e.id);
    }
    const device = "d".repeat(43);
    const [sig1, sig2] = ["1".repeat(86), "2".repeat(86)];
    sb.send({ type: "receipt", status: "read", ids: [e1.id, e2.id], proof: { device, at: 1_700_000_000_000, sigs: [sig1, sig2] } });
    const live = await sa.waitForType("receipt", (f) => f.status === "read");
    expect(live).toMatchObject({ by: b.user.id, proof: { device, at: 1_700_000_000_000 } });
    // Each id keeps its own signature, whatever order the room lists them in.
    const pairs = live.ids.map((id, i) => [id, live.proof?.sigs[i]] as const);
    expect(new Map(pairs)).toEqual(
      new Map([
        [e1.id, sig1],
        [e2.id, sig2],
      ]),
    );
    // A late, unsigned 'delivered' does not replace the signed 'read'.
    sb.send({ type: "receipt", status: "delivered", ids: [e1.id] });
    await sa.waitFor(() => sa.of("receipt").length === 2);
    sa.close();
    const back = await mustOpen(roomId, a.cookie);
    back.send({ type: "resume", cursor: 0 });
    const done = await back.waitForType("resume-done", (f) => !f.more);
    expect(done.receipts).toEqual([
      { id: e1.id, status: "read", by: b.user.id, proof: { device, at: 1_700_000_000_000, sig: sig1 } },
      { id: e2.id, status: "read", by: b.user.id, proof: { device, at: 1_700_000_000_000, sig: sig2 } },
    ]);
    back.close();
    sb.close();
  });

  it("counts nodes as sockets join and leave, and relays typing", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sa2 = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const p = await sa.waitForPresence((f) => f.nodes === 3);
    expect(p.members.find((m) => m.userId === a.user.id)?.nodes).toBe(2);
    sb.send({ type: "typing", active: true });
    expect(await sa.waitForType("typing")).toMatchObject({ userId: b.user.id, active: true });
    // A direct chat's typing frame carries its device's signature (docs/protocol.md §7b): passed on as it came.
    const proof = { device: "d".repeat(43), at: 1_700_000_000_000, sig: "s".repeat(86) };
    sb.send({ type: "typing", active: false, proof });
    expect(await sa.waitForType("typing", (f) => !f.active)).toEqual({
      type: "typing",
      userId: b.user.id,
      nickname: expect.any(String),
      active: false,
      proof,
    });
    sb.close();
    await sa.waitForPresence((f) => f.nodes === 2 && f.people === 1 && f.members.length === 1);
    sa2.close();
    await sa.waitForPresence((f) => f.nodes === 1 && f.members[0]?.nodes === 1);
    sa.close();
  });
});

describe("room stats", () => {
  it("reports live nodes, people, active connections, stored and relayed messages; private rooms to members only", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sa2 = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const e = textEnvelope(roomId, a.user.id, "hi all");
    sa.send({ type: "send", envelope: e });
    await sb.waitForType("envelope", (f) => f.envelope.id === e.id);
    await sa2.waitForType("envelope", (f) => f.envelope.id === e.id);
    const stats = await until(async () => {
      const res = await call(`/api/rooms/${encodeURIComponent(roomId)}/stats`, { cookie: b.cookie });
      const body = await res.json<RoomStats>();
      return body.activeConnections === 3 ? body : null;
    });
    expect(stats).toMatchObject({ roomId, nodes: 3, people: 2, activeConnections: 3, messagesStored: 1, messagesRelayed: 2 });
    expect(stats.present).toEqual(
      expect.arrayContaining([
        { userId: a.user.id, nickname: a.user.nickname, nodes: 2 },
        { userId: b.user.id, nickname: b.user.nickname, nodes: 1 },
      ]),
    );

    const groupId = await group(a, []);
    const outsider = await call(`/api/rooms/${encodeURIComponent(groupId)}/stats`, { cookie: b.cookie });
    expect(outsider.status).toBe(403);
    for (const s of [sa, sa2, sb]) s.close();
  });
});

describe("bad frames and limits", () => {
  async function stillWorks(s: RoomSocket, roomId: string, userId: string) {
    const e = textEnvelope(roomId, userId, "still here");
    s.send({ type: "send", envelope: e });
    await s.waitForType("ack", (f) => f.id === e.id);
    expect(s.closed).toBeNull();
  }

  it("answers malformed frames with an error frame and keeps the socket open", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const s = await mustOpen(roomId, a.cookie);
    s.sendRaw("this is not json");
    expect(await s.waitForType("error")).toMatchObject({ code: "malformed", message: "Frame is not valid JSON" });
    s.send({ type: "send", envelope: { id: "short" } });
    await s.waitFor(() => s.of("error").length === 2);
    expect(s.of("error")[1].code).toBe("malformed");
    s.send({ type: "launch-missiles" });
    await s.waitFor(() => s.of("error").length === 3);
    await stillWorks(s, roomId, a.user.id);
    s.close();
  });

  it("refuses frames over 64 KiB with too_large and keeps the socket open", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const s = await mustOpen(roomId, a.cookie);
    s.send({ type: "typing", active: true, pad: "x".repeat(MAX_FRAME_BYTES) });
    expect(await s.waitForType("error")).toMatchObject({ code: "too_large" });
    await stillWorks(s, roomId, a.user.id);
    s.close();
  });

  it("refuses an envelope too big to relay within the frame limit, and keeps every resume frame within it", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const roomId = await groupOf(a, [b]);
    const s = await mustOpen(roomId, a.cookie);
    const sealed = (n: number, extra: Partial<ReturnType<typeof textEnvelope>> = {}) =>
      textEnvelope(roomId, a.user.id, "", { isEncrypted: true, content: { ciphertext: "A".repeat(n), iv: "iv-0123456789ab" }, ...extra });
    // Within every field's limit (meta too), yet too big to relay inside a frame with its wrapping.
    const huge = sealed(60_000, {
      meta: { pad: "x".repeat(3_900) },
      meshRoute: Array.from({ length: 16 }, () => "r".repeat(60)),
      content: { ciphertext: "A".repeat(60_000), iv: "iv-0123456789ab", keyId: "k".repeat(128) },
    });
    const frame = JSON.stringify({ type: "send", envelope: huge });
    expect(new TextEncoder().encode(frame).byteLength).toBeLessThan(MAX_FRAME_BYTES);
    s.sendRaw(frame);
    expect(await s.waitForType("error")).toMatchObject({ code: "too_large", id: huge.id });

    const big = [sealed(50_000), sealed(50_000), sealed(20_000), sealed(20_000)];
    for (const e of big) {
      s.send({ type: "send", envelope: e });
      await s.waitForType("ack", (f) => f.id === e.id);
    }
    const late = await mustOpen(roomId, b.cookie);
    late.send({ type: "resume", cursor: 0 });
    await late.waitForType("resume-done");
    expect(late.of("resume-batch").flatMap((f) => f.items.map((i) => i.envelope.id))).toEqual(big.map((e) => e.id));
    expect(late.of("resume-batch").length).toBe(3);
    expect(Math.max(...late.sizes)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    s.close();
    late.close();
  });

  it("rate-limits each person over all their sockets, says when to retry, still relays an SOS, and recovers", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    // One person on four sockets shares one budget: 4 × 40 pings get at most the burst (plus a little refill).
    const mine = [
      await mustOpen(roomId, a.cookie),
      await mustOpen(roomId, a.cookie),
      await mustOpen(roomId, a.cookie),
      await mustOpen(roomId, a.cookie),
    ];
    const other = await mustOpen(roomId, b.cookie);
    for (let i = 0; i < 40; i++) for (const s of mine) s.send({ type: "ping", at: i });
    await Promise.all(mine.map((s) => s.waitFor(() => s.of("pong").length + s.of("error").length === 40)));
    const pongs = mine.reduce((n, s) => n + s.of("pong").length, 0);
    expect(pongs).toBeGreaterThanOrEqual(PERSON_RATE.burst);
    expect(pongs).toBeLessThan(100);
    const limited = mine.flatMap((s) => s.of("error")).find((f) => f.code === "rate_limited");
    expect(limited?.retryAfterMs).toBeGreaterThan(0);
    expect(limited?.message).toBe("Too many messages. Slow down a little.");
    // Another person has their own budget.
    other.send({ type: "ping", at: 1 });
    await other.waitForType("pong");

    // An SOS (from the SOS module) still reaches the limited person and the others.
    const sos = textEnvelope(roomId, a.user.id, "Fire at Balogun market", { type: "emergency" });
    await stubOf(roomId).deliver(sos);
    await other.waitForType("envelope", (f) => f.envelope.id === sos.id);
    await mine[0].waitForType("envelope", (f) => f.envelope.id === sos.id);

    await new Promise((r) => setTimeout(r, (limited?.retryAfterMs ?? 100) + 100));
    await stillWorks(mine[0], roomId, a.user.id);
    for (const s of [...mine, other]) s.close();
  });

  it("keeps at most 4 sockets per person in a room: a fifth replaces the oldest", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sockets: RoomSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_PERSON; i++) sockets.push(await mustOpen(roomId, a.cookie));
    const bs = await mustOpen(roomId, b.cookie);
    const newest = await mustOpen(roomId, a.cookie);
    await sockets[0].waitFor(() => sockets[0].closed);
    expect(sockets[0].closed?.code).toBe(CLIENT_CLOSE_REPLACED);
    expect(sockets.slice(1).map((s) => s.closed)).toEqual([null, null, null]);
    const presence = await bs.waitForPresence((p) => p.nodes === MAX_SOCKETS_PER_PERSON + 1);
    expect(presence.members.find((m) => m.userId === a.user.id)?.nodes).toBe(MAX_SOCKETS_PER_PERSON);
    const db = createDb(env);
    await flushRoom(roomId);
    expect(await countActiveConnections(db, roomId)).toBe(MAX_SOCKETS_PER_PERSON + 1);
    await stillWorks(newest, roomId, a.user.id);
    for (const s of [...sockets, bs, newest]) s.close();
  });

  it("answers one resume with at most 256 KiB and the cursor to continue from; resumes are rate-limited per person", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const roomId = await groupOf(a, [b]);
    const stub = stubOf(roomId);
    const sealed = () =>
      textEnvelope(roomId, a.user.id, "", { isEncrypted: true, content: { ciphertext: "A".repeat(50_000), iv: "iv-0123456789ab" } });
    const sent = Array.from({ length: 12 }, sealed);
    await runInDurableObject(stub, async (room: MeshRoom) => {
      for (const e of sent) await room.deliver(e);
    });
    const s = await mustOpen(roomId, b.cookie);
    s.send({ type: "resume", cursor: 0 });
    const first = await s.waitForType("resume-done");
    expect(first.more).toBe(true);
    const bytes = s.sizes.slice(2).reduce((n, x) => n + x, 0);
    expect(bytes).toBeLessThanOrEqual(RESUME_MAX_BYTES + MAX_FRAME_BYTES);
    const got = () => s.of("resume-batch").flatMap((f) => f.items.map((i) => i.seq));
    expect(first.cursor).toBe(Math.max(...got()));
    expect(got().length).toBeLessThan(sent.length);
    // Continuing from each cursor brings the rest, each once, until an answer without `more`.
    let done = first;
    while (done.more) {
      const n = s.of("resume-done").length;
      s.send({ type: "resume", cursor: done.cursor });
      done = await s.waitFor(() => s.of("resume-done")[n]);
    }
    expect(done.cursor).toBe(sent.length);
    expect(got()).toEqual(Array.from({ length: sent.length }, (_, i) => i + 1));

    // A flood of resumes is refused past the person's budget, with when to try again.
    for (let i = 0; i < 12; i++) s.send({ type: "resume", cursor: sent.length });
    const limited = await s.waitForType("error", (f) => f.code === "rate_limited");
    expect(limited.message).toBe("Too many catch-ups at once. Trying again shortly.");
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    s.close();
  });

  it("refuses envelopes for another room, from someone else, or ciphertext in a public room", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const s = await mustOpen(roomId, a.cookie);
    s.send({ type: "send", envelope: textEnvelope("nearby:zzzzz", a.user.id, "x") });
    s.send({ type: "send", envelope: textEnvelope(roomId, "someone-else", "x") });
    s.send({
      type: "send",
      envelope: textEnvelope(roomId, a.user.id, "", { isEncrypted: true, content: { ciphertext: "abc", iv: "def" } }),
    });
    await s.waitFor(() => s.of("error").length === 3);
    expect(s.of("error").map((e) => e.code)).toEqual(["forbidden", "forbidden", "plaintext_refused"]);
    expect(s.of("ack")).toHaveLength(0);
    s.close();
  });
});

describe("the server decides who says what", () => {
  it("refuses assistant, system and emergency envelopes from a member's socket; nobody receives them", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const forged = (["ai", "system", "emergency"] as const).map((type) =>
      textEnvelope(roomId, a.user.id, "Your account is locked, send your code", {
        type,
        senderName: type === "ai" ? "LIA Assistant" : "LinkUp Support",
        priority: "high",
      }),
    );
    for (const e of forged) sa.send({ type: "send", envelope: e });
    await sa.waitFor(() => sa.of("error").length === 3);
    expect(sa.of("error")).toEqual(
      forged.map((e) => ({
        type: "error",
        code: "forbidden",
        id: e.id,
        message: "Emergency, system and assistant messages come only from LinkUp itself",
      })),
    );
    expect(sa.of("ack")).toHaveLength(0);
    // A text after them reaches b, and none of the forged ones did, live or on resume.
    const ok = textEnvelope(roomId, a.user.id, "just me");
    sa.send({ type: "send", envelope: ok });
    await sb.waitForType("envelope", (f) => f.envelope.id === ok.id);
    expect(sb.of("envelope").map((f) => f.envelope.id)).toEqual([ok.id]);
    sb.send({ type: "resume", cursor: 0 });
    await sb.waitForType("resume-done");
    expect(sb.of("resume-batch").flatMap((f) => f.items.map((i) => i.envelope.id))).toEqual([ok.id]);
    sa.close();
    sb.close();
  });

  it("replaces a forged sender name with the one the server knows, and keeps member messages at normal priority", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const e = textEnvelope(roomId, a.user.id, "Please verify at my link", { senderName: "LinkUp Support", priority: "high" });
    sa.send({ type: "send", envelope: e });
    const got = await sb.waitForType("envelope", (f) => f.envelope.id === e.id);
    expect(got.envelope.senderName).toBe(a.user.nickname);
    expect(got.envelope.priority).toBe("normal");
    sb.send({ type: "resume", cursor: 0 });
    await sb.waitForType("resume-done");
    expect(sb.of("resume-batch")[0].items[0].envelope.senderName).toBe(a.user.nickname);
    sa.close();
    sb.close();
  });

  it("refuses meta over 4 KiB with too_large and relays meta within it", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const b = await anonymousSession();
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const big = textEnvelope(roomId, a.user.id, "see meta", { meta: { pad: "x".repeat(MAX_META_BYTES) } });
    sa.send({ type: "send", envelope: big });
    expect(await sa.waitForType("error")).toMatchObject({ code: "too_large", id: big.id });
    const small = textEnvelope(roomId, a.user.id, "📍 here", { meta: { location: { latitude: 6.45, longitude: 3.39 } } });
    sa.send({ type: "send", envelope: small });
    const got = await sb.waitForType("envelope", (f) => f.envelope.id === small.id);
    expect(got.envelope.meta).toEqual({ location: { latitude: 6.45, longitude: 3.39 } });
    expect(sb.of("envelope")).toHaveLength(1);
    sa.close();
    sb.close();
  });
});

describe("private rooms hold ciphertext only", () => {
  it("relays end-to-end encrypted envelopes that only members can read; no plaintext at rest", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const roomId = await groupOf(a, [b]);
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    expect(sa.of("hello")[0].encrypted).toBe(true);

    const secret = "PIN for the cooperative account is 4471";
    sa.send({ type: "send", envelope: textEnvelope(roomId, a.user.id, secret) });
    expect(await sa.waitForType("error")).toMatchObject({ code: "plaintext_refused" });

    // Real X25519 + HKDF + AES-GCM inside workerd (the same core/crypto the browser runs).
    const ka = await generateDeviceKeyPair();
    const kb = await generateDeviceKeyPair();
    const key = await derivePairwiseKey(ka, await exportPublicKey(kb.publicKey), roomId);
    const id = newId();
    const content = await encryptContent(key, secret, `${roomId}|${id}`);
    sa.send({ type: "send", envelope: textEnvelope(roomId, a.user.id, "", { id, isEncrypted: true, content }) });
    await sa.waitForType("ack", (f) => f.id === id);
    const got = await sb.waitForType("envelope", (f) => f.envelope.id === id);
    const keyB = await derivePairwiseKey(kb, await exportPublicKey(ka.publicKey), roomId);
    expect(await decryptContent(keyB, got.envelope.content as { ciphertext: string; iv: string }, `${roomId}|${id}`)).toBe(secret);

    const stored = await runInDurableObject(stubOf(roomId), (_i, state) =>
      state.storage.sql.exec<{ body: string }>("SELECT body FROM envelopes").toArray(),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].body).toContain(content.ciphertext);
    expect(stored[0].body).not.toContain("cooperative");

    // D1 holds a count of the room's messages, never their content.
    await flushRoom(roomId);
    expect(await findRoomActivity(createDb(env), roomId)).toMatchObject({ messages: 1 });
    sa.close();
    sb.close();
  });
});

describe("direct message push", () => {
  const sealed = (roomId: string, senderId: string) =>
    textEnvelope(roomId, senderId, "", { isEncrypted: true, content: { ciphertext: "c2VhbGVk", iv: "aXZpdml2aXZpdml2" } });
  const titles = async (cookie: string) =>
    (await (await call("/api/notifications", { cookie })).json<{ notifications: { title: string; content: string }[] }>()).notifications;

  it("tells a person away from LinkUp once, naming the sender but not the text, and again after they came back", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    // People who know each other (a stranger's request tells once in all: docs/decisions/050-…).
    await shareAnAreaRoom(a, b);
    const dm = dmRoomId(a.user.id, b.user.id);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } })).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    for (const _ of [1, 2]) {
      const envelope = sealed(dm, a.user.id);
      sa.send({ type: "send", envelope });
      await sa.waitForType("ack", (f) => f.id === envelope.id);
    }
    const first = await until(async () => {
      const list = await titles(b.cookie);
      return list.length ? list : null;
    });
    expect(first).toEqual([
      expect.objectContaining({
        title: `New message from ${a.user.nickname}`,
        content: "You have a new encrypted message. Open LinkUp to read it.",
      }),
    ]);

    // B opens the chat and leaves; the next message while away is told again.
    const sb = await mustOpen(dm, b.cookie);
    sb.close();
    // Gone from the chat as of the room's next batch (docs/decisions/056-…).
    await until(async () => {
      await flushRoom(dm);
      return !(await env.DB.prepare("SELECT 1 FROM room_presence WHERE user_id = ?").bind(b.user.id).first());
    });
    const later = sealed(dm, a.user.id);
    sa.send({ type: "send", envelope: later });
    await sa.waitForType("ack", (f) => f.id === later.id);
    await until(async () => (await titles(b.cookie)).length === 2);
    sa.close();
  });

  it("does not push to someone with LinkUp open, in this chat or elsewhere", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const dm = dmRoomId(a.user.id, b.user.id);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } })).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    const elsewhereRoom = area();
    const elsewhere = await mustOpen(elsewhereRoom, b.cookie);
    // Online elsewhere as of that room's batch, at most a minute after they came (docs/decisions/056-…).
    await flushRoom(elsewhereRoom);
    const envelope = sealed(dm, a.user.id);
    sa.send({ type: "send", envelope });
    await sa.waitForType("ack", (f) => f.id === envelope.id);
    // A message the room has stored and relayed after it, so the push decision for the first has been made.
    const inChat = await mustOpen(dm, b.cookie);
    const next = sealed(dm, a.user.id);
    sa.send({ type: "send", envelope: next });
    await inChat.waitForType("envelope", (f) => f.envelope.id === next.id);
    await new Promise((r) => setTimeout(r, 200));
    expect(await titles(b.cookie)).toEqual([]);
    for (const s of [sa, elsewhere, inChat]) s.close();
  });
});

describe("deliver RPC (server-made envelopes)", () => {
  it("stores and relays like a member send, once per id", async () => {
    const roomId = area();
    const a = await anonymousSession();
    const s = await mustOpen(roomId, a.cookie);
    const e = textEnvelope(roomId, "system", "Emergency alert: flooding reported near you", { type: "emergency" });
    const first = await stubOf(roomId).deliver(e);
    expect(first).toMatchObject({ delivered: 1, seq: 1, duplicate: false });
    const got = await s.waitForType("envelope", (f) => f.envelope.id === e.id);
    expect(got.envelope.priority).toBe("high");
    expect(await stubOf(roomId).deliver(e)).toMatchObject({ delivered: 0, seq: 1, duplicate: true });
    const b = await anonymousSession();
    const late = await mustOpen(roomId, b.cookie);
    late.send({ type: "resume", cursor: 0 });
    await late.waitForType("resume-done");
    expect(late.of("resume-batch").flatMap((f) => f.items.map((i) => i.envelope.id))).toEqual([e.id]);
    expect(s.of("envelope")).toHaveLength(1);
    s.close();
    late.close();
  });
});

describe("retention", () => {
  it("keeps the last 1,000 envelopes once older ones pass 7 days, streams long resumes in batches, remembers pruned ids", async () => {
    const roomId = area();
    const stub = stubOf(roomId);
    const sent: ReturnType<typeof textEnvelope>[] = [];
    // Delivered inside the object (the same deliver() the RPC runs), without an RPC round trip each.
    const put = (count: number) =>
      runInDurableObject(stub, async (room: MeshRoom) => {
        for (let i = 0; i < count; i++) {
          const e = textEnvelope(roomId, "system", `notice ${sent.length + 1}`, { type: "system" });
          sent.push(e);
          await room.deliver(e);
        }
      });
    // Everything is recent: nothing is pruned, however many.
    await put(1100);
    const stored = () =>
      runInDurableObject(
        stub,
        (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM envelopes WHERE body IS NOT NULL").one().n,
      );
    expect(await stored()).toBe(1100);
    // Age them past 7 days; the next prune keeps only the newest 1,000.
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE envelopes SET stored_at = stored_at - ?", 8 * 24 * 3600 * 1000);
    });
    await put(100);
    expect(await stored()).toBe(1000);

    const a = await anonymousSession();
    const s = await mustOpen(roomId, a.cookie);
    s.send({ type: "resume", cursor: 0 });
    const done = await s.waitForType("resume-done");
    expect(done.cursor).toBe(1200);
    const batches = s.of("resume-batch");
    expect(batches.length).toBeGreaterThanOrEqual(20);
    const seqs = batches.flatMap((b) => b.items.map((i) => i.seq));
    expect(seqs).toEqual(Array.from({ length: 1000 }, (_, i) => 201 + i));
    expect(await stub.deliver(sent[0])).toMatchObject({ duplicate: true, seq: 1 });
    s.close();
  }, 60_000);
});
