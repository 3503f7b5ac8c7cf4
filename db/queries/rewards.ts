// The rewards ledger (point_events): recording an action once, and the sums the rewards screen shows.
import { and, desc, eq, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { pointEvents } from "../schema";

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
