// The one definition of the frame protocol (core/envelope.ts, core/frames.ts, zod/mini) used by the room and the
// browser alike: each sample is accepted or refused as it was by the full-zod schemas it replaced.
import { describe, expect, it } from "vitest";
import { EnvelopeSchema, MAX_FRAME_BYTES } from "./envelope";
import { ClientFrameSchema, MAX_RECEIPT_IDS, parseServerFrame, ServerFrameSchema } from "./frames";
import { LocalMeshMessageSchema } from "./local-mesh";

const envelope = {
  id: "env-12345678",
  room: "nearby:s1v0g",
  senderId: "user-1",
  senderName: "Ada",
  timestamp: 1_700_000_000_000,
  type: "text",
  ttl: 8,
  meshRoute: ["Ada · tab-abcd"],
  isEncrypted: false,
  priority: "normal",
  content: { text: "hello" },
};
const encrypted = { ...envelope, room: "dm:a:b", isEncrypted: true, content: { ciphertext: "abc", iv: "def", keyId: "k.l" } };

const envelopes: unknown[] = [
  envelope,
  encrypted,
  { ...envelope, priority: undefined },
  { ...envelope, meta: { location: { latitude: 1, longitude: 2 } } },
  { ...envelope, id: "short" },
  { ...envelope, ttl: 17 },
  { ...envelope, ttl: 1.5 },
  { ...envelope, timestamp: -1 },
  { ...envelope, type: "video" },
  { ...envelope, meshRoute: Array(17).fill("x") },
  { ...envelope, meshRoute: ["x".repeat(61)] },
  { ...envelope, content: { text: "x".repeat(8001) } },
  { ...envelope, content: { ciphertext: "a", iv: "x".repeat(65) } },
  { ...envelope, content: {} },
  { ...envelope, senderName: "x".repeat(61) },
  { ...envelope, isEncrypted: "no" },
  {},
  null,
];

const serverFrames: unknown[] = [
  { type: "hello", room: "nearby:s1v0g", userId: "u", latestSeq: 3, encrypted: false },
  { type: "hello", room: "r", userId: "u", latestSeq: -1, encrypted: false },
  { type: "ack", id: envelope.id, status: "sent", seq: 1 },
  { type: "ack", id: envelope.id, status: "sent", seq: 0 },
  { type: "ack", id: envelope.id, status: "read", seq: 2, duplicate: true },
  { type: "envelope", seq: 4, envelope },
  { type: "envelope", seq: 4, envelope: { ...envelope, ttl: 99 } },
  {
    type: "resume-batch",
    items: [
      { seq: 1, envelope },
      { seq: 2, envelope: encrypted },
    ],
  },
  { type: "resume-batch", items: [{ seq: 0, envelope }] },
  { type: "resume-done", cursor: 9, receipts: [{ id: envelope.id, status: "read", by: "u2" }] },
  { type: "resume-done", cursor: 9, receipts: [], more: true },
  { type: "resume-done", cursor: 9, receipts: [], more: "yes" },
  { type: "resume-done", cursor: 9, receipts: [{ id: "x", status: "read", by: "u2" }] },
  { type: "receipt", status: "delivered", ids: [envelope.id], by: "u2", at: 5 },
  { type: "receipt", status: "sent", ids: [envelope.id], by: "u2", at: 5 },
  { type: "presence", nodes: 2, members: [{ userId: "u", nickname: "Ada", nodes: 2 }] },
  { type: "presence", nodes: 2, members: [{ userId: "u", nodes: 2 }] },
  { type: "typing", userId: "u", nickname: "Ada", active: true },
  { type: "pong" },
  { type: "pong", at: 3 },
  { type: "error", code: "rate_limited", message: "slow down", retryAfterMs: 500 },
  { type: "error", code: "teapot", message: "x" },
  { type: "error", code: "verification_required", message: "verify", id: "call-12345678" },
  { type: "nope" },
  { type: "ring", callId: "call-12345678", from: "u", fromName: "Ada" },
  { type: "ring", callId: "short", from: "u", fromName: "Ada" },
  { type: "ringing", callId: "call-12345678", devices: 2 },
  { type: "ringing", callId: "call-12345678", devices: -1 },
  { type: "accept", callId: "call-12345678", from: "u" },
  { type: "call-offer", callId: "call-12345678", from: "u", sdp: "v=0" },
  { type: "call-answer", callId: "call-12345678", from: "u", sdp: "x".repeat(16 * 1024 + 1) },
  { type: "ice", callId: "call-12345678", from: "u", candidate: { candidate: "candidate:1", sdpMid: null, sdpMLineIndex: 0 } },
  { type: "ice", callId: "call-12345678", from: "u", candidate: { candidate: "c", sdpMLineIndex: 65 } },
  { type: "call-ended", callId: "call-12345678", from: "u", reason: "missed" },
  { type: "call-ended", callId: "call-12345678", from: "u", reason: "exploded" },
];

const clientFrames: unknown[] = [
  { type: "send", envelope },
  { type: "send", envelope: { ...envelope, id: "" } },
  { type: "resume", cursor: 0 },
  { type: "resume", cursor: -2 },
  { type: "receipt", status: "read", ids: [envelope.id] },
  { type: "receipt", status: "read", ids: [] },
  { type: "receipt", status: "read", ids: Array(MAX_RECEIPT_IDS + 1).fill(envelope.id) },
  { type: "ping" },
  { type: "ping", at: 1, presence: true },
  { type: "typing", active: false },
  { type: "typing" },
  { type: "ring", callId: "call-12345678" },
  { type: "ring" },
  { type: "accept", callId: "call-12345678" },
  { type: "decline", callId: "call-12345678" },
  { type: "hangup", callId: "call-12345678" },
  { type: "call-offer", callId: "call-12345678", sdp: "v=0" },
  { type: "call-offer", callId: "call-12345678", sdp: "" },
  { type: "call-answer", callId: "call-12345678", sdp: "v=0" },
  { type: "ice", callId: "call-12345678", candidate: { candidate: "candidate:1", usernameFragment: "abcd" } },
  { type: "ice", callId: "call-12345678", candidate: { candidate: "x".repeat(1025) } },
];

/** Whether each sample above is valid, as the earlier full-zod schemas decided. */
const valid = {
  envelopes: [true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false],
  serverFrames: [
    true,
    false,
    true,
    false,
    false,
    true,
    false,
    true,
    false,
    true,
    true,
    false,
    false,
    true,
    false,
    true,
    false,
    true,
    true,
    true,
    true,
    false,
    true,
    false,
    true,
    false,
    true,
    false,
    true,
    true,
    false,
    true,
    false,
    true,
    false,
  ],
  clientFrames: [
    true,
    false,
    true,
    false,
    true,
    false,
    false,
    true,
    true,
    true,
    false,
    true,
    false,
    true,
    true,
    true,
    true,
    false,
    true,
    true,
    false,
  ],
};

describe("the frame protocol's schemas", () => {
  it("accept and refuse envelopes as before", () => {
    expect(envelopes.map((e) => EnvelopeSchema.safeParse(e).success)).toEqual(valid.envelopes);
    expect(EnvelopeSchema.parse({ ...envelope, priority: undefined }).priority).toBe("normal");
  });
  it("accept and refuse server frames as before", () => {
    expect(serverFrames.map((f) => ServerFrameSchema.safeParse(f).success)).toEqual(valid.serverFrames);
  });
  it("accept and refuse client frames as before", () => {
    expect(clientFrames.map((f) => ClientFrameSchema.safeParse(f).success)).toEqual(valid.clientFrames);
  });
  it("keep the expiry the room stamps on envelopes and acks (disappearing messages)", () => {
    const at = 1_800_000_000_000;
    const ack = { type: "ack", id: envelope.id, status: "sent", seq: 1, expiresAt: at };
    expect(ServerFrameSchema.parse(ack)).toEqual(ack);
    const relayed = ServerFrameSchema.parse({ type: "envelope", seq: 2, envelope: { ...envelope, expiresAt: at } });
    expect(relayed).toMatchObject({ envelope: { expiresAt: at } });
    expect(EnvelopeSchema.safeParse({ ...envelope, expiresAt: -1 }).success).toBe(false);
  });
  it("refuse oversize and non-JSON frames", () => {
    expect(parseServerFrame(JSON.stringify({ type: "pong", pad: "x".repeat(MAX_FRAME_BYTES) })).ok).toBe(false);
    expect(parseServerFrame("{not json").ok).toBe(false);
    expect(parseServerFrame(JSON.stringify({ type: "pong" }))).toEqual({ ok: true, frame: { type: "pong" } });
  });
  it("check local mesh messages between tabs", () => {
    expect(
      LocalMeshMessageSchema.safeParse({ kind: "hello", tab: "tab-abcd", hop: "Ada · tab-abcd", relays: ["nearby:s1v0g"], online: true })
        .success,
    ).toBe(true);
    expect(
      LocalMeshMessageSchema.safeParse({
        kind: "relay",
        from: "tab-abcd",
        to: "tab-efgh",
        room: "nearby:s1v0g",
        frame: { type: "send", envelope },
      }).success,
    ).toBe(true);
    expect(
      LocalMeshMessageSchema.safeParse({ kind: "relay", from: "tab-abcd", to: "tab-efgh", room: "nearby:s1v0g", frame: { type: "send" } })
        .success,
    ).toBe(false);
    expect(
      LocalMeshMessageSchema.safeParse({
        kind: "server",
        via: "tab-abcd",
        room: "nearby:s1v0g",
        frame: { type: "ack", id: envelope.id, status: "sent", seq: 1 },
      }).success,
    ).toBe(true);
    expect(LocalMeshMessageSchema.safeParse({ kind: "shout" }).success).toBe(false);
  });
});
