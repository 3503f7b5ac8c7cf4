// Phone verification codes (stored as HMACs; docs/architecture.md §4) and the phones that proved themselves on
// a phone channel. The rules (limits, which code is live, merges) live in workers/identity/verification.ts.
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../index";
import { phoneChannels, verifications } from "../schema";

export type VerificationRow = typeof verifications.$inferSelect;

export async function countCodesFromAddress(db: Db, ip: string, since: Date): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(verifications)
    .where(and(eq(verifications.ip, ip), gte(verifications.createdAt, since)))
    .get();
  return row?.n ?? 0;
}

/** When each code a requester asked for this phone since `since` was made, newest first. */
export function recentCodeTimes(db: Db, phone: string, userId: string, since: Date) {
  return db
    .select({ createdAt: verifications.createdAt })
    .from(verifications)
    .where(and(eq(verifications.phone, phone), eq(verifications.userId, userId), gte(verifications.createdAt, since)))
    .orderBy(desc(verifications.createdAt))
    .all();
}

/** Ends the requester's open codes for a phone (other people's stay live). */
export async function endOpenCodes(db: Db, phone: string, userId: string, now: Date): Promise<void> {
  await db
    .update(verifications)
    .set({ consumedAt: now })
    .where(and(eq(verifications.phone, phone), eq(verifications.userId, userId), isNull(verifications.consumedAt)));
}

export async function insertVerification(db: Db, row: typeof verifications.$inferInsert): Promise<void> {
  await db.insert(verifications).values(row);
}

export async function deleteVerification(db: Db, id: string): Promise<void> {
  await db.delete(verifications).where(eq(verifications.id, id));
}

/** The user's newest unexpired, unused code, whatever the phone. */
export function newestLiveCode(db: Db, userId: string, now: Date): Promise<VerificationRow | undefined> {
  return db
    .select()
    .from(verifications)
    .where(and(eq(verifications.userId, userId), isNull(verifications.consumedAt), gte(verifications.expiresAt, now)))
    .orderBy(desc(verifications.createdAt))
    .get();
}

/** The requester's newest unused code for a phone, expired or not. */
export function newestOpenCode(db: Db, phone: string, userId: string): Promise<VerificationRow | undefined> {
  return db
    .select()
    .from(verifications)
    .where(and(eq(verifications.phone, phone), eq(verifications.userId, userId), isNull(verifications.consumedAt)))
    .orderBy(desc(verifications.createdAt))
    .get();
}

/** Takes one try of an open code in one statement; the tries made so far, or undefined when none is left. */
export async function takeAttempt(db: Db, id: string, maxAttempts: number): Promise<number | undefined> {
  const taken = await db
    .update(verifications)
    .set({ attempts: sql`${verifications.attempts} + 1` })
    .where(and(eq(verifications.id, id), isNull(verifications.consumedAt), lt(verifications.attempts, maxAttempts)))
    .returning({ attempts: verifications.attempts });
  return taken[0]?.attempts;
}

/** Uses a code up; false when something else used it first. */
export async function consumeCode(db: Db, id: string, now: Date): Promise<boolean> {
  const consumed = await db
    .update(verifications)
    .set({ consumedAt: now })
    .where(and(eq(verifications.id, id), isNull(verifications.consumedAt)))
    .returning({ id: verifications.id });
  return consumed.length > 0;
}

/** A phone's live codes (any requester) with tries left, newest first. */
export function liveCodesForPhone(db: Db, phone: string, now: Date, maxAttempts: number, limit: number) {
  return db
    .select()
    .from(verifications)
    .where(
      and(
        eq(verifications.phone, phone),
        isNull(verifications.consumedAt),
        gt(verifications.expiresAt, now),
        lt(verifications.attempts, maxAttempts),
      ),
    )
    .orderBy(desc(verifications.createdAt))
    .limit(limit)
    .all();
}

/** One wrong try against each of these codes. */
export async function countWrongTry(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(verifications)
    .set({ attempts: sql`${verifications.attempts} + 1` })
    .where(inArray(verifications.id, ids));
}

/** The phone replied a code on its own channel (WhatsApp, USSD). */
export async function confirmPhoneChannelRow(db: Db, phone: string, now: Date): Promise<void> {
  await db
    .insert(phoneChannels)
    .values({ phone, confirmedAt: now })
    .onConflictDoUpdate({ target: phoneChannels.phone, set: { confirmedAt: now, updatedAt: now } });
}
