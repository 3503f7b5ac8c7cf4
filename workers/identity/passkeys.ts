// Passkeys (WebAuthn, through @simplewebauthn/server): register, list and remove them, and prove one as the
// second factor of a sign-in (docs/decisions/030-passkeys.md). The relying party is the site the request came
// to: its hostname is the RP ID and its origin the only accepted origin.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { fromBase64Url, toBase64Url } from "../../core/ids";
import type { PasskeyView } from "../../core/security";
import type { Db } from "../../db";
import {
  deletePasskey,
  insertPasskey,
  keepWebauthnChallenge,
  listPasskeyRows,
  markPasskeyUsed,
  takeWebauthnChallenge,
} from "../../db/queries/passkeys";
import { DomainError } from "../../core/domain-error";
import { recordSecurityEvent } from "./security-events";
import { utf8 } from "../../core/webcrypto";

const CHALLENGE_MS = 5 * 60 * 1000;

// The library and its ASN.1 and X.509 code (about half a megabyte) load on the first passkey request, not with
// every isolate (docs/decisions/070-light-enough-for-2g.md).
let library: Promise<typeof import("@simplewebauthn/server")> | undefined;
const webauthn = () => (library ??= import("@simplewebauthn/server"));
export const MAX_PASSKEYS = 10;

export const PASSKEY_TEXT = {
  failed: "That passkey could not be verified. Please try again.",
  noChallenge: "Start again: the passkey request has expired",
  tooMany: `You can keep at most ${MAX_PASSKEYS} passkeys`,
  notFound: "No such passkey",
  none: "This account has no passkey",
} as const;

export interface RelyingParty {
  rpID: string;
  origin: string;
}

/** The relying party of a request: the host it reached. */
export function relyingPartyOf(url: string): RelyingParty {
  const u = new URL(url);
  return { rpID: u.hostname, origin: u.origin };
}

async function keepChallenge(db: Db, sessionId: string, purpose: "register" | "authenticate", challenge: string, now: Date) {
  await keepWebauthnChallenge(db, sessionId, purpose, challenge, new Date(now.getTime() + CHALLENGE_MS));
}

/** Takes the session's open challenge for `purpose` (once: it is deleted whatever the answer). */
async function takeChallenge(db: Db, sessionId: string, purpose: "register" | "authenticate", now: Date): Promise<string> {
  const row = await takeWebauthnChallenge(db, sessionId);
  if (!row || row.purpose !== purpose || row.expiresAt < now) throw new DomainError("passkey_expired", PASSKEY_TEXT.noChallenge);
  return row.challenge;
}

export async function passkeysOf(db: Db, userId: string): Promise<PasskeyView[]> {
  return (await listPasskeyRows(db, userId)).map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  return (await listPasskeyRows(db, userId)).length;
}

export async function registrationOptions(
  db: Db,
  rp: RelyingParty,
  user: { id: string; label: string },
  sessionId: string,
  now = new Date(),
) {
  const existing = await listPasskeyRows(db, user.id);
  if (existing.length >= MAX_PASSKEYS) throw new DomainError("passkey_limit", PASSKEY_TEXT.tooMany, { values: { max: MAX_PASSKEYS } });
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: "LinkUp",
    rpID: rp.rpID,
    userName: user.label,
    userID: utf8(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  });
  await keepChallenge(db, sessionId, "register", options.challenge, now);
  return options;
}

export async function registerPasskey(
  db: Db,
  rp: RelyingParty,
  userId: string,
  sessionId: string,
  input: { response: RegistrationResponseJSON; name: string },
  now = new Date(),
): Promise<PasskeyView> {
  const expectedChallenge = await takeChallenge(db, sessionId, "register", now);
  const { verifyRegistrationResponse } = await webauthn();
  const checked = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
  }).catch(() => null);
  if (!checked?.verified) throw new DomainError("passkey_failed", PASSKEY_TEXT.failed);
  const { credential } = checked.registrationInfo;
  await insertPasskey(db, {
    id: credential.id,
    userId,
    publicKey: toBase64Url(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: input.name,
    createdAt: now,
  });
  await recordSecurityEvent(db, userId, "passkey_added", input.name, now);
  return { id: credential.id, name: input.name, createdAt: now.toISOString(), lastUsedAt: null };
}

export async function removePasskey(db: Db, userId: string, id: string): Promise<void> {
  const name = await deletePasskey(db, userId, id);
  if (name === undefined) throw new DomainError("passkey_not_found", PASSKEY_TEXT.notFound);
  await recordSecurityEvent(db, userId, "passkey_removed", name);
}

export async function authenticationOptions(db: Db, rp: RelyingParty, userId: string, sessionId: string, now = new Date()) {
  const rows = await listPasskeyRows(db, userId);
  if (rows.length === 0) throw new DomainError("no_passkey", PASSKEY_TEXT.none);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: rows.map((p) => ({ id: p.id, transports: p.transports })),
    userVerification: "required",
  });
  await keepChallenge(db, sessionId, "authenticate", options.challenge, now);
  return options;
}

/** Proves one of the person's passkeys against the session's open challenge; the counter must move on. */
export async function provePasskey(
  db: Db,
  rp: RelyingParty,
  userId: string,
  sessionId: string,
  response: AuthenticationResponseJSON,
  now = new Date(),
): Promise<void> {
  const expectedChallenge = await takeChallenge(db, sessionId, "authenticate", now);
  const row = (await listPasskeyRows(db, userId)).find((p) => p.id === response.id);
  if (!row) throw new DomainError("passkey_failed", PASSKEY_TEXT.failed);
  const { verifyAuthenticationResponse } = await webauthn();
  const checked = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: { id: row.id, publicKey: fromBase64Url(row.publicKey), counter: row.counter, transports: row.transports },
    requireUserVerification: true,
  }).catch(() => null);
  if (!checked?.verified) {
    await recordSecurityEvent(db, userId, "failed_code", "a passkey", now);
    throw new DomainError("passkey_failed", PASSKEY_TEXT.failed);
  }
  await markPasskeyUsed(db, row.id, checked.authenticationInfo.newCounter, now);
}
