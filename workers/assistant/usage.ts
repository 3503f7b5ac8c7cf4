// Per-user daily limits (docs/product/plans-and-limits.md), counted in usage_daily by UTC date (a new date is a new count).
import { TIER_LIMITS, type Tier } from "../../core/constants";
import type { Db } from "../../db";
import { giveBackUsage, giveBackVoiceMessage, takeUsage, takeVoiceMessage, usageOn, voiceMessagesInMonth } from "../../db/queries/usage";

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
  const caps: Partial<Record<Counter, number>> = {};
  for (const c of counters) {
    const limit = limits[c];
    if (limit === null) continue;
    if (limit <= 0) return { ok: false, full: c };
    caps[c] = limit;
  }
  // One upsert: a new day inserts 1; an existing day increments only while under every cap (no race).
  if (await takeUsage(db, userId, utcDate(now), counters, caps)) return { ok: true };
  const current = await readUsage(db, userId, now);
  const full = counters.find((c) => limits[c] !== null && current[c] >= (limits[c] ?? 0)) ?? counters[0];
  return { ok: false, full };
}

/** Gives back one use (a translation the offline assistant could not make is not charged). */
export async function refund(db: Db, userId: string, counter: Counter, now: Date = new Date()): Promise<void> {
  await giveBackUsage(db, userId, utcDate(now), counter);
}

export async function readUsage(db: Db, userId: string, now: Date = new Date()) {
  return usageOn(db, userId, utcDate(now));
}

/** Voice messages are counted per UTC calendar month: the sum of the month's daily rows. */
export async function voiceMessagesThisMonth(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  return voiceMessagesInMonth(db, userId, utcDate(now).slice(0, 7));
}

/** Takes one of the month's voice messages under `limit` in one conditional write; whether it was taken. */
export function takeVoiceMessageOfMonth(db: Db, userId: string, limit: number | null, now: Date = new Date()): Promise<boolean> {
  return takeVoiceMessage(db, userId, utcDate(now), limit);
}

export function giveBackVoiceMessageOfMonth(db: Db, userId: string, now: Date = new Date()): Promise<void> {
  return giveBackVoiceMessage(db, userId, utcDate(now));
}
