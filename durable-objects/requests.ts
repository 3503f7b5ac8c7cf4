// The message-request section of MeshRoom (docs/decisions/050-consent-before-a-stranger-reaches-you.md): while a
// direct chat waits for the recipient's consent, the requester may send a few first messages and nothing else, the
// recipient only reads, and neither side's read receipts or typing reach the other. D1 `direct_requests` is the
// record; the Worker hands its state over at every socket upgrade and when the request is accepted or declined.
import { DIRECT_REQUEST_LIMITS, REQUEST_TEXTS } from "../core/rooms";
import type { FrameErrorCode } from "../core/frames";

const FROM = "request-from";
const SENT = "request-sent";
/** The room's once-per-request notice mark (mesh-room.ts pushDirectMessage); cleared with the request. */
export const REQUEST_PUSH_KEY = "request-pushed";
const PUSHED = REQUEST_PUSH_KEY;

export class RequestGate {
  constructor(private readonly sql: SqlStorage) {}

  /** Who asked, while the request waits; null for an ordinary direct chat. */
  pendingFrom(): string | null {
    return this.read(FROM);
  }

  /** The request's state as D1 has it (`from` is the requester, or null once accepted). A new request counts afresh. */
  set(from: string | null): void {
    if (from === this.pendingFrom()) return;
    this.sql.exec("DELETE FROM meta WHERE key IN (?, ?, ?)", FROM, SENT, PUSHED);
    if (from) this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?)", FROM, from);
  }

  /**
   * A member's envelope while the request waits: the requester's first messages pass (counted, a resend of one
   * already stored is free), anything else is refused with the reason. Null when it may be stored.
   */
  refuseSend(userId: string, envelope: { id: string; type: string }): { code: FrameErrorCode; message: string } | null {
    const from = this.pendingFrom();
    if (!from) return null;
    if (userId !== from) return { code: "forbidden", message: REQUEST_TEXTS.acceptToReply };
    if (envelope.type !== "text") return { code: "forbidden", message: REQUEST_TEXTS.waitForAccept };
    if (this.sql.exec("SELECT 1 FROM envelopes WHERE id = ?", envelope.id).toArray().length > 0) return null;
    const sent = Number(this.read(SENT) ?? 0);
    if (sent >= DIRECT_REQUEST_LIMITS.firstMessages) return { code: "forbidden", message: REQUEST_TEXTS.waitForAccept };
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", SENT);
    return null;
  }

  /** Receipts and typing wait for consent: neither side learns the other read or is typing. */
  quiet(): boolean {
    return this.pendingFrom() !== null;
  }

  private read(key: string): string | null {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
  }
}
