// The second factor's rows: the authenticator secret with its step and lock-out state, and the backup codes
// (stored as hashes; docs/decisions/020-two-factor.md).
import { and, count, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { backupCodes, twoFactor } from "../schema";

export type TwoFactorRow = typeof twoFactor.$inferSelect;

export function findTwoFactor(db: Db, userId: string): Promise<TwoFactorRow | undefined> {
  return db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).get();
}

/** A fresh secret for enrolment; restarting clears the step and lock-out state. */
export async function saveTwoFactorSecret(db: Db, userId: string, secret: string): Promise<void> {
  await db
    .insert(twoFactor)
    .values({ userId, secret })
    .onConflictDoUpdate({ target: twoFactor.userId, set: { secret, lastStep: null, failedAttempts: 0, lockedUntil: null } });
}

/** Replaces the stored secret only while it still reads `was` (a plain row sealed on read; docs/decisions/048). */
export async function resealTwoFactorSecret(db: Db, userId: string, was: string, sealed: string): Promise<void> {
  await db
    .update(twoFactor)
    .set({ secret: sealed })
    .where(and(eq(twoFactor.userId, userId), eq(twoFactor.secret, was)));
}

export type AttemptRules = { maxFailures: number; lockMs: number; maxLockMs: number; maxDoublings: number };

/**
 * Takes one try at the second factor in one statement, before the code is compared (as phone codes do,
 * verifications.ts `takeAttempt`): none while locked. Failures count up until a success; the try that makes
 * them a multiple of `maxFailures` sets the lock itself, doubling each time up to `maxLockMs`, so parallel
 * requests get at most `maxFailures` checks and a half-signed-in session a few dozen a day
 * (docs/decisions/048-secrets-at-rest-and-the-console.md). Undefined: no try was left (or no row).
 */
export async function takeTwoFactorAttempt(
  db: Db,
  userId: string,
  now: Date,
  rules: AttemptRules,
): Promise<{ failures: number; lockedUntil: Date | null } | undefined> {
  // Whole numbers of ours, written into the statement: a bound JS number may arrive as REAL, and `/` and `<<`
  // need integers.
  const int = (n: number) => sql.raw(String(Math.trunc(n)));
  const next = sql`(${twoFactor.failedAttempts} + 1)`;
  const [taken] = await db
    .update(twoFactor)
    .set({
      failedAttempts: sql`${next}`,
      lockedUntil: sql`CASE WHEN ${next} % ${int(rules.maxFailures)} = 0
        THEN ${int(now.getTime())} + min(${int(rules.lockMs)} << min(${next} / ${int(rules.maxFailures)} - 1, ${int(rules.maxDoublings)}), ${int(rules.maxLockMs)})
        ELSE ${twoFactor.lockedUntil} END`,
    })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lockedUntil), lte(twoFactor.lockedUntil, now))))
    .returning({ failures: twoFactor.failedAttempts, lockedUntil: twoFactor.lockedUntil });
  return taken;
}

/**
 * A right authenticator code: its step becomes the last one used, failures and lock are cleared, in one
 * statement that only a newer step passes, so the same code sent twice in parallel signs in once.
 */
export async function acceptTwoFactorStep(db: Db, userId: string, step: number): Promise<boolean> {
  const done = await db
    .update(twoFactor)
    .set({ lastStep: step, failedAttempts: 0, lockedUntil: null })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastStep), lt(twoFactor.lastStep, step))))
    .returning({ userId: twoFactor.userId });
  return done.length > 0;
}

export async function updateTwoFactor(
  db: Db,
  userId: string,
  patch: Partial<Pick<TwoFactorRow, "lastStep" | "failedAttempts" | "lockedUntil" | "enabledAt">>,
): Promise<void> {
  await db.update(twoFactor).set(patch).where(eq(twoFactor.userId, userId));
}

export async function countBackupCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(backupCodes)
    .where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)))
    .get();
  return row?.n ?? 0;
}

/** Spends an unused backup code by its hash; false when there is none (wrong, or already used). */
export async function spendBackupCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const spent = await db
    .update(backupCodes)
    .set({ usedAt: now })
    .where(and(eq(backupCodes.userId, userId), eq(backupCodes.codeHash, codeHash), isNull(backupCodes.usedAt)))
    .returning({ id: backupCodes.id });
  return spent.length > 0;
}

/** The person's backup codes become exactly these (the old ones, used or not, are gone). */
export async function replaceBackupCodes(db: Db, userId: string, codeHashes: string[]): Promise<void> {
  await db.delete(backupCodes).where(eq(backupCodes.userId, userId));
  if (codeHashes.length > 0) await db.insert(backupCodes).values(codeHashes.map((codeHash) => ({ id: newId(), userId, codeHash })));
}

/** Two-factor off: the secret and every backup code go. */
export async function deleteTwoFactor(db: Db, userId: string): Promise<void> {
  await db.delete(backupCodes).where(eq(backupCodes.userId, userId));
  await db.delete(twoFactor).where(eq(twoFactor.userId, userId));
}
