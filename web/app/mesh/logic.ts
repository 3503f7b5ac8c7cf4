// Decisions of the client mesh node, as pure functions (tested in logic.test.ts without a browser).
import type { Envelope } from "../../../core/envelope";
import type { MessageStatus } from "./db";

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;

/** Reconnect delay: doubling from 0.5 s, capped at 30 s, with up to 20% jitter so tabs do not stampede. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_CAP_MS);
  return Math.round(base * (0.8 + 0.2 * random()));
}

const ORDER: Record<MessageStatus, number> = { sending: 0, sent: 1, delivered: 2, read: 3 };

/** Statuses only move forward: a late 'delivered' never undoes 'read'. */
export function upgradeStatus(current: MessageStatus | undefined, next: MessageStatus): MessageStatus {
  if (!current) return next;
  return ORDER[next] > ORDER[current] ? next : current;
}

/** Default time to live: how many more hops an envelope may take. */
export const DEFAULT_TTL = 8;

/**
 * The envelope as a relaying node forwards it: its hop appended to meshRoute and one hop less to live.
 * Null when the envelope has no hops left, already passed this node (a loop), or the route is full.
 */
export function forwardEnvelope(envelope: Envelope, hop: string): Envelope | null {
  if (envelope.ttl <= 0) return null;
  if (envelope.meshRoute.includes(hop)) return null;
  if (envelope.meshRoute.length >= 16) return null;
  return { ...envelope, ttl: envelope.ttl - 1, meshRoute: [...envelope.meshRoute, hop] };
}

/** A bounded set of envelope ids already handled, so each envelope is shown and stored once. */
export class SeenIds {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 5000) {}
  /** True the first time an id is offered, false after. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.max) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
}

/** Splits ids into receipt frames of at most `size` ids (the protocol's MAX_RECEIPT_IDS). */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The other user of a direct chat room `dm:<a>:<b>`, or null for other rooms. */
export function dmPeer(room: string, me: string): string | null {
  const parts = room.split(":");
  if (parts[0] !== "dm" || parts.length !== 3) return null;
  if (parts[1] === me) return parts[2] ?? null;
  if (parts[2] === me) return parts[1] ?? null;
  return null;
}

/** Private rooms (direct chats and groups) are end-to-end encrypted; area rooms are public. */
export function isPrivateRoom(room: string): boolean {
  return room.startsWith("dm:") || room.startsWith("group:");
}

/** The additional data that binds a ciphertext to its room and envelope id. */
export function envelopeAad(envelope: Pick<Envelope, "room" | "id">): string {
  return `${envelope.room}|${envelope.id}`;
}

/** Marks a sealed payload that carries meta beside the text (a control character no one types). */
const PACKED = "\u0001";

/** The plaintext a private envelope encrypts: the text alone, or text and meta together. */
export function packContent(text: string, meta: Record<string, unknown> | undefined): string {
  return meta ? `${PACKED}${JSON.stringify({ text, meta })}` : text.replaceAll(PACKED, "");
}

export function unpackContent(plain: string): { text: string; meta?: Record<string, unknown> } {
  if (!plain.startsWith(PACKED)) return { text: plain };
  try {
    const parsed = JSON.parse(plain.slice(1)) as { text?: unknown; meta?: unknown };
    const meta = parsed.meta && typeof parsed.meta === "object" ? (parsed.meta as Record<string, unknown>) : undefined;
    return { text: typeof parsed.text === "string" ? parsed.text : "", meta };
  } catch {
    return { text: plain.slice(1) };
  }
}
