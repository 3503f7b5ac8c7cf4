// The browser's copy of the frame protocol schemas (core/envelope.ts, core/frames.ts) on zod/mini: the full
// zod build costs about 25 KiB of gzipped JavaScript, which the /chat budget (150 KiB) cannot carry.
// frames-client.test.ts checks that both copies accept and refuse the same frames, so they cannot drift.
import * as z from "zod/mini";
import type { ClientFrame, ServerFrame } from "./frames";

const MAX_FRAME_BYTES = 64 * 1024;
const str = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const int = (min = 0, max?: number) => (max === undefined ? z.int().check(z.minimum(min)) : z.int().check(z.minimum(min), z.maximum(max)));
const envelopeId = str(8, 64);

export const EnvelopeMiniSchema = z.object({
  id: str(8, 64),
  room: str(3, 200),
  senderId: str(1, 64),
  senderName: z.optional(z.string().check(z.maxLength(60))),
  timestamp: int(0),
  type: z.enum(["text", "emergency", "system", "ai", "receipt", "presence", "key"]),
  ttl: int(0, 16),
  meshRoute: z.array(z.string().check(z.maxLength(60))).check(z.maxLength(16)),
  isEncrypted: z.boolean(),
  priority: z._default(z.enum(["normal", "high"]), "normal"),
  content: z.union([
    z.object({ text: z.string().check(z.maxLength(8000)) }),
    z.object({
      ciphertext: z.string().check(z.maxLength(60000)),
      iv: z.string().check(z.maxLength(64)),
      keyId: z.optional(z.string().check(z.maxLength(128))),
    }),
  ]),
  meta: z.optional(z.record(z.string(), z.unknown())),
  // The room's expiry of a disappearing message (docs/decisions/037c-disappearing-messages.md).
  expiresAt: z.optional(int(1)),
});

const receiptStatus = z.enum(["delivered", "read"]);

// Call signalling (core/frames.ts, docs/decisions/024-calls-through-the-room.md).
const callId = str(8, 64);
const sdp = str(1, 16 * 1024);
const ice = z.object({
  candidate: z.string().check(z.maxLength(1024)),
  sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  sdpMLineIndex: z.optional(z.nullable(int(0, 64))),
  usernameFragment: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
});

export const ClientFrameMiniSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("send"), envelope: EnvelopeMiniSchema }),
  z.object({ type: z.literal("resume"), cursor: int(0) }),
  z.object({ type: z.literal("receipt"), status: receiptStatus, ids: z.array(envelopeId).check(z.minLength(1), z.maxLength(200)) }),
  z.object({ type: z.literal("ping"), at: z.optional(z.number()), presence: z.optional(z.boolean()) }),
  z.object({ type: z.literal("typing"), active: z.boolean() }),
  z.object({ type: z.literal("ring"), callId }),
  z.object({ type: z.literal("accept"), callId }),
  z.object({ type: z.literal("decline"), callId }),
  z.object({ type: z.literal("hangup"), callId }),
  z.object({ type: z.literal("call-offer"), callId, sdp }),
  z.object({ type: z.literal("call-answer"), callId, sdp }),
  z.object({ type: z.literal("ice"), callId, candidate: ice }),
]);

const member = z.object({ userId: z.string(), nickname: z.string(), nodes: int(0) });

export const ServerFrameMiniSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hello"), room: z.string(), userId: z.string(), latestSeq: int(0), encrypted: z.boolean() }),
  z.object({
    type: z.literal("ack"),
    id: envelopeId,
    status: z.literal("sent"),
    seq: int(1),
    duplicate: z.optional(z.boolean()),
    expiresAt: z.optional(int(1)),
  }),
  z.object({ type: z.literal("envelope"), seq: int(1), envelope: EnvelopeMiniSchema }),
  z.object({ type: z.literal("resume-batch"), items: z.array(z.object({ seq: int(1), envelope: EnvelopeMiniSchema })) }),
  z.object({
    type: z.literal("resume-done"),
    cursor: int(0),
    receipts: z.array(z.object({ id: envelopeId, status: receiptStatus, by: z.string() })),
    more: z.optional(z.boolean()),
  }),
  z.object({ type: z.literal("receipt"), status: receiptStatus, ids: z.array(envelopeId), by: z.string(), at: z.number() }),
  z.object({ type: z.literal("presence"), nodes: int(0), members: z.array(member) }),
  z.object({ type: z.literal("typing"), userId: z.string(), nickname: z.string(), active: z.boolean() }),
  z.object({ type: z.literal("pong"), at: z.optional(z.number()) }),
  z.object({ type: z.literal("ring"), callId, from: z.string(), fromName: z.string() }),
  z.object({ type: z.literal("ringing"), callId, devices: int(0) }),
  z.object({ type: z.literal("accept"), callId, from: z.string() }),
  z.object({ type: z.literal("call-offer"), callId, from: z.string(), sdp }),
  z.object({ type: z.literal("call-answer"), callId, from: z.string(), sdp }),
  z.object({ type: z.literal("ice"), callId, from: z.string(), candidate: ice }),
  z.object({ type: z.literal("call-ended"), callId, from: z.string(), reason: z.enum(["hangup", "declined", "missed", "unavailable"]) }),
  z.object({
    type: z.literal("error"),
    code: z.enum(["malformed", "too_large", "rate_limited", "forbidden", "plaintext_refused", "internal", "verification_required", "busy"]),
    message: z.string(),
    id: z.optional(z.string()),
    retryAfterMs: z.optional(int(0)),
  }),
]);

/** Checks one frame from the room (size, JSON, shape), as parseServerFrame does on the full schemas. */
export function parseServerFrameClient(raw: string): { ok: true; frame: ServerFrame } | { ok: false; message: string } {
  if (raw.length > MAX_FRAME_BYTES || new TextEncoder().encode(raw).byteLength > MAX_FRAME_BYTES)
    return { ok: false, message: "Frame too large" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, message: "Frame is not valid JSON" };
  }
  const result = ServerFrameMiniSchema.safeParse(json);
  if (!result.success) return { ok: false, message: `Invalid frame: ${result.error.issues[0]?.path.join(".") ?? ""}` };
  return { ok: true, frame: result.data as ServerFrame };
}

/** Serialises a frame for the room. */
export function encodeClientFrame(frame: ClientFrame): string {
  return JSON.stringify(frame);
}
