// Receipts, typing and timer changes of private rooms, believed only when a member's device sealed or signed them
// (core/e2e-controls.ts, docs/protocol.md §7b, decisions 074 and 084). The mesh node asks this module before it
// acts on any of them; area rooms keep the plain frames. A direct chat's receipts are sealed envelopes; a group's
// are frames signed per envelope (sealing them would reach every member); typing is signed and timer changes
// sealed in both.
import { type DisappearTimer, isDisappearingMeta } from "../../../core/disappearing-timers";
import type { E2eSession } from "../../../core/e2e";
import { readReceipt, sealedTimerChange, signReceipts, signTyping, verifyReceipt, verifyTyping } from "../../../core/e2e-controls";
import { DEFAULT_TTL, type Envelope } from "../../../core/envelope";
import type { ReceiptProof, ReceiptSignature, ReceiptStatus, TypingProof } from "../../../core/frames";
import { newId } from "../../../core/ids";
import { roomKind } from "../../../core/room-ids";
import type { Opened } from "./sealing";

/** Where the timer changes a direct chat's members sealed are kept (`sealed-timer:<room>`), newest last. */
export interface SealedTimer {
  at: number;
  timer: DisappearTimer;
}

export interface PrivateControlsDeps {
  me: { id: string; nickname: string };
  hop: string;
  kv: { kvGet<T>(key: string): Promise<T | undefined>; kvSet(key: string, value: unknown): Promise<void> };
  session: () => Promise<Pick<E2eSession, "me" | "trustedDevices">>;
}

/** True in a direct chat: there receipts are sealed envelopes, and a plain receipt is not believed. */
export const sealedControls = (room: string) => roomKind(room) === "dm";
/** True in a private room (direct chat or group): a plain typing frame or server timer line is not believed there. */
export const signedControls = (room: string) => roomKind(room) === "dm" || roomKind(room) === "group";
/** True in a group: receipts are frames signed per envelope by the reader's device. */
export const signedReceipts = (room: string) => roomKind(room) === "group";

export class PrivateControls {
  /** The newest typing signature believed per device (a replay of an older frame is refused). */
  private readonly typingSeen = new Map<string, number>();

  constructor(private readonly deps: PrivateControlsDeps) {}

  /** A receipt as an envelope of the chat: sealed like a message when it leaves, kept by the room for every device. */
  receiptEnvelope(room: string, status: ReceiptStatus, ids: string[]): Envelope {
    return {
      id: newId(),
      room,
      senderId: this.deps.me.id,
      senderName: this.deps.me.nickname,
      timestamp: Date.now(),
      type: "receipt",
      ttl: DEFAULT_TTL,
      meshRoute: [this.deps.hop],
      isEncrypted: true,
      priority: "normal",
      content: { text: JSON.stringify({ status, ids }) },
    };
  }

  /** The receipt a sealed `receipt` envelope carries, when it opened and came from the other person. */
  receiptOf(envelope: Envelope, opened: Opened | { refused: string } | null): { status: ReceiptStatus; ids: string[] } | null {
    if (envelope.senderId === this.deps.me.id || !opened || !("text" in opened)) return null;
    return readReceipt(opened.text);
  }

  /** This device's signatures over a group receipt, one per envelope id. */
  async receiptProof(room: string, status: ReceiptStatus, ids: string[]): Promise<ReceiptProof> {
    return signReceipts((await this.deps.session()).me, room, status, ids);
  }

  /**
   * The ids of a group's receipt (a live frame's, or the room's list on resume) that a listed device of the person
   * it names signed; the rest are not believed (the server made or moved them).
   */
  async receiptsBelieved(
    room: string,
    receipts: { id: string; by: string; status: ReceiptStatus; proof?: ReceiptSignature }[],
  ): Promise<{ id: string; status: ReceiptStatus }[]> {
    const session = await this.deps.session();
    const devices = new Map<string, Awaited<ReturnType<typeof session.trustedDevices>>["devices"]>();
    const believed: { id: string; status: ReceiptStatus }[] = [];
    for (const r of receipts) {
      if (r.by === this.deps.me.id || !r.proof) continue;
      if (!devices.has(r.by)) devices.set(r.by, (await session.trustedDevices(r.by)).devices);
      if (await verifyReceipt(devices.get(r.by) ?? [], { room, ...r }, r.proof)) believed.push({ id: r.id, status: r.status });
    }
    return believed;
  }

  /** This device's signature over its typing state in a private room. */
  async typingProof(room: string, active: boolean): Promise<TypingProof> {
    return signTyping((await this.deps.session()).me, room, active);
  }

  /** Whether a typing frame of a private room was signed by a listed device of the person it names. */
  async typingBelieved(room: string, frame: { userId: string; active: boolean; proof?: TypingProof }, now = Date.now()): Promise<boolean> {
    if (!frame.proof) return false;
    const { devices } = await (await this.deps.session()).trustedDevices(frame.userId);
    const key = `${room}|${frame.proof.device}`;
    if (!(await verifyTyping(devices, { room, ...frame }, now, this.typingSeen.get(key)))) return false;
    this.typingSeen.set(key, frame.proof.at);
    return true;
  }

  /**
   * An opened message of a direct chat that announces a timer change: kept (so messages sent while the chat's
   * timer is off are never deleted at the server's say) when its sealed sender names themself; false when it
   * names someone else (refused); null when it announces nothing.
   */
  async timerOpened(room: string, envelope: Pick<Envelope, "senderId" | "timestamp">, meta: unknown): Promise<boolean | null> {
    const change = sealedTimerChange(envelope.senderId, meta);
    if (change === null) return null;
    if (change === false) return false;
    await this.recordTimer(room, envelope.timestamp, change.timer as DisappearTimer);
    return true;
  }

  /** Keeps a sealed timer change (one this device sent, or one it opened). */
  async recordTimer(room: string, at: number, timer: DisappearTimer): Promise<void> {
    const kept = (await this.deps.kv.kvGet<SealedTimer[]>(`sealed-timer:${room}`)) ?? [];
    if (kept.some((t) => t.at === at && t.timer === timer)) return;
    const next = [...kept, { at, timer }].sort((a, b) => a.at - b.at).slice(-20);
    await this.deps.kv.kvSet(`sealed-timer:${room}`, next);
  }

  /**
   * When a direct chat's message leaves this device's history. The room stamps the expiry; a message sent while
   * the chat's sealed timer was off keeps no expiry, whatever the server stamped (it cannot make a chat's
   * messages vanish early that way). A chat with no sealed timer yet (older chats, a new chat's default timer)
   * keeps the room's stamp.
   */
  async expiryOf(room: string, timestamp: number, stamped: number | undefined, meta?: unknown): Promise<number | undefined> {
    if (stamped === undefined || !signedControls(room)) return stamped;
    // A timer change itself stays, as the room's own announcement does.
    if (isDisappearingMeta(meta)) return undefined;
    const kept = (await this.deps.kv.kvGet<SealedTimer[]>(`sealed-timer:${room}`)) ?? [];
    const inForce = kept.findLast((t) => t.at <= timestamp);
    return inForce?.timer === "never" ? undefined : stamped;
  }
}
