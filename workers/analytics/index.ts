// Analytics from real events (docs/decisions/027-analytics.md): the domain modules record what happened as it
// happens, into daily roll-ups per kind and coarse area; the admin figures are computed only from these and
// the live tables. A failed write never fails the action it counts.
import { and, count, eq, gt, gte, like, lt, sql, sum } from "drizzle-orm";
import { roomKind } from "../../core/room-ids";
import type { Db } from "../../db";
import { analyticsDaily, analyticsHourly, analyticsPersonal, meshConnections, sessions, users } from "../../db/schema";

export type EventKind =
  | "signup"
  | "verification"
  | `message.${"nearby" | "group" | "dm" | "other"}`
  | `sos.${"web" | "ussd" | "whatsapp"}`
  | `ai.${string}`
  | "checkout"
  | "file";

/** The coarse area kept with an event: geohash-3 (about 150 km), never finer. */
export const coarseArea = (geohash: string | null | undefined) => (geohash ? geohash.slice(0, 3) : "");

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const hourOf = (d: Date) => d.toISOString().slice(0, 13);

/** Hours kept in the service-wide hourly roll-up, and days in people's own activity. */
const HOURLY_KEEP_MS = 48 * 3600_000;
const PERSONAL_KEEP_MS = 31 * 86_400_000;

/**
 * Counts `n` events of `kind` in the daily and hourly roll-ups, and, when `userId` is given, in that person's own
 * activity (only the person who did it: the sender, the asker, the uploader).
 */
export async function recordEvent(
  db: Db,
  kind: EventKind,
  opts: { area?: string; n?: number; now?: Date; userId?: string } = {},
): Promise<void> {
  const n = opts.n ?? 1;
  if (n <= 0) return;
  const now = opts.now ?? new Date();
  const area = opts.area ?? "";
  try {
    await db
      .insert(analyticsDaily)
      .values({ day: dayOf(now), kind, area, count: n })
      .onConflictDoUpdate({
        target: [analyticsDaily.day, analyticsDaily.kind, analyticsDaily.area],
        set: { count: sql`${analyticsDaily.count} + ${n}` },
      });
    await db
      .insert(analyticsHourly)
      .values({ hour: hourOf(now), kind, area, count: n })
      .onConflictDoUpdate({
        target: [analyticsHourly.hour, analyticsHourly.kind, analyticsHourly.area],
        set: { count: sql`${analyticsHourly.count} + ${n}` },
      });
  } catch (e) {
    console.error("analytics: record", kind, e);
  }
  if (opts.userId) await recordPersonal(db, opts.userId, kind, n, now);
}

/** Drops hours older than the hourly roll-up keeps and personal activity older than 31 days (run by the cron). */
export async function pruneAnalytics(db: Db, now = new Date()): Promise<void> {
  await db.delete(analyticsHourly).where(lt(analyticsHourly.hour, hourOf(new Date(now.getTime() - HOURLY_KEEP_MS))));
  await db.delete(analyticsPersonal).where(lt(analyticsPersonal.hour, hourOf(new Date(now.getTime() - PERSONAL_KEEP_MS))));
}

/** People's messages just recorded, counted per room kind and (for area rooms) coarse area, and for each sender. */
export async function recordMessageEvents(
  db: Db,
  rows: { roomId: string; type: string; senderId?: string }[],
  now = new Date(),
): Promise<void> {
  const tally = new Map<string, { kind: EventKind; area: string; n: number }>();
  const bySender = new Map<string, { kind: EventKind; senderId: string; n: number }>();
  for (const r of rows) {
    if (r.type !== "text") continue;
    const prefix = roomKind(r.roomId);
    const kind: EventKind = prefix ? `message.${prefix}` : "message.other";
    const area = prefix === "nearby" ? coarseArea(r.roomId.slice("nearby:".length)) : "";
    const key = `${kind}|${area}`;
    const t = tally.get(key) ?? { kind, area, n: 0 };
    t.n++;
    tally.set(key, t);
    if (r.senderId) {
      const sk = `${kind}|${r.senderId}`;
      const p = bySender.get(sk) ?? { kind, senderId: r.senderId, n: 0 };
      p.n++;
      bySender.set(sk, p);
    }
  }
  for (const t of tally.values()) await recordEvent(db, t.kind, { area: t.area, n: t.n, now });
  for (const p of bySender.values()) await recordPersonal(db, p.senderId, p.kind, p.n, now);
}

/** Only the person's own activity (recordEvent and the message batches write the service-wide counts). */
async function recordPersonal(db: Db, userId: string, kind: EventKind, n: number, now: Date): Promise<void> {
  try {
    await db
      .insert(analyticsPersonal)
      .values({ userId, hour: hourOf(now), kind, count: n })
      .onConflictDoUpdate({
        target: [analyticsPersonal.userId, analyticsPersonal.hour, analyticsPersonal.kind],
        set: { count: sql`${analyticsPersonal.count} + ${n}` },
      });
  } catch (e) {
    console.error("analytics: record personal", kind, e);
  }
}

export const RANGES = { "1h": 3600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type Range = keyof typeof RANGES;

/**
 * The window a range covers: 1h and 24h from the start of the UTC hour that holds `now - range` (hourly
 * roll-up), 7d and 30d from the start of the UTC day that holds it (daily roll-up); the answer says from when.
 */
function window(range: Range, now: Date) {
  const start = new Date(now.getTime() - RANGES[range]);
  if (range === "1h" || range === "24h") {
    const from = hourOf(start);
    return { unit: "hour" as const, from, since: new Date(`${from}:00:00Z`) };
  }
  const from = dayOf(start);
  return { unit: "day" as const, from, since: new Date(`${from}T00:00:00Z`) };
}
type Window = ReturnType<typeof window>;

async function sumOf(db: Db, w: Window, kindLike: string): Promise<number> {
  const [row] =
    w.unit === "hour"
      ? await db
          .select({ n: sum(analyticsHourly.count) })
          .from(analyticsHourly)
          .where(and(gte(analyticsHourly.hour, w.from), like(analyticsHourly.kind, kindLike)))
      : await db
          .select({ n: sum(analyticsDaily.count) })
          .from(analyticsDaily)
          .where(and(gte(analyticsDaily.day, w.from), like(analyticsDaily.kind, kindLike)));
  return Number(row?.n ?? 0);
}

async function areasOf(db: Db, w: Window): Promise<number> {
  const [row] =
    w.unit === "hour"
      ? await db
          .select({ n: sql<number>`count(distinct ${analyticsHourly.area})` })
          .from(analyticsHourly)
          .where(and(gte(analyticsHourly.hour, w.from), sql`${analyticsHourly.area} <> ''`))
      : await db
          .select({ n: sql<number>`count(distinct ${analyticsDaily.area})` })
          .from(analyticsDaily)
          .where(and(gte(analyticsDaily.day, w.from), sql`${analyticsDaily.area} <> ''`));
  return Number(row?.n ?? 0);
}

async function byKindOf(db: Db, w: Window): Promise<Record<string, number>> {
  const rows =
    w.unit === "hour"
      ? await db
          .select({ kind: analyticsHourly.kind, n: sum(analyticsHourly.count) })
          .from(analyticsHourly)
          .where(gte(analyticsHourly.hour, w.from))
          .groupBy(analyticsHourly.kind)
      : await db
          .select({ kind: analyticsDaily.kind, n: sum(analyticsDaily.count) })
          .from(analyticsDaily)
          .where(gte(analyticsDaily.day, w.from))
          .groupBy(analyticsDaily.kind);
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
}

/** Messages per hour or per day over the window, for the chart. */
async function messagesOverTime(db: Db, w: Window): Promise<{ at: string; count: number }[]> {
  const rows =
    w.unit === "hour"
      ? await db
          .select({ at: analyticsHourly.hour, n: sum(analyticsHourly.count) })
          .from(analyticsHourly)
          .where(and(gte(analyticsHourly.hour, w.from), like(analyticsHourly.kind, "message.%")))
          .groupBy(analyticsHourly.hour)
          .orderBy(analyticsHourly.hour)
      : await db
          .select({ at: analyticsDaily.day, n: sum(analyticsDaily.count) })
          .from(analyticsDaily)
          .where(and(gte(analyticsDaily.day, w.from), like(analyticsDaily.kind, "message.%")))
          .groupBy(analyticsDaily.day)
          .orderBy(analyticsDaily.day);
  return rows.map((r) => ({ at: r.at, count: Number(r.n) }));
}

/** The spec's analytics metrics, each from events or live tables; what LinkUp cannot measure is null. */
export async function metrics(db: Db, range: Range, now = new Date()) {
  const w = window(range, now);
  const activeSince = new Date(now.getTime() - RANGES[range]);
  const [
    [total],
    [active],
    [conns],
    messageVolume,
    aiInteractions,
    emergencyAlerts,
    signups,
    verifications,
    checkouts,
    coverage,
    byKind,
    series,
  ] = await Promise.all([
    db.select({ n: count() }).from(users),
    db
      .select({ n: sql<number>`count(distinct ${sessions.userId})` })
      .from(sessions)
      .where(gt(sessions.lastUsedAt, activeSince)),
    db.select({ n: count() }).from(meshConnections).where(eq(meshConnections.isActive, true)),
    sumOf(db, w, "message.%"),
    sumOf(db, w, "ai.%"),
    sumOf(db, w, "sos.%"),
    sumOf(db, w, "signup"),
    sumOf(db, w, "verification"),
    sumOf(db, w, "checkout"),
    areasOf(db, w),
    byKindOf(db, w),
    messagesOverTime(db, w),
  ]);
  return {
    scope: "service" as const,
    range,
    since: w.since.toISOString(),
    unit: w.unit,
    totalUsers: total.n,
    activeUsers: Number(active.n),
    meshConnections: conns.n,
    messageVolume,
    aiInteractions,
    emergencyAlerts,
    signups,
    verifications,
    checkouts,
    // A Worker cannot see the radio mesh, so there is no honest network-health figure.
    networkHealth: null,
    /** Areas (about 150 km each) where anything was recorded in the range. */
    coverage,
    byKind,
    messagesOverTime: series,
  };
}

/**
 * One person's own activity over the range, by real hours: messages they sent, their AI commands by kind, their
 * SOS alerts and files. Nothing anyone else did is read.
 */
export async function personalMetrics(db: Db, userId: string, range: Range, now = new Date()) {
  const from = hourOf(new Date(now.getTime() - RANGES[range]));
  const rows = await db
    .select({ kind: analyticsPersonal.kind, n: sum(analyticsPersonal.count) })
    .from(analyticsPersonal)
    .where(and(eq(analyticsPersonal.userId, userId), gte(analyticsPersonal.hour, from)))
    .groupBy(analyticsPersonal.kind);
  const total = (prefix: string) => rows.filter((r) => r.kind.startsWith(prefix)).reduce((n, r) => n + Number(r.n), 0);
  const aiByKind = Object.fromEntries(rows.filter((r) => r.kind.startsWith("ai.")).map((r) => [r.kind.slice(3), Number(r.n)]));
  return {
    scope: "me" as const,
    range,
    since: new Date(`${from}:00:00Z`).toISOString(),
    messagesSent: total("message."),
    aiCommands: total("ai."),
    aiByKind,
    sosSent: total("sos."),
    files: total("file"),
  };
}

/** The spec's AI usage figures; LinkUp has no smart-reply counting or network optimisation, so those are null. */
export async function aiUsage(db: Db, range: Range, now = new Date()) {
  const w = window(range, now);
  const [translations, emergencyDetection, marketAnalysis, questions, weather] = await Promise.all([
    sumOf(db, w, "ai.translate"),
    sumOf(db, w, "ai.emergency"),
    sumOf(db, w, "ai.market"),
    sumOf(db, w, "ai.question"),
    sumOf(db, w, "ai.weather"),
  ]);
  return {
    range,
    since: w.since.toISOString(),
    translations,
    smartReplies: null,
    emergencyDetection,
    marketAnalysis,
    questions,
    weather,
    networkOptimization: null,
  };
}
