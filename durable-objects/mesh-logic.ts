// Decisions of the MeshRoom as pure functions (tested without the runtime): rate limits, what a
// room accepts from a sender, retention, receipt merging and the order of a resume answer.
import type { Envelope } from "../core/envelope";
import { CLIENT_ENVELOPE_TYPES, MAX_META_BYTES, roomKind } from "../core/envelope";
import { type FrameErrorCode, MAX_FRAME_BYTES, type ReceiptStatus } from "../core/frames";
import { newId } from "../core/ids";

// ---------------------------------------------------------------- rate limits (token buckets per person)

export interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateLimit {
  /** Frames a person may send at once. */
  burst: number;
  /** Frames per second refilled. */
  perSecond: number;
}

/**
 * Each person in a room, over all their sockets: bursts of 60 frames, 20 a second sustained (typing a message a
 * second is far below). Per person, so ten sockets never make ten budgets (docs/decisions/014-room-limits.md).
 */
export const PERSON_RATE: RateLimit = { burst: 60, perSecond: 20 };
/** Resumes per person in a room: a reconnect storm's worth at once, then one every 4 s. */
export const RESUME_RATE: RateLimit = { burst: 8, perSecond: 0.25 };
/** Sockets one person may hold in one room (tabs and devices); a newer one replaces the oldest. */
export const MAX_SOCKETS_PER_PERSON = 4;
export { CLOSE_NOT_MEMBER, CLOSE_REPLACED } from "../core/frames";

/**
 * Which of a person's open sockets to close so that a new one fits within MAX_SOCKETS_PER_PERSON: the oldest.
 * The newest wins because on a flaky network the old ones are the likeliest to be dead already.
 */
export function socketsToReplace<T extends { openedAt: number }>(open: T[], max = MAX_SOCKETS_PER_PERSON): T[] {
  const excess = open.length - (max - 1);
  return excess > 0 ? [...open].sort((a, b) => a.openedAt - b.openedAt).slice(0, excess) : [];
}

export function fullBucket(limit: RateLimit, now: number): Bucket {
  return { tokens: limit.burst, updatedAt: now };
}

/** Takes one token. Answers the new bucket and, when refused, how long until a token is back. */
export function takeToken(bucket: Bucket, now: number, limit: RateLimit): { allowed: boolean; bucket: Bucket; retryAfterMs: number } {
  const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
  const tokens = Math.min(limit.burst, bucket.tokens + elapsed * limit.perSecond);
  if (tokens >= 1) return { allowed: true, bucket: { tokens: tokens - 1, updatedAt: now }, retryAfterMs: 0 };
  const retryAfterMs = Math.ceil(((1 - tokens) / limit.perSecond) * 1000);
  return { allowed: false, bucket: { tokens, updatedAt: now }, retryAfterMs };
}

// ---------------------------------------------------------------- what a room accepts

export function isPrivateRoom(roomId: string): boolean {
  const kind = roomKind(roomId);
  return kind === "group" || kind === "dm";
}

const CLIENT_TYPES = new Set<string>(CLIENT_ENVELOPE_TYPES);
const utf8 = new TextEncoder();

/**
 * Checks an envelope a member sends into a room: only person-to-person kinds, as themselves, into the room
 * they are in, with a small `meta`, and content that fits the room (contentRule). Answers null when accepted.
 */
export function refuseEnvelope(
  envelope: Envelope,
  socket: { roomId: string; userId: string },
): { code: FrameErrorCode; message: string } | null {
  if (envelope.room !== socket.roomId) return { code: "forbidden", message: "This envelope belongs to another room" };
  if (envelope.senderId !== socket.userId) return { code: "forbidden", message: "You can only send as yourself" };
  if (!CLIENT_TYPES.has(envelope.type))
    return { code: "forbidden", message: "Emergency, system and assistant messages come only from LinkUp itself" };
  if (envelope.meta && utf8.encode(JSON.stringify(envelope.meta)).byteLength > MAX_META_BYTES)
    return { code: "too_large", message: `Message details (meta) may be at most ${MAX_META_BYTES} bytes` };
  return contentRule(envelope);
}

/**
 * Private rooms take only ciphertext (the server never holds their plaintext); public area rooms only plain
 * text (they say they are public, so nothing pretends to be secret there).
 */
function contentRule(envelope: Envelope): { code: FrameErrorCode; message: string } | null {
  const encrypted = "ciphertext" in envelope.content;
  if (isPrivateRoom(envelope.room)) {
    if (!encrypted || !envelope.isEncrypted)
      return { code: "plaintext_refused", message: "Private rooms accept only end-to-end encrypted messages" };
  } else if (encrypted || envelope.isEncrypted) {
    return { code: "plaintext_refused", message: "Area rooms are public: send plain text" };
  }
  return null;
}

/** Server-side envelopes (deliver RPC) may be of any kind; they follow the same content rule. */
export function refuseServerEnvelope(envelope: Envelope): { code: FrameErrorCode; message: string } | null {
  return contentRule(envelope);
}

/**
 * A member's envelope as the room stores it: the sender's name is the one the server knows (whatever the
 * client wrote), and only the server's own envelopes travel with high priority.
 */
export function stampMemberEnvelope(envelope: Envelope, sender: { nickname: string }): Envelope {
  // The expiry is the room's to stamp (from the chat's timer), never the sender's.
  const { expiresAt: _chosen, ...rest } = envelope;
  return { ...rest, senderName: sender.nickname.slice(0, 60) || undefined, priority: "normal" };
}

/** Emergency envelopes always travel with high priority, whatever the client set. */
export function normaliseEnvelope(envelope: Envelope): Envelope {
  return envelope.type === "emergency" && envelope.priority !== "high" ? { ...envelope, priority: "high" } : envelope;
}

// ---------------------------------------------------------------- retention

/** A line the room itself writes (a missed call, a timer change): no content, its meta worded by each device. */
export function systemLine(room: string, meta: object): Envelope {
  return {
    id: newId(),
    room,
    senderId: "system",
    timestamp: Date.now(),
    type: "system",
    ttl: 0,
    meshRoute: [],
    isEncrypted: false,
    priority: "normal",
    content: { text: "" },
    meta: meta as Record<string, unknown>,
  };
}

export const RETAIN_MIN_COUNT = 1000;
export const RETAIN_MIN_MS = 7 * 24 * 3600 * 1000;
/** Ids of pruned envelopes are kept this long more, so a late resend is still recognised as a duplicate. */
export const DEDUPE_MEMORY_MS = 30 * 24 * 3600 * 1000;

/**
 * Which stored envelopes may lose their body: only those both outside the last RETAIN_MIN_COUNT and older
 * than RETAIN_MIN_MS (the room keeps whichever is more). Answers the seq bound and time bound to prune below.
 */
export function pruneBounds(latestSeq: number, now: number): { belowSeq: number; before: number } {
  return { belowSeq: latestSeq - RETAIN_MIN_COUNT + 1, before: now - RETAIN_MIN_MS };
}

// ---------------------------------------------------------------- receipts

const RANK: Record<ReceiptStatus, number> = { delivered: 1, read: 2 };

/** A receipt only moves forward: read beats delivered, and a later delivered never undoes read. */
export function mergeReceipt(current: ReceiptStatus | null | undefined, next: ReceiptStatus): ReceiptStatus {
  return current && RANK[current] >= RANK[next] ? current : next;
}

/** Groups receipt targets by the sender to notify, skipping the reader's own envelopes. */
export function receiptsBySender(rows: { id: string; senderId: string }[], readerId: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) {
    if (row.senderId === readerId) continue;
    const list = out.get(row.senderId) ?? [];
    list.push(row.id);
    out.set(row.senderId, list);
  }
  return out;
}

// ---------------------------------------------------------------- resume batches

/** Bytes of items a resume-batch frame may carry: with its own wrapping it stays within MAX_FRAME_BYTES. */
export const RESUME_BATCH_BYTES = MAX_FRAME_BYTES - 128;
/** Bytes each item adds around its envelope: {"seq":N,"envelope":…}, plus the comma. */
export const RESUME_ITEM_OVERHEAD = 40;

/**
 * Streams items (e.g. rows of a SQL cursor) in batches of at most `maxItems` items and about `maxBytes` (one
 * item alone may exceed it), so a long resume never holds the whole history in memory.
 */
export function* batchBySize<T>(items: Iterable<T>, maxItems: number, maxBytes: number, sizeOf: (item: T) => number): Generator<T[]> {
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length >= maxItems || bytes + size > maxBytes)) {
      yield current;
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) yield current;
}

/** Bytes one resume answer carries at most (about): the client asks again from the cursor it got for more. */
export const RESUME_MAX_BYTES = 256 * 1024;

/**
 * What one resume answer carries, within about `budget` bytes: missed emergencies first (up to half the
 * budget), then everything else in seq order (`all` is every item after the client's cursor, in seq order,
 * emergencies included: those already sent are skipped). `cursor` is the seq up to which the client now has
 * everything, from which its next resume continues (null: nothing was left); `more` says whether anything is
 * left. At least one item is always sent, so a client always progresses; an emergency after the cursor may
 * come again with the next answer, and clients dedupe by envelope id.
 */
export function planResume<T extends { seq: number }>(
  urgent: Iterable<T>,
  all: Iterable<T>,
  sizeOf: (item: T) => number,
  budget = RESUME_MAX_BYTES,
): { items: T[]; cursor: number | null; more: boolean } {
  const items: T[] = [];
  const sent = new Set<number>();
  let bytes = 0;
  for (const item of urgent) {
    const size = sizeOf(item);
    if (bytes + size > budget / 2 && items.length > 0) break;
    items.push(item);
    sent.add(item.seq);
    bytes += size;
  }
  let cursor: number | null = null;
  for (const item of all) {
    if (sent.has(item.seq)) {
      cursor = item.seq;
      continue;
    }
    const size = sizeOf(item);
    if (cursor !== null && bytes + size > budget) return { items, cursor, more: true };
    items.push(item);
    bytes += size;
    cursor = item.seq;
  }
  return { items, cursor, more: false };
}
