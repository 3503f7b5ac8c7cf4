// The WebSocket frame protocol of /ws/rooms/:id, shared by the MeshRoom Durable Object and the client mesh
// node. Every frame is one JSON text message with a `type`. Frames are checked with these schemas on both
// sides; the room answers a bad frame with an `error` frame and never closes the socket for it.
//
// Sequence numbers: the room gives each stored envelope a `seq` (1, 2, 3... per room, never reused). A client
// remembers the highest seq it has seen and sends it as the resume cursor after every (re)connect; the room
// answers with every stored envelope after it (resume-batch frames, then one resume-done).
//
// zod/mini (docs/decisions/044-one-protocol-definition.md): the Worker and the browser parse with these same
// schemas, and the browser's /chat budget cannot carry the full zod build.
import * as z from "zod/mini";
import { EnvelopeSchema, MAX_FRAME_BYTES } from "./envelope";
import { checkSendFrame } from "./envelope-check";

export { MAX_FRAME_BYTES };

/**
 * Most bytes an envelope's JSON may take, so that every server frame carrying it (envelope, resume-batch)
 * stays within MAX_FRAME_BYTES too. A bigger envelope is refused with `too_large`.
 */
export const MAX_ENVELOPE_BYTES = MAX_FRAME_BYTES - 1024;
/** Most envelope ids one receipt frame may carry. */
export const MAX_RECEIPT_IDS = 200;
/** Most members a presence frame lists, and a client keeps (its `nodes` and `people` still count everyone). */
export const PRESENCE_MEMBER_LIMIT = 200;
/**
 * Members per page of the presence list (a `presence` frame), asked for with `ping {presence, after}`; and most
 * people one `presence-delta` names. A join or leave costs every socket one small delta, never the list
 * (docs/decisions/052-presence-deltas-and-jittered-reconnects.md).
 */
export const PRESENCE_PAGE_SIZE = 50;
/** Close code of a socket replaced by a newer one of the same person (4000–4999: the application's own). */
export const CLOSE_REPLACED = 4008;
/** Close code of a socket whose person is no longer let in (left the group, blocked in a direct chat). */
export const CLOSE_NOT_MEMBER = 4003;
/** Envelopes per resume-batch frame at most (each frame also stays within MAX_FRAME_BYTES). */
export const RESUME_BATCH_SIZE = 50;

const str = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const upTo = (max: number) => z.string().check(z.maxLength(max));
/** A whole number from `min` up. */
const count = (min = 0) => z.int().check(z.minimum(min));
const envelopeId = str(8, 64);
const b64 = (length: number) => z.string().check(z.regex(new RegExp(`^[A-Za-z0-9_-]{${length}}$`)));
/** A direct chat's typing frame, signed by the typing device (core/e2e-controls.ts, docs/protocol.md §7b). */
export const TypingProofSchema = z.object({ device: b64(43), at: count(), sig: b64(86) });
export type TypingProof = z.infer<typeof TypingProofSchema>;
/**
 * A group's receipt, signed by the reader's device for each envelope id (core/e2e-controls.ts, docs/protocol.md
 * §7b): `sigs[i]` is the signature for `ids[i]`, so the room can keep and hand back each id's on its own.
 */
export const ReceiptProofSchema = z.object({
  device: b64(43),
  at: count(),
  sigs: z.array(b64(86)).check(z.minLength(1), z.maxLength(MAX_RECEIPT_IDS)),
});
export type ReceiptProof = z.infer<typeof ReceiptProofSchema>;
/** One envelope's receipt signature as the room keeps and relays it. */
export const ReceiptSignatureSchema = z.object({ device: b64(43), at: count(), sig: b64(86) });
export type ReceiptSignature = z.infer<typeof ReceiptSignatureSchema>;

// ---------------------------------------------------------------- call signalling (docs/decisions/024-calls-through-the-room.md)

/**
 * Most characters of one SDP offer or answer. An audio-only description is 2–6 KB; this leaves room for many
 * candidates gathered into it, and keeps a call frame far below MAX_FRAME_BYTES.
 */
export const MAX_SDP_CHARS = 16 * 1024;
const callId = str(8, 64);
const sdp = str(1, MAX_SDP_CHARS);
/** One ICE candidate as RTCIceCandidate.toJSON() gives it; `null` candidate text marks the end of gathering. */
export const IceCandidateSchema = z.object({
  candidate: upTo(1024),
  sdpMid: z.optional(z.nullable(upTo(64))),
  sdpMLineIndex: z.optional(z.nullable(z.int().check(z.minimum(0), z.maximum(64)))),
  usernameFragment: z.optional(z.nullable(upTo(256))),
});
export type IceCandidate = z.infer<typeof IceCandidateSchema>;
/** Call frames a member sends; the room relays them only in direct chats, never stores them. */
const CallClientFrames = [
  /** Start a call: the room checks both people may call and rings the other person's devices. */
  z.object({ type: z.literal("ring"), callId }),
  /** The callee takes the call on this device (the others stop ringing). */
  z.object({ type: z.literal("accept"), callId }),
  /** The callee refuses the call. */
  z.object({ type: z.literal("decline"), callId }),
  /** Either side ends the call (the caller before an answer: it becomes a missed call). */
  z.object({ type: z.literal("hangup"), callId }),
  z.object({ type: z.literal("call-offer"), callId, sdp }),
  z.object({ type: z.literal("call-answer"), callId, sdp }),
  z.object({ type: z.literal("ice"), callId, candidate: IceCandidateSchema }),
] as const;
export const CALL_FRAME_TYPES = ["ring", "accept", "decline", "hangup", "call-offer", "call-answer", "ice"] as const;
export type CallFrameType = (typeof CALL_FRAME_TYPES)[number];
/** Why a call ended, as the room tells both sides. */
export const CALL_END_REASONS = ["hangup", "declined", "missed", "unavailable"] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];
export const ReceiptStatusSchema = z.enum(["delivered", "read"]);
export type ReceiptStatus = z.infer<typeof ReceiptStatusSchema>;

// ---------------------------------------------------------------- client → server

export const ClientFrameSchema = z.discriminatedUnion("type", [
  /** Store and relay one envelope. The room answers `ack` (also for a resend of an id it already has). */
  z.object({ type: z.literal("send"), envelope: EnvelopeSchema }),
  /**
   * Everything stored after `cursor` (the highest seq the client has; 0 = all history the room keeps). `shard`
   * names the shard whose seqs the cursor counts (a hello's or resume-done's `shard`; absent: shard 0, the room's
   * own object): a busy area's shards number their envelopes apart (docs/decisions/043-room-speed-and-shards.md).
   */
  z.object({ type: z.literal("resume"), cursor: count(), shard: z.optional(count()) }),
  /** The reader's device has (`delivered`) or opened (`read`) these envelopes; relayed to their senders. */
  z.object({
    type: z.literal("receipt"),
    status: ReceiptStatusSchema,
    ids: z.array(envelopeId).check(z.minLength(1), z.maxLength(MAX_RECEIPT_IDS)),
    /** In a group: the reader's device's signature for each id (a group's receipts are believed only signed). */
    proof: z.optional(ReceiptProofSchema),
  }),
  /**
   * Keep-alive; answered with `pong`. With `presence` true, also one page of the presence list: the first, or the
   * one after the cursor `after` (a page's `next`).
   */
  z.object({ type: z.literal("ping"), at: z.optional(z.number()), presence: z.optional(z.boolean()), after: z.optional(str(1, 64)) }),
  /**
   * Typing indicator; relayed to the other sockets as `typing`, never stored. In a direct chat it carries the
   * device's signature (`proof`, core/e2e-controls.ts), and a typing frame without one is not believed there.
   */
  z.object({ type: z.literal("typing"), active: z.boolean(), proof: z.optional(TypingProofSchema) }),
  ...CallClientFrames,
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

// ---------------------------------------------------------------- server → client

export const ERROR_CODES = [
  "malformed", // not JSON, or not a valid frame
  "too_large", // frame over MAX_FRAME_BYTES, or envelope over MAX_ENVELOPE_BYTES
  "rate_limited", // too many frames; retryAfterMs says when to try again
  "forbidden", // envelope for another room or another sender
  "plaintext_refused", // plain text in a private room, or ciphertext in a public room
  "internal", // the room could not store the envelope; resend later
  "verification_required", // a call where one of the two people has not verified a phone
  "busy", // a call while this chat already has one, or a call frame for a call that is not on
] as const;
export type FrameErrorCode = (typeof ERROR_CODES)[number];

export const PresenceMemberSchema = z.object({
  userId: z.string(),
  nickname: z.string(),
  /** Sockets (devices/tabs) of this user in the room. */
  nodes: count(),
});
export type PresenceMember = z.infer<typeof PresenceMemberSchema>;

export const StoredEnvelopeSchema = z.object({ seq: count(1), envelope: EnvelopeSchema });
export type StoredEnvelope = z.infer<typeof StoredEnvelopeSchema>;

export const ServerFrameSchema = z.discriminatedUnion("type", [
  /** First frame after connecting: who the room thinks you are and its latest seq. */
  z.object({
    type: z.literal("hello"),
    room: z.string(),
    userId: z.string(),
    latestSeq: count(),
    encrypted: z.boolean(),
    /** Which shard of a busy area this socket is on (absent: shard 0); its seqs count in that shard. */
    shard: z.optional(count()),
  }),
  /** The envelope `id` is stored (status `sent`). `duplicate` when the room already had it. */
  z.object({
    type: z.literal("ack"),
    id: envelopeId,
    status: z.literal("sent"),
    seq: count(1),
    duplicate: z.optional(z.boolean()),
    /** When the message disappears (the room's stamp from the chat's timer), so the sender's copy goes too. */
    expiresAt: z.optional(z.int().check(z.minimum(1))),
  }),
  /** A live envelope from another member (or from the server: SOS, assistant, system). */
  z.object({ type: z.literal("envelope"), seq: count(1), envelope: EnvelopeSchema }),
  /** Part of the answer to `resume`, oldest first. */
  z.object({ type: z.literal("resume-batch"), items: z.array(StoredEnvelopeSchema) }),
  /**
   * End of the answer to `resume`: `cursor` is the room's latest seq, or with `more` the seq up to which this
   * answer went (one answer carries at most about 256 KiB). `receipts` are the latest statuses
   * of the asking user's own recent envelopes, so a sender that was away still sees delivered/read.
   */
  z.object({
    type: z.literal("resume-done"),
    cursor: count(),
    receipts: z.array(z.object({ id: envelopeId, status: ReceiptStatusSchema, by: z.string(), proof: z.optional(ReceiptSignatureSchema) })),
    /** The answer stopped at its byte bound: resume again from `cursor` for the rest. */
    more: z.optional(z.boolean()),
    /** The shard whose seqs `cursor` counts (absent: shard 0); resume with it. */
    shard: z.optional(count()),
  }),
  /** Another member's device has / opened envelopes you sent. */
  z.object({
    type: z.literal("receipt"),
    status: ReceiptStatusSchema,
    ids: z.array(envelopeId),
    by: z.string(),
    at: z.number(),
    /** A group's receipt: the reader's device signature per id, in the order of `ids` (as the reader sent them). */
    proof: z.optional(z.object({ device: b64(43), at: count(), sigs: z.array(b64(86)) })),
  }),
  /**
   * One page of who is present, ordered by userId: members with a userId after `after` (from the start without
   * it), at most PRESENCE_PAGE_SIZE; `next` is the cursor of the following page (absent on the last). `nodes`
   * counts connected sockets (devices and tabs), `people` distinct people. Sent to a socket when it joins (the
   * first page) and on request (`ping {presence, after}`); changes come as `presence-delta`. An older room sent
   * the whole list (up to PRESENCE_MEMBER_LIMIT) without `people`, `after` or `next`: still read as one last page.
   */
  z.object({
    type: z.literal("presence"),
    nodes: count(),
    people: z.optional(count()),
    members: z.array(PresenceMemberSchema).check(z.maxLength(PRESENCE_MEMBER_LIMIT)),
    after: z.optional(z.string()),
    next: z.optional(z.string()),
  }),
  /**
   * What changed since the last delta (joins and leaves batched over a short window), sent to every socket:
   * `joined` has the people who arrived or whose device count changed (with their count now), `left` the ids of
   * people whose last socket left; `nodes` and `people` are the room's counts now. Its size does not grow with
   * the room's.
   */
  z.object({
    type: z.literal("presence-delta"),
    nodes: count(),
    people: count(),
    joined: z.array(PresenceMemberSchema).check(z.maxLength(PRESENCE_PAGE_SIZE)),
    left: z.array(z.string()).check(z.maxLength(PRESENCE_PAGE_SIZE)),
  }),
  z.object({
    type: z.literal("typing"),
    userId: z.string(),
    nickname: z.string(),
    active: z.boolean(),
    proof: z.optional(TypingProofSchema),
  }),
  z.object({ type: z.literal("pong"), at: z.optional(z.number()) }),
  /**
   * A direct chat this person has no socket in got a message (issue 32): sent on a socket of another room they
   * have open, so the chat appears and its messages arrive live. Names the room and the sender, never the text.
   */
  z.object({ type: z.literal("chat-waiting"), room: str(1, 200), fromName: str(0, 80) }),
  /**
   * Call signalling (never stored). `from` is always stamped by the room: the person whose socket sent it.
   * `ring` reaches every device of the callee; after `accept` the rest travel only between the two devices
   * in the call. `ringing` tells the caller how many devices ring (0: nobody has this chat open).
   */
  z.object({ type: z.literal("ring"), callId, from: z.string(), fromName: z.string() }),
  z.object({ type: z.literal("ringing"), callId, devices: count() }),
  z.object({ type: z.literal("accept"), callId, from: z.string() }),
  z.object({ type: z.literal("call-offer"), callId, from: z.string(), sdp }),
  z.object({ type: z.literal("call-answer"), callId, from: z.string(), sdp }),
  z.object({ type: z.literal("ice"), callId, from: z.string(), candidate: IceCandidateSchema }),
  /** The call is over (for everyone in it, and for devices still ringing). */
  z.object({ type: z.literal("call-ended"), callId, from: z.string(), reason: z.enum(CALL_END_REASONS) }),
  /** Something was wrong with a frame; the socket stays open. `id` names the envelope (or call) when known. */
  z.object({
    type: z.literal("error"),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** The refusal's own code (core/api-errors.ts), for a screen to say it in the person's language. */
    reason: z.optional(z.string()),
    id: z.optional(z.string()),
    retryAfterMs: z.optional(count()),
  }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

export type ParsedFrame<T> = { ok: true; frame: T } | { ok: false; code: "malformed" | "too_large"; message: string };

/** UTF-8 size of a frame as it travels. */
export function frameBytes(raw: string | ArrayBuffer): number {
  return typeof raw === "string" ? new TextEncoder().encode(raw).byteLength : raw.byteLength;
}

/** Checks size, JSON and shape of one incoming client frame (the room calls this for every message). */
export function parseClientFrame(raw: string | ArrayBuffer): ParsedFrame<ClientFrame> {
  // A valid `send` (nearly every frame a room gets) skips zod: core/envelope-check.ts, kept equal to the schema by
  // its fast-check test. Anything it does not pass, zod decides and words.
  return parseFrame(ClientFrameSchema, raw, (json) => {
    const envelope = checkSendFrame(json);
    return envelope ? { type: "send", envelope } : null;
  });
}

/** Checks one incoming server frame (the client calls this for every message). */
export function parseServerFrame(raw: string | ArrayBuffer): ParsedFrame<ServerFrame> {
  return parseFrame(ServerFrameSchema, raw);
}

function parseFrame<T>(schema: z.ZodMiniType<T>, raw: string | ArrayBuffer, fast?: (json: unknown) => T | null): ParsedFrame<T> {
  // Cheap checks first: a UTF-16 string has at least one and at most 3 UTF-8 bytes per code unit, so most frames
  // are never encoded just to be measured.
  const units = typeof raw === "string" ? raw.length : raw.byteLength;
  if (units > MAX_FRAME_BYTES || (units * 3 > MAX_FRAME_BYTES && frameBytes(raw) > MAX_FRAME_BYTES))
    return { ok: false, code: "too_large", message: `Frames may be at most ${MAX_FRAME_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
  } catch {
    return { ok: false, code: "malformed", message: "Frame is not valid JSON" };
  }
  const quick = fast?.(json);
  if (quick) return { ok: true, frame: quick };
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, code: "malformed", message: `Invalid frame: ${issue?.path.join(".") || "frame"} ${issue?.message ?? ""}`.trim() };
  }
  return { ok: true, frame: result.data };
}

/** Serialises a frame (typed, so both sides only send what the protocol allows). */
export function encodeFrame(frame: ClientFrame | ServerFrame): string {
  return JSON.stringify(frame);
}
