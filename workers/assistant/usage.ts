// Per-user daily limits of spec part 1 §5, counted in usage_daily by UTC date (a new date is a new count).
import { and, eq, like, sql } from "drizzle-orm";
import { TIER_LIMITS, type Tier } from "../../core/constants";
import type { Db } from "../../db";
import { usageDaily } from "../../db/schema";

export function utcDate(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export type Counter = "aiCommands" | "translations";

/**
 * Counts one use of each counter, atomically, only if every counter is still under its limit.
 * Returns the counter that is full when refused. Unlimited counters (null) are counted but never refuse.
 */
export async function consume(
  db: Db,
  userId: string,
  tier: Tier,
  counters: Counter[],
  now: Date = new Date(),
): Promise<{ ok: true } | { ok: false; full: Counter }> {
  if (counters.length === 0) return { ok: true };
  const limits = TIER_LIMITS[tier];
  const date = utcDate(now);
  const column = { aiCommands: usageDaily.aiCommands, translations: usageDaily.translations } as const;
  for (const c of counters) {
    const limit = limits[c];
    if (limit !== null && limit <= 0) return { ok: false, full: c };
  }
  const set: Partial<Record<Counter, ReturnType<typeof sql>>> = {};
  for (const c of counters) set[c] = sql`${column[c]} + 1`;
  const guards = counters.flatMap((c) => (limits[c] === null ? [] : [sql`${column[c]} < ${limits[c]}`]));
  // One upsert: a new day inserts 1; an existing day increments only while under every limit (no race).
  const rows = await db
    .insert(usageDaily)
    .values({ userId, date, aiCommands: counters.includes("aiCommands") ? 1 : 0, translations: counters.includes("translations") ? 1 : 0 })
    .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.date], set, setWhere: guards.length ? and(...guards) : undefined })
    .returning({ userId: usageDaily.userId });
  if (rows.length > 0) return { ok: true };
  const current = await readUsage(db, userId, now);
  const full = counters.find((c) => limits[c] !== null && current[c] >= (limits[c] ?? 0)) ?? counters[0];
  return { ok: false, full };
}

/** Gives back one use (a translation the offline assistant could not make is not charged). */
export async function refund(db: Db, userId: string, counter: Counter, now: Date = new Date()): Promise<void> {
  const column = counter === "aiCommands" ? usageDaily.aiCommands : usageDaily.translations;
  await db
    .update(usageDaily)
    .set({ [counter]: sql`max(${column} - 1, 0)` })
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, utcDate(now))));
}

export async function readUsage(db: Db, userId: string, now: Date = new Date()) {
  const row = await db
    .select()
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, utcDate(now))))
    .get();
  return { aiCommands: row?.aiCommands ?? 0, translations: row?.translations ?? 0, voiceMessages: row?.voiceMessages ?? 0 };
}

/** Voice messages are counted per UTC calendar month: the sum of the month's daily rows. */
export async function voiceMessagesThisMonth(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  const month = utcDate(now).slice(0, 7);
  const row = await db
    .select({ total: sql<number>`coalesce(sum(${usageDaily.voiceMessages}), 0)` })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), like(usageDaily.date, `${month}-%`)))
    .get();
  return Number(row?.total ?? 0);
}

export async function countVoiceMessage(db: Db, userId: string, now: Date = new Date()): Promise<void> {
  await db
    .insert(usageDaily)
    .values({ userId, date: utcDate(now), voiceMessages: 1 })
    .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.date], set: { voiceMessages: sql`${usageDaily.voiceMessages} + 1` } });
}
