// Receipts of the mesh node: the delivered and read receipts this device owes for others' messages (batched,
// kept until a transport carries them) and the receipts others send for mine (statuses only move forward).
import { type ClientFrame, MAX_RECEIPT_IDS, type ReceiptStatus } from "../../../core/frames";
import type { History } from "./history";
import { chunk, upgradeStatus } from "./logic";

/** Receipts asked for within this long leave in one frame. */
export const RECEIPT_BATCH_MS = 150;

export class Receipts {
  private readonly pending = new Map<string, { delivered: Set<string>; read: Set<string> }>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly history: History,
    /** Sends a control frame to the room by any transport; false when none is up. */
    private readonly sendControl: (room: string, frame: ClientFrame) => boolean | Promise<boolean>,
  ) {}

  /** The screen shows this room: everything others sent in it counts as read. */
  markRead(room: string) {
    if (typeof document !== "undefined" && document.visibilityState !== "visible") return;
    for (const m of this.history.of(room)) {
      if (!m.mine && !m.local && m.receipt !== "read" && m.senderId !== "system") this.queue(room, m.id, "read");
    }
  }

  /** Receipts this device owes (after a reconnect, or when the first attempt found no transport). */
  queueOwed(room: string) {
    for (const m of this.history.of(room)) {
      if (!m.mine && !m.local && !m.receipt && m.senderId !== "system") this.queue(room, m.id, "delivered");
    }
    this.kick();
  }

  queue(room: string, id: string, status: ReceiptStatus) {
    let pending = this.pending.get(room);
    if (!pending) {
      pending = { delivered: new Set(), read: new Set() };
      this.pending.set(room, pending);
    }
    pending[status].add(id);
    this.kick();
  }

  /** Sends queued receipts soon (batched); those without a transport stay queued for the next chance. */
  private kick() {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.send();
    }, RECEIPT_BATCH_MS);
  }

  private async send() {
    for (const [room, pending] of this.pending) {
      for (const status of ["delivered", "read"] as const) {
        const ids = [...pending[status]];
        for (const part of chunk(ids, MAX_RECEIPT_IDS)) {
          if (!(await this.sendControl(room, { type: "receipt", status, ids: part }))) continue;
          for (const id of part) {
            pending[status].delete(id);
            const m = this.history.get(room, id);
            if (m && (m.receipt !== "read" || status === "read")) await this.history.update({ ...m, receipt: status }, false);
          }
        }
      }
    }
  }

  /** Someone's receipt for my messages: their status moves forward, never back. */
  async received(room: string, ids: string[], status: ReceiptStatus) {
    for (const id of ids) {
      const m = await this.history.find(room, id);
      if (!m?.mine) continue;
      const next = upgradeStatus(m.status, status);
      if (next !== m.status) await this.history.update({ ...m, status: next });
    }
  }
}
