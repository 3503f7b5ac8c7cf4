// The second factor's rows: the authenticator secret with its step and lock-out state, and the backup codes
// (stored as hashes; docs/decisions/020-two-factor.md).
import { and, count, eq, isNull } from "drizzle-orm";
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
