// The rewards ledger (point_events): recording an action once, and the sums the rewards screen shows.
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { pointEvents, users } from "../schema";

type Kind = (typeof pointEvents.$inferInsert)["kind"];

/** Records an action's points; false when this (user, kind, ref) was already recorded. */
export async function recordPoints(
  db: Db,
  row: { userId: string; kind: Kind; ref: string; points: number; day: string },
): Promise<boolean> {
  const inserted = await db
    .insert(pointEvents)
    .values({ id: newId(), ...row })
    .onConflictDoNothing()
    .returning({ id: pointEvents.id });
  return inserted.length > 0;
}

export async function countEventsOn(db: Db, userId: string, kind: Kind, day: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(pointEvents)
    .where(and(eq(pointEvents.userId, userId), eq(pointEvents.kind, kind), eq(pointEvents.day, day)))
    .all();
  return Number(row?.n ?? 0);
}

export async function pointTotals(db: Db, userId: string) {
  return db
    .select({ kind: pointEvents.kind, points: sql<number>`sum(${pointEvents.points})`, count: sql<number>`count(*)` })
    .from(pointEvents)
    .where(eq(pointEvents.userId, userId))
    .groupBy(pointEvents.kind)
    .all();
}

/** The achievements whose reward the ledger records as given (kind 'achievement', ref = achievement id). */
export async function rewardedAchievements(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ ref: pointEvents.ref })
    .from(pointEvents)
    .where(and(eq(pointEvents.userId, userId), eq(pointEvents.kind, "achievement")))
    .all();
  return rows.map((r) => r.ref);
}

/** The days on which the daily bonus was claimed, newest first (enough to measure a 30-day streak). */
export async function bonusDays(db: Db, userId: string, limit = 60): Promise<string[]> {
  const rows = await db
    .select({ day: pointEvents.day })
    .from(pointEvents)
    .where(and(eq(pointEvents.userId, userId), eq(pointEvents.kind, "daily_bonus")))
    .orderBy(desc(pointEvents.day))
    .limit(limit)
    .all();
  return rows.map((r) => r.day);
}

/** The top point earners since `sinceDay` (inclusive, or all time), optionally only those in one area cell. */
function earnerConditions(opts: { sinceDay?: string; geohash?: string }) {
  return [
    opts.sinceDay ? gte(pointEvents.day, opts.sinceDay) : undefined,
    opts.geohash ? sql`substr(${users.geohash}, 1, 5) = ${opts.geohash.slice(0, 5)}` : undefined,
  ].filter((c) => c !== undefined);
}

export async function topEarners(db: Db, opts: { sinceDay?: string; geohash?: string; limit: number }) {
  const points = sql<number>`sum(${pointEvents.points})`;
  const conditions = earnerConditions(opts);
  return db
    .select({ id: users.id, nickname: users.nickname, anonymousMode: users.anonymousMode, points })
    .from(pointEvents)
    .innerJoin(users, eq(users.id, pointEvents.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .groupBy(users.id)
    .orderBy(desc(points))
    .limit(opts.limit)
    .all();
}

/** One person's points in the same board (period and area) and their rank in it: 1 + those with more. */
export async function earnerStanding(db: Db, userId: string, opts: { sinceDay?: string; geohash?: string }) {
  const points = sql<number>`sum(${pointEvents.points})`;
  const conditions = earnerConditions(opts);
  const totals = db
    .select({ id: users.id, points: points.as("points") })
    .from(pointEvents)
    .innerJoin(users, eq(users.id, pointEvents.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .groupBy(users.id)
    .as("totals");
  const mine = await db.select({ points: totals.points }).from(totals).where(eq(totals.id, userId)).get();
  if (!mine) return null;
  const [ahead] = await db.select({ n: sql<number>`count(*)` }).from(totals).where(sql`${totals.points} > ${mine.points}`);
  return { points: Number(mine.points), rank: Number(ahead?.n ?? 0) + 1 };
}
