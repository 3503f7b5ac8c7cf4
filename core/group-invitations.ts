// Signed invitations into a private group (docs/protocol.md §6a, docs/decisions/081-no-silent-join.md). The
// server alone can claim that someone was invited and accepted; an owner's or admin's device therefore signs in
// automatically only a person holding an invitation signed by the device of a member of the group's current
// epoch. Anyone else the server lists waits for an owner or admin to press "Let in".
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "./ids";
import { utf8 } from "./webcrypto";
import type { DeviceSecrets } from "./e2e";

/** Format of an invitation statement (inside the signature). */
export const GROUP_INVITATION_FORMAT = 1;

const B64_32 = /^[A-Za-z0-9_-]{43}$/;
const B64_64 = /^[A-Za-z0-9_-]{86}$/;
const USER_ID = /^[A-Za-z0-9_:-]{1,64}$/;

/** What a member's device signs when it invites someone: about 330 bytes as JSON. */
export const SignedInvitationSchema = z.object({
  room: z.string().min(1).max(80),
  invitee: z.string().regex(USER_ID),
  inviter: z.string().regex(USER_ID),
  /** The Ed25519 identity key of the inviter's device that signed (a device of the inviter's signed list). */
  device: z.string().regex(B64_32),
  /** The epoch the inviter's device held when it invited: a departure after it makes the invitation stale. */
  epoch: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** When (ms since 1970), as the inviter's device said. */
  at: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  signature: z.string().regex(B64_64),
});
export type SignedInvitation = z.infer<typeof SignedInvitationSchema>;

const bodyBytes = (i: Omit<SignedInvitation, "signature">) =>
  utf8(JSON.stringify(["linkup-group-invitation", GROUP_INVITATION_FORMAT, i.room, i.invitee, i.inviter, i.device, i.epoch, i.at]));

/** The inviter's device signs an invitation of `invitee` into `room`, whose newest epoch it holds is `epoch`. */
export async function signInvitation(
  signer: Pick<DeviceSecrets, "signing" | "record">,
  room: string,
  invitee: string,
  epoch: number,
  at = Date.now(),
): Promise<SignedInvitation> {
  const body = { room, invitee, inviter: signer.record.userId, device: signer.record.signingKey, epoch, at };
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, signer.signing.privateKey, bodyBytes(body));
  return { ...body, signature: toBase64Url(new Uint8Array(sig)) };
}

/** The invitation as it must look before any of it is used (the server may hand out anything), or null. */
export function readInvitation(value: unknown): SignedInvitation | null {
  const parsed = SignedInvitationSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** True when the invitation carries its `device` key's signature (whose device that is, the caller checks). */
export async function invitationSignatureHolds(i: SignedInvitation): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(i.device), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(i.signature), bodyBytes(i));
  } catch {
    return false;
  }
}

/**
 * Why an owner's or admin's device may not sign `invitee` in on the strength of `value` (null: it may): the
 * invitation must be for this room and person, made by a member of the current epoch `current`, signed by a
 * device of that member's signed list (`deviceKeys`, as epochs are checked), made no earlier than the epoch the
 * invitee last left (`leftAt`: an old invitation the server kept cannot bring someone back after they left),
 * and not from an epoch this device has not reached (a number from the future is the server's invention).
 */
export async function invitationRefused(
  value: unknown,
  // The newest epoch this device accepted (core/group-epochs.ts), by the fields read here: group-epochs imports
  // this module, so its types are not imported back.
  current: { room: string; epoch: number; members: { userId: string }[] },
  invitee: string,
  deviceKeys: (userId: string, device?: string) => Promise<string[]>,
  leftAt?: number,
): Promise<"missing" | "invalid" | "not-a-member" | "stale" | "bad-signature" | null> {
  if (value === undefined || value === null) return "missing";
  const i = readInvitation(value);
  if (!i || i.room !== current.room || i.invitee !== invitee || i.inviter === invitee) return "invalid";
  if (!current.members.some((m) => m.userId === i.inviter)) return "not-a-member";
  if (i.epoch > current.epoch || (leftAt !== undefined && i.epoch < leftAt)) return "stale";
  if (!(await deviceKeys(i.inviter, i.device)).includes(i.device) || !(await invitationSignatureHolds(i))) return "bad-signature";
  return null;
}
