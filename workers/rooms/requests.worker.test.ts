// Message requests and calls between strangers (docs/decisions/050-consent-before-a-stranger-reaches-you.md), through the
// real Worker, D1 and the direct chat's MeshRoom.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CALL_TEXTS } from "../../core/calls";
import { dmRoomId } from "../../core/envelope";
import { newId } from "../../core/ids";
import { DIRECT_REQUEST_LIMITS, REQUEST_TEXTS, type RoomsAnswer, type RoomSummary } from "../../core/rooms";
import { createDb } from "../../db";
import { MISSED_CALL_NOTICES, RINGS_PER_CALLER_PER_HOUR, takeMissedCallNotice, takeRing } from "../../durable-objects/calls";
import type { MeshRoom } from "../../durable-objects/mesh-room";
import { anonymousSession, call, shareAnAreaRoom, verifiedSession } from "../../tests/workers/helpers";
import { mustOpen, openRoom, type RoomSocket, textEnvelope } from "../../tests/workers/room-socket";
import { until } from "../../tests/workers/until";

type Person = { cookie: string; id: string };
const anon = async (): Promise<Person> => anonymousSession().then((s) => ({ cookie: s.cookie, id: s.user.id }));
const stubOf = (roomId: string) => env.ROOMS.get(env.ROOMS.idFromName(roomId)) as DurableObjectStub<MeshRoom>;
const sealed = (roomId: string, senderId: string) =>
  textEnvelope(roomId, senderId, "", { isEncrypted: true, content: { ciphertext: "c2VhbGVk", iv: "aXZpdml2aXZpdml2" } });
const path = (roomId: string, action: "accept" | "decline") => `/api/rooms/requests/${encodeURIComponent(roomId)}/${action}`;

async function open(from: Person, to: Person) {
  const res = await call("/api/rooms/dm", { method: "POST", cookie: from.cookie, json: { userId: to.id } });
  return { status: res.status, body: await res.json<{ room?: RoomSummary; error?: string }>() };
}

async function roomsOf(p: Person): Promise<RoomsAnswer> {
  return (await call("/api/rooms", { cookie: p.cookie })).json<RoomsAnswer>();
}

async function send(s: RoomSocket, roomId: string, senderId: string) {
  const envelope = sealed(roomId, senderId);
  s.send({ type: "send", envelope });
  return s.waitFor((frames) => frames.find((f) => (f.type === "ack" || f.type === "error") && "id" in f && f.id === envelope.id));
}

const noticesOf = async (userId: string, source: string) =>
  (
    await env.DB.prepare("select count(*) as n from notifications where user_id = ? and source = ?")
      .bind(userId, source)
      .first<{ n: number }>()
  )?.n ?? 0;

let marker = 0;
/** Every frame the room sent in answer to `first`'s frames so far has reached `second`. */
async function settled(first: RoomSocket, second: RoomSocket) {
  for (const s of [first, second]) {
    const at = ++marker;
    s.send({ type: "ping", at });
    await s.waitForType("pong", (f) => f.at === at);
  }
}

describe("a direct chat with a stranger", () => {
  it("is a request the recipient must accept: a few first messages, one notice, no reply, receipts or typing until then", async () => {
    const a = await anon();
    const b = await anon();
    const dm = dmRoomId(a.id, b.id);
    const opened = await open(a, b);
    expect(opened.status).toBe(201);
    expect(opened.body.room?.request).toMatchObject({ direction: "outgoing" });
    // Opening it again is the same request, not a second one.
    expect((await open(a, b)).body.room?.request).toMatchObject({ direction: "outgoing" });
    // The recipient's list marks it as a request they can answer.
    const listed = (await roomsOf(b)).rooms.find((r) => r.id === dm);
    expect(listed).toMatchObject({ kind: "dm", peerId: a.id, request: { direction: "incoming" } });

    // B is away: A's first messages pass, up to the limit; B is told once, not once a message.
    const sa = await mustOpen(dm, a.cookie);
    for (let i = 0; i < DIRECT_REQUEST_LIMITS.firstMessages; i++) expect(await send(sa, dm, a.id)).toMatchObject({ type: "ack" });
    expect(await send(sa, dm, a.id)).toMatchObject({ type: "error", code: "forbidden", message: REQUEST_TEXTS.waitForAccept });
    await until(async () => (await noticesOf(b.id, "chat")) > 0);
    const all = await env.DB.prepare("select count(*) as n from notifications where user_id = ?").bind(b.id).first<{ n: number }>();
    expect(all?.n).toBe(1);

    // B reads the request but cannot answer before accepting; B's typing and receipts do not reach A.
    const sb = await mustOpen(dm, b.cookie);
    expect(await send(sb, dm, b.id)).toMatchObject({ type: "error", code: "forbidden", message: REQUEST_TEXTS.acceptToReply });
    sb.send({ type: "typing", active: true });
    sb.send({ type: "resume", cursor: 0 });
    const batch = await sb.waitForType("resume-batch");
    expect(batch.items).toHaveLength(DIRECT_REQUEST_LIMITS.firstMessages);
    sb.send({ type: "receipt", status: "read", ids: batch.items.map((i) => i.envelope.id) });
    // Markers: B's pong comes after the room handled B's frames; A's after anything the room sent A before.
    await settled(sb, sa);
    expect(sa.of("typing")).toEqual([]);
    expect(sa.of("receipt")).toEqual([]);

    // Only the person asked may accept; then it is an ordinary direct chat, both ways.
    expect((await call(path(dm, "accept"), { method: "POST", cookie: a.cookie })).status).toBe(404);
    const accepted = await call(path(dm, "accept"), { method: "POST", cookie: b.cookie });
    expect(accepted.status).toBe(200);
    expect((await accepted.json<{ room: RoomSummary }>()).room).toMatchObject({ id: dm, peerId: a.id });
    expect((await roomsOf(b)).rooms.find((r) => r.id === dm)?.request).toBeUndefined();
    expect(await send(sb, dm, b.id)).toMatchObject({ type: "ack" });
    await sa.waitForType("envelope", (f) => f.envelope.senderId === b.id);
    expect(await send(sa, dm, a.id)).toMatchObject({ type: "ack" });
    sb.send({ type: "typing", active: true });
    await sa.waitForType("typing", (f) => f.userId === b.id);
    sa.close();
    sb.close();
  });

  it("declined, leaves both lists, closes the chat and cannot be asked again for a while; the one who declined may open it", async () => {
    const a = await anon();
    const b = await anon();
    const dm = dmRoomId(a.id, b.id);
    expect((await open(a, b)).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    expect((await call(path(dm, "decline"), { method: "POST", cookie: a.cookie })).status).toBe(404);
    expect((await call(path(dm, "decline"), { method: "POST", cookie: b.cookie })).status).toBe(200);
    await sa.waitFor(() => sa.closed);
    expect((await roomsOf(a)).rooms.some((r) => r.id === dm)).toBe(false);
    expect((await roomsOf(b)).rooms.some((r) => r.id === dm)).toBe(false);
    expect((await openRoom(dm, a.cookie)).status).toBe(403);
    const again = await open(a, b);
    expect(again.status).toBe(403);
    expect(again.body.error).toMatch(/^They declined your message request\. You can ask again after \d{4}-\d{2}-\d{2}\.$/);
    // Meeting in an area room later does not undo a decline.
    await shareAnAreaRoom(a, b);
    expect((await open(a, b)).status).toBe(403);
    // B changes their mind: opening the chat themselves is consent.
    const back = await open(b, a);
    expect(back.status).toBe(200);
    expect(back.body.room?.request).toBeUndefined();
    expect((await open(a, b)).body.room?.request).toBeUndefined();
  });

  it("limits new requests per person a day, also under parallel requests", async () => {
    const a = await anon();
    const others = await Promise.all(Array.from({ length: DIRECT_REQUEST_LIMITS.perDay + 10 }, () => anon()));
    const statuses = await Promise.all(others.map(async (o) => (await open(a, o)).status));
    expect(statuses.filter((s) => s === 201)).toHaveLength(DIRECT_REQUEST_LIMITS.perDay);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});

describe("people who share a room", () => {
  it("chat and call at once, as before: no request", async () => {
    const a = await verifiedSession("0816", "Ada");
    const b = await verifiedSession("0816", "Bola");
    await shareAnAreaRoom(a, b);
    const dm = dmRoomId(a.id, b.id);
    const opened = await open(a, b);
    expect(opened.status).toBe(201);
    expect(opened.body.room?.request).toBeUndefined();
    expect((await roomsOf(b)).rooms.find((r) => r.id === dm)?.request).toBeUndefined();
    const sa = await mustOpen(dm, a.cookie);
    const sb = await mustOpen(dm, b.cookie);
    expect(await send(sb, dm, b.id)).toMatchObject({ type: "ack" });
    const callId = newId();
    sa.send({ type: "ring", callId });
    expect(await sb.waitForType("ring")).toMatchObject({ callId, from: a.id });
    sa.send({ type: "hangup", callId });
    await sb.waitForType("call-ended");
    sa.close();
    sb.close();
  });
});

describe("calls to strangers", () => {
  it("are refused by the room until the request is accepted, with a clear message to each side", async () => {
    const a = await verifiedSession("0816", "Ada");
    const b = await verifiedSession("0816", "Bola");
    const dm = dmRoomId(a.id, b.id);
    expect((await open(a, b)).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    const sb = await mustOpen(dm, b.cookie);
    const first = newId();
    sa.send({ type: "ring", callId: first });
    expect(await sa.waitForType("error", (f) => f.id === first)).toMatchObject({ code: "forbidden", message: CALL_TEXTS.notAccepted });
    const back = newId();
    sb.send({ type: "ring", callId: back });
    expect(await sb.waitForType("error", (f) => f.id === back)).toMatchObject({ code: "forbidden", message: CALL_TEXTS.acceptToCall });
    await settled(sa, sb);
    expect(sb.of("ring")).toEqual([]);
    expect(sa.of("ring")).toEqual([]);
    expect(await runInDurableObject(stubOf(dm), (_i, state) => state.storage.sql.exec("SELECT * FROM calls").toArray().length)).toBe(0);

    expect((await call(path(dm, "accept"), { method: "POST", cookie: b.cookie })).status).toBe(200);
    const callId = newId();
    sa.send({ type: "ring", callId });
    expect(await sb.waitForType("ring", (f) => f.callId === callId)).toMatchObject({ from: a.id });
    sa.close();
    sb.close();
  });
});

describe("missed-call notices", () => {
  it("are capped per caller across everyone called, and per person called, under 100 parallel attempts", async () => {
    const db = createDb(env);
    const caller = newId();
    const across = await Promise.all(Array.from({ length: 100 }, () => takeMissedCallNotice(db, caller, newId())));
    expect(across.filter(Boolean)).toHaveLength(MISSED_CALL_NOTICES.perCallerPerHour);
    const another = newId();
    const callee = newId();
    const one = await Promise.all(Array.from({ length: 100 }, () => takeMissedCallNotice(db, another, callee)));
    expect(one.filter(Boolean)).toHaveLength(MISSED_CALL_NOTICES.perCalleePerHour);
    // The per-callee refusals gave nothing back wrongly: the caller still has notices left for someone else.
    expect(await takeMissedCallNotice(db, another, newId())).toBe(true);
  });

  it("stop once the caller's hour is spent: the missed call is still in the chat, without a push", async () => {
    const a = await verifiedSession("0816", "Ada");
    const b = await verifiedSession("0816", "Bola");
    await shareAnAreaRoom(a, b);
    const db = createDb(env);
    for (let i = 0; i < MISSED_CALL_NOTICES.perCallerPerHour; i++) expect(await takeMissedCallNotice(db, a.id, newId())).toBe(true);
    const dm = dmRoomId(a.id, b.id);
    expect((await open(a, b)).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    const sb = await mustOpen(dm, b.cookie);
    const callId = newId();
    sa.send({ type: "ring", callId });
    await sb.waitForType("ring");
    await runInDurableObject(stubOf(dm), (_i, state) => {
      state.storage.sql.exec("UPDATE calls SET ring_until = 0");
    });
    expect(await runDurableObjectAlarm(stubOf(dm))).toBe(true);
    const entry = (await sb.waitForType("envelope", (f) => f.envelope.senderId === "system")).envelope;
    expect(entry.meta).toMatchObject({ event: "missed-call", callId, reason: "missed" });
    // The notice was asked for and refused: this callee's count was taken and given back.
    const pair = () =>
      env.DB.prepare("select count from address_counters where key = ?").bind(`missed-call:${a.id}:${b.id}`).first<{ count: number }>();
    expect(await until(async () => (await pair())?.count === 0)).toBe(true);
    expect(await noticesOf(b.id, "calls")).toBe(0);
    sa.close();
    sb.close();
  });
});

describe("calls rung", () => {
  it("are capped per caller across all their chats, under 100 parallel attempts, and the room says so", async () => {
    const db = createDb(env);
    const results = await Promise.all(Array.from({ length: 100 }, () => takeRing(db, newId())));
    expect(results.every(Boolean)).toBe(true);
    const caller = newId();
    const one = await Promise.all(Array.from({ length: 100 }, () => takeRing(db, caller)));
    expect(one.filter(Boolean)).toHaveLength(RINGS_PER_CALLER_PER_HOUR);

    const a = await verifiedSession("0816", "Ada");
    const b = await verifiedSession("0816", "Bola");
    await shareAnAreaRoom(a, b);
    for (let i = 0; i < RINGS_PER_CALLER_PER_HOUR; i++) await takeRing(db, a.id);
    const dm = dmRoomId(a.id, b.id);
    expect((await open(a, b)).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    const sb = await mustOpen(dm, b.cookie);
    const callId = newId();
    sa.send({ type: "ring", callId });
    expect(await sa.waitForType("error", (f) => f.id === callId)).toMatchObject({
      code: "rate_limited",
      message: CALL_TEXTS.tooManyCalls,
      retryAfterMs: expect.any(Number),
    });
    await settled(sa, sb);
    expect(sb.of("ring")).toEqual([]);
    sa.close();
    sb.close();
  });
});
