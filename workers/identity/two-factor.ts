// Two-factor authentication with an authenticator app (TOTP, RFC 6238, on WebCrypto: ./totp.ts) and single-use
// backup codes. See docs/decisions/020-two-factor.md for the rules on steps, lock-outs and backup codes.
import type { TwoFactorView } from "../../core/api-types";
import type { Db } from "../../db";
import {
  acceptTwoFactorStep,
  countBackupCodesLeft,
  deleteTwoFactor,
  findTwoFactor,
  replaceBackupCodes,
  resealTwoFactorSecret,
  saveTwoFactorSecret,
  spendBackupCode,
  takeTwoFactorAttempt,
  type TwoFactorRow,
  updateTwoFactor,
} from "../../db/queries/two-factor";
import type { AppEnv } from "../env";
import type { ApiErrorCode } from "../../core/api-errors";
import { DomainError } from "../../core/domain-error";
import { countPasskeys } from "./passkeys";
import { isSealed, openSecret, sealSecret } from "./secret-box";
import { newTotpSecret, totpUri, validateTotp } from "./totp";
import { recordSecurityEvent } from "./security-events";
import { mac, sessionSecretOf } from "../mac";
import { qrSvg as drawQrSvg } from "../services/qr-svg";

export const TWO_FACTOR = {
  digits: 6,
  periodSeconds: 30,
  // One step either side: a phone clock 30 s off still works.
  window: 1,
  backupCodes: 10,
  // Like the phone codes (core/identity.ts VERIFICATION.maxAttempts): five wrong codes, then a pause, which
  // doubles at each further five (15 min, 30 min … 24 h) until a right code: a half-signed-in session lives 30
  // days, so a fixed pause would allow 480 guesses a day; this allows 35 on the first day, then 5 a day
  // (docs/decisions/048-secrets-at-rest-and-the-console.md).
  maxFailures: 5,
  lockMs: 15 * 60 * 1000,
  maxLockMs: 24 * 60 * 60 * 1000,
  maxDoublings: 7,
} as const;

export const TWO_FACTOR_TEXT = {
  invalidCode: "Invalid code. Please try again.",
  locked: "Too many wrong codes. Please try again later.",
  notSetUp: "Two-factor authentication is not set up",
  alreadyOn: "Two-factor authentication is already on",
  notOn: "Two-factor authentication is not on",
} as const;

export type TwoFactorRefusal = {
  ok: false;
  status: 400 | 409 | 429;
  code: ApiErrorCode;
  error: string;
  attemptsLeft?: number;
  retryAfterSeconds?: number;
};

/** The refusal as the API's JSON error (with attemptsLeft or retryAfterSeconds where known). */
export function twoFactorError(r: TwoFactorRefusal): DomainError {
  const extra: Record<string, unknown> = {};
  if (r.attemptsLeft !== undefined) extra.attemptsLeft = r.attemptsLeft;
  if (r.retryAfterSeconds !== undefined) extra.retryAfterSeconds = r.retryAfterSeconds;
  return new DomainError(r.code, r.error, extra);
}

// TOTP on WebCrypto (./totp.ts, in place of the `otpauth` package: docs/decisions/082-a-worker-that-starts-small.md).
const TOTP = { digits: TWO_FACTOR.digits, period: TWO_FACTOR.periodSeconds };

const BACKUP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function newBackupCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = [...bytes].map((b) => BACKUP_ALPHABET[b % BACKUP_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const normalBackup = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

async function hashBackup(env: AppEnv, userId: string, code: string): Promise<string> {
  return mac(env, `backup:${userId}:${normalBackup(code)}`);
}

export async function isTwoFactorOn(db: Db, userId: string): Promise<boolean> {
  return Boolean((await findTwoFactor(db, userId))?.enabledAt);
}

async function setupOf(secret: string, label: string) {
  const otpauthUrl = totpUri(secret, { ...TOTP, issuer: "LinkUp", label });
  const qrSvg = await drawQrSvg(otpauthUrl, 1);
  return { secret, otpauthUrl, qrSvg };
}

/** The row's base32 secret; a row stored plain (from before sealing) is sealed now, once. */
async function secretOf(env: AppEnv, db: Db, row: TwoFactorRow): Promise<string> {
  const key = sessionSecretOf(env);
  const secret = await openSecret(key, row.userId, row.secret);
  if (!isSealed(row.secret)) await resealTwoFactorSecret(db, row.userId, row.secret, await sealSecret(key, row.userId, secret));
  return secret;
}

export async function twoFactorView(env: AppEnv, db: Db, userId: string, label: string): Promise<TwoFactorView> {
  const row = await findTwoFactor(db, userId);
  return {
    enabled: Boolean(row?.enabledAt),
    backupCodesLeft: row?.enabledAt ? await countBackupCodesLeft(db, userId) : 0,
    setup: row && !row.enabledAt ? await setupOf(await secretOf(env, db, row), label) : null,
  };
}

/** Starts (or restarts) enrolment with a fresh secret; on only after `enableTwoFactor` confirms a code. */
export async function startTwoFactor(env: AppEnv, db: Db, userId: string, label: string): Promise<TwoFactorView | TwoFactorRefusal> {
  const row = await findTwoFactor(db, userId);
  if (row?.enabledAt) return { ok: false, status: 409, code: "two_factor_already_on", error: TWO_FACTOR_TEXT.alreadyOn };
  const secret = newTotpSecret(20);
  await saveTwoFactorSecret(db, userId, await sealSecret(sessionSecretOf(env), userId, secret));
  return { enabled: false, backupCodesLeft: 0, setup: await setupOf(secret, label) };
}

/**
 * Checks a code against the person's authenticator (or, once on, an unused backup code, which is then spent).
 * A try is taken in one statement before the code is compared, so parallel requests cannot outrun the count;
 * the fifth wrong code locks the second factor for a while, whatever session asks, longer each time.
 */
async function checkCode(
  env: AppEnv,
  db: Db,
  userId: string,
  code: string,
  now: Date,
): Promise<{ ok: true; usedBackup: boolean } | TwoFactorRefusal> {
  const taken = await takeTwoFactorAttempt(db, userId, now, TWO_FACTOR);
  if (!taken) {
    const row = await findTwoFactor(db, userId);
    if (!row) return { ok: false, status: 400, code: "two_factor_not_set_up", error: TWO_FACTOR_TEXT.notSetUp };
    return {
      ok: false,
      status: 429,
      code: "two_factor_locked",
      error: TWO_FACTOR_TEXT.locked,
      retryAfterSeconds: secondsUntil(row.lockedUntil, now),
    };
  }
  const row = await findTwoFactor(db, userId);
  if (!row) return { ok: false, status: 400, code: "two_factor_not_set_up", error: TWO_FACTOR_TEXT.notSetUp };
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) {
    const secret = await secretOf(env, db, row);
    const delta = await validateTotp(secret, TOTP, typed, now.getTime(), TWO_FACTOR.window);
    const step = Math.floor(now.getTime() / 1000 / TWO_FACTOR.periodSeconds) + (delta ?? 0);
    // Only a newer step passes, in the same statement that records it: a code is good once, even in parallel.
    if (delta !== null && (await acceptTwoFactorStep(db, userId, step))) return { ok: true, usedBackup: false };
  } else if (row.enabledAt && normalBackup(typed).length === 10) {
    if (await spendBackupCode(db, userId, await hashBackup(env, userId, typed), now)) {
      await updateTwoFactor(db, userId, { failedAttempts: 0, lockedUntil: null });
      return { ok: true, usedBackup: true };
    }
  }
  if (taken.lockedUntil && taken.lockedUntil > now) {
    await recordSecurityEvent(db, userId, "code_lockout", undefined, now);
    return {
      ok: false,
      status: 429,
      code: "two_factor_locked",
      error: TWO_FACTOR_TEXT.locked,
      retryAfterSeconds: secondsUntil(taken.lockedUntil, now),
    };
  }
  await recordSecurityEvent(db, userId, "failed_code", undefined, now);
  return {
    ok: false,
    status: 400,
    code: "two_factor_wrong_code",
    error: TWO_FACTOR_TEXT.invalidCode,
    attemptsLeft: TWO_FACTOR.maxFailures - (taken.failures % TWO_FACTOR.maxFailures),
  };
}

function secondsUntil(until: Date | null, now: Date): number {
  return Math.max(1, Math.ceil(((until?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
}

/** Confirms enrolment with a code from the app; answers the 10 backup codes, shown this once. */
export async function enableTwoFactor(env: AppEnv, db: Db, userId: string, code: string, now = new Date()) {
  const row = await findTwoFactor(db, userId);
  if (row?.enabledAt)
    return { ok: false, status: 409, code: "two_factor_already_on", error: TWO_FACTOR_TEXT.alreadyOn } as TwoFactorRefusal;
  const checked = await checkCode(env, db, userId, code, now);
  if (!checked.ok) return checked;
  const codes = Array.from({ length: TWO_FACTOR.backupCodes }, newBackupCode);
  await replaceBackupCodes(db, userId, await Promise.all(codes.map((c) => hashBackup(env, userId, c))));
  await updateTwoFactor(db, userId, { enabledAt: now });
  await recordSecurityEvent(db, userId, "two_factor_on", undefined, now);
  return { ok: true as const, backupCodes: codes };
}

/** Turns two-factor off; it takes a current code (or a backup code), so a borrowed session alone cannot. */
export async function disableTwoFactor(env: AppEnv, db: Db, userId: string, code: string, now = new Date()) {
  if (!(await isTwoFactorOn(db, userId)))
    return { ok: false, status: 409, code: "two_factor_not_on", error: TWO_FACTOR_TEXT.notOn } as TwoFactorRefusal;
  const checked = await checkCode(env, db, userId, code, now);
  if (!checked.ok) return checked;
  await deleteTwoFactor(db, userId);
  await recordSecurityEvent(db, userId, "two_factor_off", undefined, now);
  return { ok: true as const };
}

/**
 * How a sign-in to this account proves its second factor: a code (authenticator app or backup code) when TOTP
 * is on, a passkey when the person has one. Neither: the phone code alone signs in.
 */
export async function secondFactorMethods(db: Db, userId: string): Promise<{ code: boolean; passkey: boolean }> {
  const [code, keys] = await Promise.all([isTwoFactorOn(db, userId), countPasskeys(db, userId)]);
  return { code, passkey: keys > 0 };
}

/** The second step of a sign-in to an account with two-factor on. */
export async function proveSecondFactor(env: AppEnv, db: Db, userId: string, code: string, now = new Date()) {
  if (!(await isTwoFactorOn(db, userId))) return { ok: true as const, usedBackup: false };
  return checkCode(env, db, userId, code, now);
}
