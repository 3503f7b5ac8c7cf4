// The analytics roll-ups (docs/decisions/027-analytics.md, 037): daily and hourly counts per kind and coarse
// area, each person's own hourly activity, and the live counts the admin figures read beside them.
import { and, count, eq, gt, gte, like, lt, sql, sum } from "drizzle-orm";
import type { Db } from "../index";
import { analyticsDaily, analyticsHourly, analyticsPersonal, roomPresence, sessions, users } from "../schema";

/** Which roll-up a window reads: `from` is an hour (`YYYY-MM-DDTHH`) or a day (`YYYY-MM-DD`). */
export type RollupUnit = "hour" | "day";

/** Adds `n` to the daily count of a kind in an area. */
export async function addDailyCount(db: Db, row: { day: string; kind: string; area: string; n: number }): Promise<void> {
  await db
    .insert(analyticsDaily)
    .values({ day: row.day, kind: row.kind, area: row.area, count: row.n })
    .onConflictDoUpdate({
      target: [analyticsDaily.day, analyticsDaily.kind, analyticsDaily.area],
      set: { count: sql`${analyticsDaily.count} + ${row.n}` },
    });
}

/** Adds `n` to the hourly count of a kind in an area. */
export async function addHourlyCount(db: Db, row: { hour: string; kind: string; area: string; n: number }): Promise<void> {
  await db
    .insert(analyticsHourly)
    .values({ hour: row.hour, kind: row.kind, area: row.area, count: row.n })
    .onConflictDoUpdate({
      target: [analyticsHourly.hour, analyticsHourly.kind, analyticsHourly.area],
      set: { count: sql`${analyticsHourly.count} + ${row.n}` },
    });
}

/** Adds `n` to one person's own count of a kind in an hour. */
export async function addPersonalCount(db: Db, row: { userId: string; hour: string; kind: string; n: number }): Promise<void> {
  await db
    .insert(analyticsPersonal)
    .values({ userId: row.userId, hour: row.hour, kind: row.kind, count: row.n })
    .onConflictDoUpdate({
      target: [analyticsPersonal.userId, analyticsPersonal.hour, analyticsPersonal.kind],
      set: { count: sql`${analyticsPersonal.count} + ${row.n}` },
    });
}

/** Drops the service-wide hours before `hour`. */
export async function deleteHourlyBefore(db: Db, hour: string): Promise<void> {
  await db.delete(analyticsHourly).where(lt(analyticsHourly.hour, hour));
}

/** Drops everyone's own activity before `hour`. */
export async function deletePersonalBefore(db: Db, hour: string): Promise<void> {
  await db.delete(analyticsPersonal).where(lt(analyticsPersonal.hour, hour));
}

/** The sum of the kinds matching a LIKE pattern since `from`. */
export async function sumEventsSince(db: Db, unit: RollupUnit, from: string, kindLike: string): Promise<number> {
  const [row] =
    unit === "hour"
      ? await db
          .select({ n: sum(analyticsHourly.count) })
          .from(analyticsHourly)
          .where(and(gte(analyticsHourly.hour, from), like(analyticsHourly.kind, kindLike)))
      : await db
          .select({ n: sum(analyticsDaily.count) })
          .from(analyticsDaily)
          .where(and(gte(analyticsDaily.day, from), like(analyticsDaily.kind, kindLike)));
  return Number(row?.n ?? 0);
}

/** How many distinct coarse areas recorded anything since `from`. */
export async function countAreasSince(db: Db, unit: RollupUnit, from: string): Promise<number> {
  const [row] =
    unit === "hour"
      ? await db
          .select({ n: sql<number>`count(distinct ${analyticsHourly.area})` })
          .from(analyticsHourly)
          .where(and(gte(analyticsHourly.hour, from), sql`${analyticsHourly.area} <> ''`))
      : await db
          .select({ n: sql<number>`count(distinct ${analyticsDaily.area})` })
          .from(analyticsDaily)
          .where(and(gte(analyticsDaily.day, from), sql`${analyticsDaily.area} <> ''`));
  return Number(row?.n ?? 0);
}

/** Each kind's sum since `from`. */
export async function sumByKindSince(db: Db, unit: RollupUnit, from: string): Promise<Record<string, number>> {
  const rows =
    unit === "hour"
      ? await db
          .select({ kind: analyticsHourly.kind, n: sum(analyticsHourly.count) })
          .from(analyticsHourly)
          .where(gte(analyticsHourly.hour, from))
          .groupBy(analyticsHourly.kind)
      : await db
          .select({ kind: analyticsDaily.kind, n: sum(analyticsDaily.count) })
          .from(analyticsDaily)
          .where(gte(analyticsDaily.day, from))
          .groupBy(analyticsDaily.kind);
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
}

/** Messages per hour or per day since `from`, oldest first. */
export async function messagesPerPeriodSince(db: Db, unit: RollupUnit, from: string): Promise<{ at: string; count: number }[]> {
  const rows =
    unit === "hour"
      ? await db
          .select({ at: analyticsHourly.hour, n: sum(analyticsHourly.count) })
          .from(analyticsHourly)
          .where(and(gte(analyticsHourly.hour, from), like(analyticsHourly.kind, "message.%")))
          .groupBy(analyticsHourly.hour)
          .orderBy(analyticsHourly.hour)
      : await db
          .select({ at: analyticsDaily.day, n: sum(analyticsDaily.count) })
          .from(analyticsDaily)
          .where(and(gte(analyticsDaily.day, from), like(analyticsDaily.kind, "message.%")))
          .groupBy(analyticsDaily.day)
          .orderBy(analyticsDaily.day);
  return rows.map((r) => ({ at: r.at, count: Number(r.n) }));
}

/** One person's own counts per kind since `fromHour`. */
export async function personalCountsSince(db: Db, userId: string, fromHour: string): Promise<{ kind: string; n: number }[]> {
  const rows = await db
    .select({ kind: analyticsPersonal.kind, n: sum(analyticsPersonal.count) })
    .from(analyticsPersonal)
    .where(and(eq(analyticsPersonal.userId, userId), gte(analyticsPersonal.hour, fromHour)))
    .groupBy(analyticsPersonal.kind);
  return rows.map((r) => ({ kind: r.kind, n: Number(r.n) }));
}

/** Every account. */
export async function countAllUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/** Distinct people whose session was used after `since`. */
export async function countActiveUsersSince(db: Db, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${sessions.userId})` })
    .from(sessions)
    .where(gt(sessions.lastUsedAt, since));
  return Number(row?.n ?? 0);
}

/** Room sockets open now, as of each room's last batch (docs/decisions/056-the-room-is-the-record-of-its-messages.md). */
export async function countOpenConnections(db: Db): Promise<number> {
  const [row] = await db.select({ n: sum(roomPresence.sockets) }).from(roomPresence);
  return Number(row?.n ?? 0);
}
