// Disappearing messages on this device (docs/decisions/040-disappearing-messages.md): each message the room
// stamped with `expiresAt` is deleted from this browser's history when that moment comes, on load for what
// expired while LinkUp was closed, and by a timer for the next one while it is open.
import { isDisappearingMeta, isExpired } from "../../../core/disappearing-timers";
import type { Envelope } from "../../../core/envelope";
import { openDb } from "./db";

/** setTimeout's longest delay (about 24.8 days); a 30-day timer is waited for in steps. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface Expiring {
  id: string;
  room: string;
  expiresAt?: number;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Watches the expiries of messages shown or kept on this device and reports each room's expired ids once, when
 * they are due (at once for those already past). The node deletes them from storage and from the screen.
 */
export class ExpiryWatch {
  private readonly pending = new Map<string, { room: string; at: number }>();
  private timer: unknown = null;
  private timerAt: number | null = null;

  constructor(
    private readonly onDue: (room: string, ids: string[]) => void,
    private readonly clock: Clock = realClock,
  ) {}

  /** Adds messages to watch; messages without an expiry are ignored. */
  watch(messages: Iterable<Expiring>): void {
    for (const m of messages) if (typeof m.expiresAt === "number") this.pending.set(m.id, { room: m.room, at: m.expiresAt });
    this.tick();
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = null;
    this.pending.clear();
  }

  private tick(): void {
    const now = this.clock.now();
    const due = new Map<string, string[]>();
    let next: number | null = null;
    for (const [id, { room, at }] of this.pending) {
      if (at <= now) {
        due.set(room, [...(due.get(room) ?? []), id]);
        this.pending.delete(id);
      } else if (next === null || at < next) next = at;
    }
    this.schedule(next, now);
    for (const [room, ids] of due) this.onDue(room, ids);
  }

  private schedule(next: number | null, now: number): void {
    if (next === this.timerAt) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = next;
    if (next === null) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.timerAt = null;
        this.tick();
      },
      Math.min(next - now, MAX_TIMEOUT_MS),
    );
  }
}

/** Deletes every expired message of this browser's history, whichever room (at start, for chats not open). */
export async function purgeExpired(now = Date.now()): Promise<number> {
  const store = (await openDb()).transaction("messages", "readwrite").objectStore("messages");
  return new Promise((resolve, reject) => {
    let deleted = 0;
    const req = store.openCursor();
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return resolve(deleted);
      if (isExpired(cursor.value as Expiring, now)) {
        cursor.delete();
        deleted++;
      }
      cursor.continue();
    };
    req.onerror = () => reject(req.error);
  });
}

/**
 * The room's own line announcing a timer change: nothing to open (private rooms carry no server plain text), its
 * meta is worded on screen. Null for any other envelope.
 */
export function timerLine(envelope: Pick<Envelope, "senderId" | "type" | "meta">): { text: string; meta: Record<string, unknown> } | null {
  if (envelope.senderId !== "system" || envelope.type !== "system") return null;
  return isDisappearingMeta(envelope.meta) ? { text: "", meta: envelope.meta as unknown as Record<string, unknown> } : null;
}
