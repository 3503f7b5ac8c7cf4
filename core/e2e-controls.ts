// Receipts, typing and timer changes of a direct chat, authenticated by the sender's device (docs/protocol.md §7b,
// docs/decisions/074-keys-and-metadata-inside-the-seal.md). The server used to set them unauthenticated: a plain
// `receipt` frame marked any message read, a plain `typing` frame showed anyone typing, a system line announced
// any timer. In a direct chat now:
// - a receipt is a sealed envelope of type `receipt` (version 4, like a message), stored by the room so every
//   device of the sender gets it, even one that was away; its content is this module's ReceiptPayload;
// - a timer change is a sealed message whose meta names the timer and, as `by`, its own sender;
// - typing is a frame signed by the typing device (never stored: sealing it by the ratchet would leave a skipped
//   key on every device that was offline at that moment, and the server sees when someone types anyway).
import * as z from "zod/mini";
import { isDisappearingMeta } from "./disappearing-timers";
import type { DeviceRecord, DeviceSecrets } from "./e2e";
import {
  MAX_RECEIPT_IDS,
  type ReceiptProof,
  type ReceiptSignature,
  type ReceiptStatus,
  ReceiptStatusSchema,
  type TypingProof,
} from "./frames";
import { fromBase64Url, toBase64Url } from "./ids";
import { utf8 } from "./webcrypto";

/** What a sealed receipt says: which of the other person's messages this device has or opened. */
export const ReceiptPayloadSchema = z.object({
  status: ReceiptStatusSchema,
  ids: z.array(z.string().check(z.minLength(8), z.maxLength(64))).check(z.minLength(1), z.maxLength(MAX_RECEIPT_IDS)),
});
export type ReceiptPayload = z.infer<typeof ReceiptPayloadSchema>;

/** The receipt of an opened `receipt` envelope's text, or null when it is not one. */
export function readReceipt(text: string): ReceiptPayload | null {
  try {
    const parsed = ReceiptPayloadSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Whether an opened message's timer change may be believed: it names its own sealed sender as `by` (a member
 * cannot announce a change in the other's name). Null when the meta is no timer change.
 */
export function sealedTimerChange(senderId: string, meta: unknown): { timer: string } | null | false {
  if (!isDisappearingMeta(meta)) return null;
  return meta.by === senderId ? { timer: meta.timer } : false;
}

/** A typing frame's signature is believed this long after it was made (clocks of phones differ a little). */
export const TYPING_PROOF_MS = 5 * 60_000;

const typingBytes = (room: string, userId: string, active: boolean, at: number) =>
  utf8(JSON.stringify(["linkup-typing", 1, room, userId, active, at]));

/** Signs this device's typing state in a direct chat. */
export async function signTyping(me: DeviceSecrets, room: string, active: boolean, at = Date.now()): Promise<TypingProof> {
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, me.signing.privateKey, typingBytes(room, me.record.userId, active, at));
  return { device: me.record.signingKey, at, sig: toBase64Url(new Uint8Array(sig)) };
}

/**
 * True when a typing frame was signed by one of `devices` (the person's signed device list), for this room,
 * person and state, within TYPING_PROOF_MS of now and later than the last one believed from that device (a
 * replay of an old frame is refused).
 */
export async function verifyTyping(
  devices: Pick<DeviceRecord, "signingKey">[],
  frame: { room: string; userId: string; active: boolean; proof?: TypingProof },
  now: number,
  lastAt: number | undefined,
): Promise<boolean> {
  const p = frame.proof;
  if (!p || !devices.some((d) => d.signingKey === p.device)) return false;
  if (Math.abs(now - p.at) > TYPING_PROOF_MS || (lastAt !== undefined && p.at <= lastAt)) return false;
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(p.device), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify(
      { name: "Ed25519" },
      key,
      fromBase64Url(p.sig),
      typingBytes(frame.room, frame.userId, frame.active, p.at),
    );
  } catch {
    return false;
  }
}

// Receipts of a group (docs/protocol.md §7b). Sealing them as a direct chat does would send every member's
// receipt to every member (a sender key reaches the whole group): 255 readers of one message in a group of 256
// would cost 65,025 deliveries. They stay frames the room relays to the message's sender only, and each envelope
// id is signed by the reader's device, so the server can neither invent a "read" nor move one to another message.
const receiptBytes = (room: string, userId: string, status: ReceiptStatus, id: string, at: number) =>
  utf8(JSON.stringify(["linkup-receipt", 1, room, userId, status, id, at]));

/** Signs one receipt per envelope id (the room keeps and hands back each on its own). */
export async function signReceipts(
  me: DeviceSecrets,
  room: string,
  status: ReceiptStatus,
  ids: string[],
  at = Date.now(),
): Promise<ReceiptProof> {
  const sigs = await Promise.all(
    ids.map(async (id) =>
      toBase64Url(
        new Uint8Array(
          await crypto.subtle.sign({ name: "Ed25519" }, me.signing.privateKey, receiptBytes(room, me.record.userId, status, id, at)),
        ),
      ),
    ),
  );
  return { device: me.record.signingKey, at, sigs };
}

/** True when `proof` is the signature of a device of `devices` (the reader's signed list) for this receipt. */
export async function verifyReceipt(
  devices: Pick<DeviceRecord, "signingKey">[],
  receipt: { room: string; by: string; status: ReceiptStatus; id: string },
  proof: ReceiptSignature | undefined,
): Promise<boolean> {
  if (!proof || !devices.some((d) => d.signingKey === proof.device)) return false;
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(proof.device), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify(
      { name: "Ed25519" },
      key,
      fromBase64Url(proof.sig),
      receiptBytes(receipt.room, receipt.by, receipt.status, receipt.id, proof.at),
    );
  } catch {
    return false;
  }
}
