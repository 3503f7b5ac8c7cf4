// Call signalling through the direct chat's MeshRoom: two real room sockets through the Worker, verified
// phones from the real flow, the room's alarm for the ring timeout (docs/decisions/024-calls-through-the-room.md).
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CALL_TEXTS } from "../core/calls";
import { dmRoomId } from "../core/envelope";
import { MAX_SDP_CHARS } from "../core/frames";
import { newId } from "../core/ids";
import { anonymousSession, call, shareAnAreaRoom, verifiedSession } from "../tests/workers/helpers";
import { mustOpen, type RoomSocket } from "../tests/workers/room-socket";
import type { MeshRoom } from "./mesh-room";
import { until } from "../tests/workers/until";

const stubOf = (roomId: string) => env.ROOMS.get(env.ROOMS.idFromName(roomId)) as DurableObjectStub<MeshRoom>;
const SDP = "v=0\r\no=- 46117317 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n";

/** Two people and their direct chat, each with one socket in it. */
async function pair(kind: { a?: "anonymous"; b?: "anonymous" } = {}) {
  const a = kind.a ? await anonymousSession().then((s) => ({ cookie: s.cookie, id: s.user.id })) : await verifiedSession("0808", "Ada");
  const b = kind.b ? await anonymousSession().then((s) => ({ cookie: s.cookie, id: s.user.id })) : await verifiedSession("0808", "Bola");
  // People who know each other: strangers cannot ring (docs/decisions/050-consent-before-a-stranger-reaches-you.md).
  await shareAnAreaRoom(a, b);
  const opened = await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.id } });
  expect(opened.status).toBe(201);
  const room = dmRoomId(a.id, b.id);
  return { a, b, room, sa: await mustOpen(room, a.cookie), sb: await mustOpen(room, b.cookie) };
}

async function ringAndAccept(sa: RoomSocket, sb: RoomSocket) {
  const callId = newId();
  sa.send({ type: "ring", callId });
  await sb.waitForType("ring", (f) => f.callId === callId);
  sb.send({ type: "accept", callId });
  await sa.waitForType("accept", (f) => f.callId === callId);
  return callId;
}

describe("call signalling", () => {
  it("rings the other person, stamps who is calling, relays offer, answer and candidates, and stores none of it", async () => {
    const { a, b, room, sa, sb } = await pair();
    const callId = newId();
    sa.send({ type: "ring", callId });
    // The client never names itself: whatever it writes, `from` is the socket's person.
    expect(await sb.waitForType("ring")).toEqual({ type: "ring", callId, from: a.id, fromName: "Ada" });
    expect(await sa.waitForType("ringing")).toEqual({ type: "ringing", callId, devices: 1 });
    sb.send({ type: "accept", callId });
    expect(await sa.waitForType("accept")).toEqual({ type: "accept", callId, from: b.id });

    sa.send({ type: "call-offer", callId, sdp: SDP, from: b.id } as Record<string, unknown>);
    expect(await sb.waitForType("call-offer")).toEqual({ type: "call-offer", callId, from: a.id, sdp: SDP });
    sb.send({ type: "call-answer", callId, sdp: `${SDP}a=answer\r\n` });
    expect((await sa.waitForType("call-answer")).sdp).toContain("a=answer");
    const candidate = { candidate: "candidate:1 1 udp 2122260223 192.168.1.4 51234 typ host", sdpMid: "0", sdpMLineIndex: 0 };
    sb.send({ type: "ice", callId, candidate });
    expect(await sa.waitForType("ice")).toEqual({ type: "ice", callId, from: b.id, candidate });

    sa.send({ type: "hangup", callId });
    expect(await sb.waitForType("call-ended")).toEqual({ type: "call-ended", callId, from: a.id, reason: "hangup" });
    // Relay only: no SDP, no candidate and no call left in the room's storage, no missed-call entry.
    const kept = await runInDurableObject(stubOf(room), (_i, state) => ({
      bodies: state.storage.sql.exec<{ body: string | null }>("SELECT body FROM envelopes").toArray(),
      calls: state.storage.sql.exec("SELECT * FROM calls").toArray().length,
    }));
    expect(kept.bodies).toEqual([]);
    expect(kept.calls).toBe(0);
    sa.close();
    sb.close();
  });

  it("refuses a call by or to a person without a verified phone with the Premium Feature message", async () => {
    const anonCaller = await pair({ a: "anonymous" });
    anonCaller.sa.send({ type: "ring", callId: newId() });
    expect(await anonCaller.sa.waitForType("error")).toMatchObject({
      code: "verification_required",
      reason: "call_verify",
      message: CALL_TEXTS.verifyToCall,
    });
    const anonCallee = await pair({ b: "anonymous" });
    anonCallee.sa.send({ type: "ring", callId: newId() });
    expect(await anonCallee.sa.waitForType("error")).toMatchObject({
      code: "verification_required",
      reason: "call_peer_not_verified",
      message: CALL_TEXTS.peerNotVerified,
    });
    // Nothing rang.
    await new Promise((r) => setTimeout(r, 200));
    expect(anonCaller.sb.of("ring")).toEqual([]);
    expect(anonCallee.sb.of("ring")).toEqual([]);
    for (const s of [anonCaller.sa, anonCaller.sb, anonCallee.sa, anonCallee.sb]) s.close();
  });

  it("never relays calls in area or group rooms", async () => {
    const a = await verifiedSession("0808", "Ada");
    const s = await mustOpen("nearby:s0000", a.cookie);
    s.send({ type: "ring", callId: newId() });
    expect(await s.waitForType("error")).toMatchObject({ code: "forbidden", message: CALL_TEXTS.directOnly });
    s.close();
  });

  it("keeps signalling between the two devices in the call: the callee's other device stops ringing and cannot join in", async () => {
    const { b, room, sa, sb } = await pair();
    const sb2 = await mustOpen(room, b.cookie);
    const callId = newId();
    sa.send({ type: "ring", callId });
    await sb2.waitForType("ring");
    expect(await sa.waitForType("ringing")).toMatchObject({ devices: 2 });
    sb.send({ type: "accept", callId });
    // The other device learns the call was taken elsewhere.
    expect(await sb2.waitForType("accept")).toMatchObject({ callId, from: b.id });
    sa.send({ type: "call-offer", callId, sdp: SDP });
    await sb.waitForType("call-offer");
    sb2.send({ type: "ice", callId, candidate: { candidate: "candidate:x" } });
    expect(await sb2.waitForType("error")).toMatchObject({ code: "busy", id: callId });
    await new Promise((r) => setTimeout(r, 200));
    expect(sb2.of("call-offer")).toEqual([]);
    expect(sa.of("ice")).toEqual([]);
    for (const s of [sa, sb, sb2]) s.close();
  });

  it("bounds signalling: oversize SDP is refused, one call at a time, and rings per person are rate-limited", async () => {
    const { sa, sb } = await pair();
    const callId = await ringAndAccept(sa, sb);
    sa.send({ type: "call-offer", callId, sdp: "x".repeat(MAX_SDP_CHARS + 1) });
    expect(await sa.waitForType("error")).toMatchObject({ code: "malformed" });
    sb.send({ type: "ring", callId: newId() });
    expect(await sb.waitForType("error")).toMatchObject({ code: "busy", message: CALL_TEXTS.busy });
    sa.send({ type: "ring", callId: newId() });
    sa.send({ type: "ring", callId: newId() });
    sa.send({ type: "ring", callId: newId() });
    expect(await sa.waitForType("error", (f) => f.code === "rate_limited")).toMatchObject({ retryAfterMs: expect.any(Number) });
    sa.close();
    sb.close();
  });

  it("turns a call nobody answers into a missed-call entry without content and a push to the callee", async () => {
    const { a, b, room, sa, sb } = await pair();
    const callId = newId();
    sa.send({ type: "ring", callId });
    await sb.waitForType("ring");
    // The ring timeout, reached: the room's alarm ends the call.
    await runInDurableObject(stubOf(room), (_i, state) => {
      state.storage.sql.exec("UPDATE calls SET ring_until = 0");
    });
    expect(await runDurableObjectAlarm(stubOf(room))).toBe(true);
    expect(await sa.waitForType("call-ended")).toMatchObject({ callId, reason: "missed" });
    expect(await sb.waitForType("call-ended")).toMatchObject({ callId, reason: "missed" });
    const entry = (await sb.waitForType("envelope")).envelope;
    expect(entry).toMatchObject({
      senderId: "system",
      type: "system",
      content: { text: "" },
      meta: { event: "missed-call", callId, callerId: a.id, callerName: "Ada", calleeId: b.id, reason: "missed" },
    });
    expect((await sa.waitForType("envelope")).envelope.id).toBe(entry.id);
    // Kept by the room with no content; D1 has only the room's count (docs/decisions/056-…).
    const stored = await runInDurableObject(stubOf(room), (_i, state) =>
      state.storage.sql.exec<{ type: string }>("SELECT type FROM envelopes WHERE id = ?", entry.id).toArray(),
    );
    expect(stored).toEqual([{ type: "system" }]);
    const pushed = async () =>
      env.DB.prepare("select title, content from notifications where user_id = ? and source = 'calls'")
        .bind(b.id)
        .first<{ title: string; content: string }>();
    expect(await until(pushed)).toEqual({ title: "Missed call from Ada", content: CALL_TEXTS.missedBody });
    sa.close();
    sb.close();
  });

  it("a declined call ends for both and leaves a declined entry, without a push", async () => {
    const { b, sa, sb } = await pair();
    const callId = newId();
    sa.send({ type: "ring", callId });
    await sb.waitForType("ring");
    sb.send({ type: "decline", callId });
    expect(await sa.waitForType("call-ended")).toMatchObject({ callId, reason: "declined", from: b.id });
    expect((await sa.waitForType("envelope")).envelope.meta).toMatchObject({ event: "missed-call", reason: "declined" });
    await new Promise((r) => setTimeout(r, 200));
    expect(
      await env.DB.prepare("select count(*) as n from notifications where user_id = ? and source = 'calls'").bind(b.id).first(),
    ).toEqual({ n: 0 });
    sa.close();
    sb.close();
  });

  it("a caller who closes the app while ringing leaves a missed call", async () => {
    const { sa, sb } = await pair();
    const callId = newId();
    sa.send({ type: "ring", callId });
    await sb.waitForType("ring");
    sa.close();
    expect(await sb.waitForType("call-ended")).toMatchObject({ callId, reason: "missed" });
    sb.close();
  });
});
