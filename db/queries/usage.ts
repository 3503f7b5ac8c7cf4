// Per-person daily usage counts (usage_daily, one row per person and UTC date): the assistant's limits
// (docs/product/plans-and-limits.md) read and write them here; the limits themselves are the assistant's (workers/assistant/usage.ts).
import { and, eq, like, sql } from "drizzle-orm";
import type { Db } from "../index";
import { usageDaily } from "../schema";

export type UsageCounter = "aiCommands" | "translations";

const column = { aiCommands: usageDaily.aiCommands, translations: usageDaily.translations } as const;

/**
 * Counts one use of each counter on `date` in one upsert, only while every capped counter is under its cap (a
 * new day inserts 1; no race between two requests). Whether it was counted.
 */
export async function takeUsage(
  db: Db,
  userId: string,
  date: string,
  counters: UsageCounter[],
  caps: Partial<Record<UsageCounter, number>>,
): Promise<boolean> {
  const set: Partial<Record<UsageCounter, ReturnType<typeof sql>>> = {};
  for (const c of counters) set[c] = sql`${column[c]} + 1`;
  const guards = counters.flatMap((c) => (caps[c] === undefined ? [] : [sql`${column[c]} < ${caps[c]}`]));
  const rows = await db
    .insert(usageDaily)
    .values({ userId, date, aiCommands: counters.includes("aiCommands") ? 1 : 0, translations: counters.includes("translations") ? 1 : 0 })
    .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.date], set, setWhere: guards.length ? and(...guards) : undefined })
    .returning({ userId: usageDaily.userId });
  return rows.length > 0;
}

/** Gives back one use of a counter on `date`, never below zero. */
export async function giveBackUsage(db: Db, userId: string, date: string, counter: UsageCounter): Promise<void> {
  await db
    .update(usageDaily)
    .set({ [counter]: sql`max(${column[counter]} - 1, 0)` })
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, date)));
}

/** The person's counts on `date` (zeros when nothing was counted). */
export async function usageOn(db: Db, userId: string, date: string) {
  const row = await db
    .select()
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, date)))
    .get();
  return { aiCommands: row?.aiCommands ?? 0, translations: row?.translations ?? 0, voiceMessages: row?.voiceMessages ?? 0 };
}

/** Voice messages in a UTC month (`YYYY-MM`): the sum of the month's daily rows. */
export async function voiceMessagesInMonth(db: Db, userId: string, month: string): Promise<number> {
  const row = await db
    .select({ total: sql<number>`coalesce(sum(${usageDaily.voiceMessages}), 0)` })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), like(usageDaily.date, `${month}-%`)))
    .get();
  return Number(row?.total ?? 0);
}

/**
 * Counts one voice message on `date` if the month's are still under `limit` (null: no limit): the day's row exists
 * first, then one conditional update over the month's rows (docs/decisions/047-limits-taken-atomically.md).
 */
export async function takeVoiceMessage(db: Db, userId: string, date: string, limit: number | null): Promise<boolean> {
  await db.insert(usageDaily).values({ userId, date }).onConflictDoNothing();
  const monthUsed = sql`(select coalesce(sum(m.voice_messages), 0) from usage_daily m
    where m.user_id = ${userId} and m.date like ${`${date.slice(0, 7)}-%`})`;
  const rows = await db
    .update(usageDaily)
    .set({ voiceMessages: sql`${usageDaily.voiceMessages} + 1` })
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, date), limit === null ? undefined : sql`${monthUsed} < ${limit}`))
    .returning({ userId: usageDaily.userId });
  return rows.length > 0;
}

/** Gives back a voice message counted on `date` (its upload failed), never below zero. */
export async function giveBackVoiceMessage(db: Db, userId: string, date: string): Promise<void> {
  await db
    .update(usageDaily)
    .set({ voiceMessages: sql`max(${usageDaily.voiceMessages} - 1, 0)` })
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, date)));
}

export async function addVoiceMessage(db: Db, userId: string, date: string): Promise<void> {
  await db
    .insert(usageDaily)
    .values({ userId, date, voiceMessages: 1 })
    .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.date], set: { voiceMessages: sql`${usageDaily.voiceMessages} + 1` } });
}
