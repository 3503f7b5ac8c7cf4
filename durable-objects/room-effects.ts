// The room's port (docs/architecture.md §2): what a room asks of the rest of the Worker — a notice for someone
// who is not connected, and a count of trouble. The Worker implements it (workers/rooms/effects.ts) and exports
// the wired class; the room itself imports nothing from workers/, and its tests may hand it a fake.
import type { Db } from "../db";

/** A notification-centre entry (and push), in the room's words; the Worker translates and stores it. */
export interface RoomNotice {
  type: "message";
  title: string;
  content: string;
  priority: "medium";
  url: string;
  source: string;
}

export interface RoomEffects {
  /**
   * Tells the recipient of a direct message, by push and their notification centre, when D1's presence says no
   * socket of theirs is open; false when one is (so a later message while they are away may still be told).
   */
  notifyDirectMessageIfOffline(env: Env, db: Db, input: { recipientId: string; senderName: string; roomId: string }): Promise<boolean>;
  /** A notice for one person (the missed call). */
  notify(env: Env, db: Db, userId: string, notice: RoomNotice): Promise<unknown>;
  /** Counts a D1 write the room could not make (the operator's trouble counters, docs/decisions/053-nothing-lost.md). */
  countD1WriteFailed(db: Db): Promise<unknown>;
}
