// The mesh node's outbox: envelopes written but not yet acknowledged by the room, kept in IndexedDB until the
// room's ack. It paces resends and keeps a private envelope's sealed bytes for every try of it.
import type { Envelope } from "../../../core/envelope";
import * as db from "./db";
import type { OutboxItem } from "./db";
import { isPrivateRoomId as isPrivateRoom } from "../../../core/room-ids";

/** A try not yet acknowledged is not repeated sooner than this. */
export const RESEND_AFTER_MS = 4000;

export interface OutboxStore {
  putOutbox(item: OutboxItem): Promise<void>;
  deleteOutbox(id: string): Promise<void>;
  outboxFor(room?: string): Promise<OutboxItem[]>;
}

export class Outbox {
  private readonly lastSent = new Map<string, number>();
  /**
   * Private envelopes as sealed for their first try: a resend carries the same bytes, since sealing again
   * would move the ratchet each time (docs/protocol.md §4) and a long wait could exceed what receivers skip.
   */
  private readonly sealed = new Map<string, Envelope>();

  constructor(
    private readonly store: OutboxStore = db,
    private readonly now: () => number = Date.now,
  ) {}

  put(item: OutboxItem): Promise<void> {
    return this.store.putOutbox(item);
  }
  /** What waits in one room (or in all), emergencies first, then in the order written. */
  items(room?: string): Promise<OutboxItem[]> {
    return this.store.outboxFor(room);
  }

  /** Whether an item was tried so recently that its answer may still be on the way. */
  tooSoon(id: string): boolean {
    const last = this.lastSent.get(id);
    return last !== undefined && this.now() - last < RESEND_AFTER_MS;
  }
  tried(id: string) {
    this.lastSent.set(id, this.now());
  }

  /** The envelope as it goes on the wire: sealed once for a private room, then the same bytes each try. */
  async wire(item: OutboxItem, seal: (envelope: Envelope) => Promise<Envelope>): Promise<Envelope> {
    const wire = this.sealed.get(item.id) ?? (await seal(item.envelope));
    if (isPrivateRoom(item.room)) this.sealed.set(item.id, wire);
    return wire;
  }

  /** The room has it: it leaves the outbox. */
  async acknowledged(id: string) {
    this.lastSent.delete(id);
    this.sealed.delete(id);
    await this.store.deleteOutbox(id);
  }

  /** The room refused it for good: it leaves the outbox (the message shows why). */
  refused(id: string): Promise<void> {
    this.sealed.delete(id);
    return this.store.deleteOutbox(id);
  }

  /** Gone another way (the SOS pipeline, or refused over HTTP). */
  remove(id: string): Promise<void> {
    return this.store.deleteOutbox(id);
  }
}
