// Phone verification (docs/product/identity.md; docs/architecture.md §4): a 6-digit code over WhatsApp (default) or SMS.
// The code is stored only as an HMAC; it lives 10 minutes, is used once and dies after 5 wrong tries. A new
// code may be asked for after 60 s, at most 5 per phone per hour and a bounded number per IP address; those
// limits, and which code is live, are kept per requester, so nobody else can spend or cancel a person's code.
// A code signs in only the web session that asked for it; typed on the phone (WhatsApp, USSD) it links that
// phone channel and nothing else (docs/decisions/011-a-code-proves-the-browser-that-typed-it.md).
// Confirming a phone that already belongs to someone merges the requesting user into that owner.
import type { ApiErrorCode, ErrorValues } from "../../core/api-errors";
import { IDENTITY_TEXT, isSixDigitCode, type PendingVerification, VERIFICATION, type VerificationChannel } from "../../core/identity";
import { newId } from "../../core/ids";
import { normalizePhone, parsePhone } from "../../core/phone";
import type { Db } from "../../db";
import { createUser, findUserById, findUserByPhone, setVerifiedPhone, updateUser } from "../../db/queries/users";
import {
  confirmPhoneChannelRow,
  consumeCode,
  countCodesFromAddress,
  countWrongTry,
  deleteVerification,
  endOpenCodes,
  insertVerification,
  liveCodesForPhone,
  newestLiveCode,
  newestOpenCode,
  recentCodeTimes,
  takeAttempt,
} from "../../db/queries/verifications";
import type { User } from "../../db/schema";
import { userForPhone } from "../channels";
import { type AppEnv, messagingAvailable } from "../env";
import { notify } from "../notifications";
import { awardVerified } from "../rewards";
import { sendMessage } from "../services/messaging";
import { mergeUsers } from "./merge";
import { BANNED_MESSAGE } from "../../core/admin-schemas";
import { isBanned } from "../admin/bans";
import { addressLimit } from "../limits";
import { recordEvent } from "../analytics";
import { recordSecurityEvent } from "./security-events";
import { secondFactorMethods } from "./two-factor";
import { mac } from "../mac";

export type Refusal = {
  ok: false;
  status: 400 | 403 | 429 | 502 | 503;
  reason:
    | "banned"
    | "messaging_unavailable"
    | "invalid_phone"
    | "already_verified"
    | "resend_too_soon"
    | "phone_hourly_limit"
    | "ip_limit"
    | "send_failed"
    | "code_format"
    | "no_code"
    | "expired"
    | "wrong_code"
    | "too_many_attempts";
  /** The API's code (core/api-errors.ts): the reason, or a finer one where one reason has two sentences. */
  code: ApiErrorCode;
  error: string;
  values?: ErrorValues;
  retryAfterSeconds?: number;
  attemptsLeft?: number;
};

const REASON_CODES: Record<Refusal["reason"], ApiErrorCode> = {
  banned: "banned",
  messaging_unavailable: "messaging_unavailable",
  invalid_phone: "invalid_phone",
  already_verified: "already_verified",
  resend_too_soon: "resend_too_soon",
  phone_hourly_limit: "phone_hourly_limit",
  ip_limit: "ip_limit",
  send_failed: "send_failed",
  code_format: "code_format",
  no_code: "wrong_code",
  expired: "code_expired",
  wrong_code: "wrong_code",
  too_many_attempts: "too_many_attempts",
};

export type StartResult = { ok: true; verification: PendingVerification } | Refusal;
export type ConfirmResult =
  | {
      ok: true;
      user: User;
      merged: boolean;
      mergedUserId?: string;
      /**
       * Set when the phone's owner guards the account with a second factor: nothing was merged or changed, and the
       * requester is merged only once the second factor is proven (`finishSecondFactorSignIn`).
       */
      pendingMergeFrom?: string;
    }
  | Refusal;
export type PhoneConfirmResult = { ok: true; user: User } | Refusal;

export interface StartInput {
  phone: string;
  nickname?: string;
  channel: VerificationChannel;
  /** The caller's address; null when unknown (local development has none), then only the phone limits apply. */
  ip: string | null;
  /** The requesting user: the one who becomes verified (or is merged into the phone's owner). */
  userId: string;
  now?: Date;
}

export interface ConfirmInput {
  phone: string;
  code: string;
  /** The session's user: only a code this user asked for counts. */
  userId: string;
  now?: Date;
}

const refuse = (status: Refusal["status"], reason: Refusal["reason"], error: string, extra: Partial<Refusal> = {}): Refusal => ({
  ok: false,
  status,
  reason,
  code: REASON_CODES[reason],
  error,
  ...extra,
});

/** A uniformly random 6-digit code (rejection sampling keeps 000000–999999 equally likely). */
export function generateCode(): string {
  const buf = new Uint32Array(1);
  const limit = 4_294_000_000; // a multiple of 1,000,000 below 2^32
  do crypto.getRandomValues(buf);
  while (buf[0] >= limit);
  return String(buf[0] % 1_000_000).padStart(VERIFICATION.codeLength, "0");
}

/** HMAC of the code keyed by the server secret and bound to the verification row. */
export async function hashCode(env: AppEnv, verificationId: string, code: string): Promise<string> {
  return mac(env, `verification:${verificationId}:${code}`);
}

function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Phones named by ADMIN_PHONES (comma-separated, any written form) become admins once verified. */
export async function isAdminPhone(env: { ADMIN_PHONES?: string }, phone: string): Promise<boolean> {
  for (const p of (env.ADMIN_PHONES ?? "").split(",")) if (p.trim() && (await normalizePhone(p)) === phone) return true;
  return false;
}

/**
 * The code message: what the code is for and where it works, so someone who did not ask knows to ignore it
 * (the product has no wording for it; "Never share this code" is the usual warning, kept).
 */
export function codeMessage(code: string): string {
  return `Your LinkUp verification code is ${code}. It signs in only the browser where you asked for it, on the LinkUp web app, and expires in 10 minutes. Never share this code with anyone. If this was not you, ignore this message.`;
}

const ALREADY_VERIFIED = "You are already verified with another number. Sign out first to verify a different one.";

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Sends a new code to the phone for the requesting user, after every limit has been checked. */
export async function startVerification(env: AppEnv, db: Db, input: StartInput): Promise<StartResult> {
  const now = input.now ?? new Date();
  // Outside development without Twilio no code could reach the phone: say so instead of storing one.
  if (!messagingAvailable(env)) return refuse(503, "messaging_unavailable", IDENTITY_TEXT.messagingUnavailable);
  const parsed = await parsePhone(input.phone);
  if (!parsed.ok)
    return parsed.reason === "empty"
      ? refuse(400, "invalid_phone", IDENTITY_TEXT.phoneRequired, { code: "phone_required" })
      : refuse(400, "invalid_phone", IDENTITY_TEXT.phoneInvalid);
  const phone = parsed.phone;
  // A suspended account gets no code at all (docs/decisions/025-bans.md).
  const owner = await findUserByPhone(db, phone);
  if (owner && isBanned(owner)) return refuse(403, "banned", BANNED_MESSAGE);

  const hourAgo = new Date(now.getTime() - 3600_000);
  if (input.ip) {
    if ((await countCodesFromAddress(db, input.ip, hourAgo)) >= addressLimit(env, "verificationCodes")) {
      return refuse(429, "ip_limit", "Too many verification codes were requested from your network. Please try again later.", {
        retryAfterSeconds: 3600,
      });
    }
  }

  // Per phone and requester: someone else asking for this phone spends none of this person's codes.
  const recent = await recentCodeTimes(db, phone, input.userId, hourAgo);
  const last = recent[0];
  if (last && now.getTime() - last.createdAt.getTime() < VERIFICATION.resendAfterMs) {
    const wait = seconds(last.createdAt.getTime() + VERIFICATION.resendAfterMs - now.getTime());
    return refuse(429, "resend_too_soon", `Please wait ${wait} seconds before requesting a new code.`, {
      retryAfterSeconds: wait,
      values: { seconds: wait },
    });
  }
  if (recent.length >= VERIFICATION.maxCodesPerPhonePerHour) {
    const oldest = recent[recent.length - 1].createdAt.getTime();
    const wait = seconds(oldest + 3600_000 - now.getTime());
    return refuse(
      429,
      "phone_hourly_limit",
      `Too many codes were sent to this number. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      { retryAfterSeconds: wait, values: { minutes: Math.ceil(wait / 60) } },
    );
  }

  const user = await findUserById(db, input.userId);
  if (!user) return refuse(400, "invalid_phone", "Sign in required", { code: "sign_in_required" });
  if (user.authMode === "verified" && user.phone && user.phone !== phone) return refuse(400, "already_verified", ALREADY_VERIFIED);

  const nickname = input.nickname?.trim();
  if (nickname) await updateUser(db, user.id, { nickname: nickname.slice(0, 40) });

  // Only the requester's newest code for a phone is live: their older ones end; other people's stay live.
  await endOpenCodes(db, phone, user.id, now);

  const id = newId();
  const code = generateCode();
  const expiresAt = new Date(now.getTime() + VERIFICATION.ttlMs);
  await insertVerification(db, {
    id,
    phone,
    userId: user.id,
    codeHash: await hashCode(env, id, code),
    channel: input.channel,
    ip: input.ip,
    createdAt: now,
    expiresAt,
  });

  const sent = await sendMessage(env, db, { to: phone, channel: input.channel, body: codeMessage(code) }, { requestedByRecipient: true });
  if (sent.status === "failed") {
    // Nothing reached the phone: the attempt does not count against the caller.
    await deleteVerification(db, id);
    return refuse(502, "send_failed", IDENTITY_TEXT.sendFailed);
  }
  return {
    ok: true,
    verification: {
      phone,
      channel: input.channel,
      expiresAt: expiresAt.toISOString(),
      resendAt: new Date(now.getTime() + VERIFICATION.resendAfterMs).toISOString(),
    },
  };
}

/** The live code of a user (for the code-entry screen's countdown), or null. */
export async function pendingVerification(db: Db, userId: string, now = new Date()): Promise<PendingVerification | null> {
  const row = await newestLiveCode(db, userId, now);
  if (!row || row.attempts >= VERIFICATION.maxAttempts) return null;
  return {
    phone: row.phone,
    channel: row.channel,
    expiresAt: row.expiresAt.toISOString(),
    resendAt: new Date(row.createdAt.getTime() + VERIFICATION.resendAfterMs).toISOString(),
  };
}

/**
 * Checks a code typed into a web session; on success that session's user is verified or merged into the
 * phone's owner. Only a code this same user asked for counts.
 */
export async function confirmVerification(env: AppEnv, db: Db, input: ConfirmInput): Promise<ConfirmResult> {
  const now = input.now ?? new Date();
  const code = input.code.trim();
  if (!isSixDigitCode(code)) return refuse(400, "code_format", IDENTITY_TEXT.codeFormat);
  const phone = await normalizePhone(input.phone);
  if (!phone) return refuse(400, "no_code", IDENTITY_TEXT.invalidCode);

  const row = await newestOpenCode(db, phone, input.userId);
  if (!row) return refuse(400, "no_code", IDENTITY_TEXT.invalidCode);
  // As at /register: a person verified with one number proves no other from the same identity. Without this a code
  // asked for while anonymous, typed after verifying another number, merged that account into the phone's owner
  // (docs/decisions/046-sign-in-is-one-state-machine.md). Checked before a try is spent.
  const asker = await findUserById(db, input.userId);
  if (asker?.authMode === "verified" && asker.phone && asker.phone !== phone) {
    return refuse(400, "already_verified", ALREADY_VERIFIED);
  }
  if (row.expiresAt.getTime() <= now.getTime()) {
    return refuse(400, "expired", `${IDENTITY_TEXT.invalidCode} This code has expired; please ask for a new one.`);
  }

  // Take one try atomically before comparing, so parallel guesses cannot exceed the limit.
  const tries = await takeAttempt(db, row.id, VERIFICATION.maxAttempts);
  if (tries === undefined) {
    return refuse(429, "too_many_attempts", "Too many wrong codes. Please ask for a new verification code.", { attemptsLeft: 0 });
  }
  const attemptsLeft = VERIFICATION.maxAttempts - tries;
  if (!sameString(await hashCode(env, row.id, code), row.codeHash)) {
    return refuse(400, "wrong_code", IDENTITY_TEXT.invalidCode, { attemptsLeft });
  }

  if (!(await consumeCode(db, row.id, now))) return refuse(400, "no_code", IDENTITY_TEXT.invalidCode);

  const admin = await isAdminPhone(env, phone);
  const owner = await findUserByPhone(db, phone);
  const requester = row.userId ? await findUserById(db, row.userId) : undefined;

  if (owner && requester && owner.id !== requester.id) {
    // The phone code proves the phone, not the person: an account with a second factor stays exactly as it is
    // (no merge, no sessions, subscriptions, contacts or keys carried over) until that factor is proven too.
    const factors = await secondFactorMethods(db, owner.id);
    if (factors.code || factors.passkey) return { ok: true, user: owner, merged: false, pendingMergeFrom: requester.id };
    await mergeUsers(db, requester, owner);
    const user = await promote(db, owner.id, phone, admin, now);
    return { ok: true, user, merged: true, mergedUserId: requester.id };
  }
  const target = owner ?? requester;
  if (!target) {
    // The requester was deleted meanwhile: the phone still proves a person, so give it an identity.
    const created = await createUser(db, {
      nickname: `User ${phone.slice(-4)}`,
      phone,
      authMode: "verified",
      role: admin ? "admin" : "user",
    });
    await recordEvent(db, "verification", { now });
    return { ok: true, user: created, merged: false };
  }
  // A phone proven for the first time is a verification; proving one's own phone again is a sign-in.
  if (target.authMode !== "verified") await recordEvent(db, "verification", { now });
  return { ok: true, user: await promote(db, target.id, phone, admin, now), merged: false };
}

/**
 * The second step of a sign-in to an account with a second factor, once that factor is proven: the identity that
 * typed the phone code (an anonymous one; /verify refuses a verified one) is merged into the account now. Runs
 * once per sign-in: the caller claimed the waiting session atomically.
 */
export async function finishSecondFactorSignIn(env: AppEnv, db: Db, userId: string, mergeFrom: string | null, now = new Date()) {
  const owner = await findUserById(db, userId);
  // Without a waiting merge the phone code already did everything (the account signed in to itself).
  if (!owner?.phone || !mergeFrom) return owner;
  const from = mergeFrom !== userId ? await findUserById(db, mergeFrom) : undefined;
  if (from && from.authMode !== "verified") await mergeUsers(db, from, owner);
  return promote(db, owner.id, owner.phone, await isAdminPhone(env, owner.phone), now);
}

async function promote(db: Db, userId: string, phone: string, admin: boolean, now: Date): Promise<User> {
  const user = await setVerifiedPhone(db, userId, phone, admin, now);
  await awardVerified(db, userId, now);
  return user;
}

/** How many of a phone's live codes (one per requester at most) a reply from the phone is compared with. */
const PHONE_SIDE_CANDIDATES = 10;

/** Where a phone proved itself by replying a code: the phone channels, never a browser. */
export type PhoneChannelKind = "whatsapp" | "ussd";

/**
 * A code typed on the phone it was sent to (a WhatsApp reply, the USSD verify menu). The gateway already
 * vouches for the phone, so this only records that the phone's channel is confirmed and tells the phone's
 * user; it verifies no web session and leaves the code live for the browser that asked for it. Wrong tries
 * count against the phone's live codes like web tries do.
 */
export async function confirmPhoneChannel(
  env: AppEnv,
  db: Db,
  input: { phone: string; code: string; channel: PhoneChannelKind; waitUntil: (p: Promise<unknown>) => void; now?: Date },
): Promise<PhoneConfirmResult> {
  const now = input.now ?? new Date();
  const code = input.code.trim();
  if (!isSixDigitCode(code)) return refuse(400, "code_format", IDENTITY_TEXT.codeFormat);
  const live = await liveCodesForPhone(db, input.phone, now, VERIFICATION.maxAttempts, PHONE_SIDE_CANDIDATES);
  if (live.length === 0) return refuse(400, "no_code", IDENTITY_TEXT.invalidCode);
  let match = false;
  for (const row of live) if (sameString(await hashCode(env, row.id, code), row.codeHash)) match = true;
  if (!match) {
    await countWrongTry(
      db,
      live.map((r) => r.id),
    );
    return refuse(400, "wrong_code", IDENTITY_TEXT.invalidCode);
  }
  const user = await userForPhone(db, input.phone);
  await confirmPhoneChannelRow(db, input.phone, now);
  await notifyNewSignIn(env, db, user.id, { via: input.channel, phone: input.phone }, input.waitUntil);
  return { ok: true, user };
}

const SIGN_IN_VIA = { web: "A browser on the LinkUp web app", whatsapp: "WhatsApp", ussd: "A USSD session" } as const;

/** The security notice (and event) every sign-in path sends to the account it signed into (push where subscribed). */
export async function notifyNewSignIn(
  env: AppEnv,
  db: Db,
  userId: string,
  signIn: { via: keyof typeof SIGN_IN_VIA; phone: string },
  waitUntil: (p: Promise<unknown>) => void,
) {
  await recordSecurityEvent(db, userId, "sign_in", SIGN_IN_VIA[signIn.via]);
  return notify(
    env,
    db,
    userId,
    {
      type: "security",
      title: "New sign-in to your account",
      content: `${SIGN_IN_VIA[signIn.via]} signed in with ${signIn.phone}. If this was not you, call support.`,
      priority: "high",
      url: "/settings",
      source: "identity",
    },
    waitUntil,
  );
}
