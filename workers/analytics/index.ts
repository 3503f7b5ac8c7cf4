// Analytics from real events (docs/decisions/027-analytics.md): the domain modules record what happened as it
// happens, into daily roll-ups per kind and coarse area; the admin figures are computed only from these and
// the live tables. A failed write never fails the action it counts.
import { and, count, eq, gt, gte, like, sql, sum } from "drizzle-orm";
import { roomKind } from "../../core/room-ids";
import type { Db } from "../../db";
import { analyticsDaily, meshConnections, sessions, users } from "../../db/schema";

export type EventKind =
  | "signup"
  | "verification"
  | `message.${"nearby" | "group" | "dm" | "other"}`
  | `sos.${"web" | "ussd" | "whatsapp"}`
  | `ai.${string}`
  | "checkout";

/** The coarse area kept with an event: geohash-3 (about 150 km), never finer. */
export const coarseArea = (geohash: string | null | undefined) => (geohash ? geohash.slice(0, 3) : "");

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export async function recordEvent(db: Db, kind: EventKind, opts: { area?: string; n?: number; now?: Date } = {}): Promise<void> {
  const n = opts.n ?? 1;
  if (n <= 0) return;
  try {
    await db
      .insert(analyticsDaily)
      .values({ day: dayOf(opts.now ?? new Date()), kind, area: opts.area ?? "", count: n })
      .onConflictDoUpdate({
        target: [analyticsDaily.day, analyticsDaily.kind, analyticsDaily.area],
        set: { count: sql`${analyticsDaily.count} + ${n}` },
      });
  } catch (e) {
    console.error("analytics: record", kind, e);
  }
}

/** People's messages just recorded, counted per room kind and (for area rooms) coarse area. */
export async function recordMessageEvents(db: Db, rows: { roomId: string; type: string }[], now = new Date()): Promise<void> {
  const tally = new Map<string, { kind: EventKind; area: string; n: number }>();
  for (const r of rows) {
    if (r.type !== "text") continue;
    const prefix = roomKind(r.roomId);
    const kind: EventKind = prefix ? `message.${prefix}` : "message.other";
    const area = prefix === "nearby" ? coarseArea(r.roomId.slice("nearby:".length)) : "";
    const key = `${kind}|${area}`;
    const t = tally.get(key) ?? { kind, area, n: 0 };
    t.n++;
    tally.set(key, t);
  }
  for (const t of tally.values()) await recordEvent(db, t.kind, { area: t.area, n: t.n, now });
}

export const RANGES = { "1h": 3600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type Range = keyof typeof RANGES;

/**
 * The window a range covers in daily roll-ups: from the start of the UTC day that holds `now - range`, so a
 * 1h or 24h range counts whole days, and the answer says from when (`since`).
 */
function window(range: Range, now: Date) {
  const since = new Date(`${dayOf(new Date(now.getTime() - RANGES[range]))}T00:00:00Z`);
  return { since, fromDay: dayOf(since) };
}

async function sumOf(db: Db, fromDay: string, kindLike: string): Promise<number> {
  const [row] = await db
    .select({ n: sum(analyticsDaily.count) })
    .from(analyticsDaily)
    .where(and(gte(analyticsDaily.day, fromDay), like(analyticsDaily.kind, kindLike)));
  return Number(row?.n ?? 0);
}

/** The spec's analytics metrics, each from events or live tables; what LinkUp cannot measure is null. */
export async function metrics(db: Db, range: Range, now = new Date()) {
  const { since, fromDay } = window(range, now);
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
    [areas],
    byKind,
    daily,
  ] = await Promise.all([
    db.select({ n: count() }).from(users),
    db
      .select({ n: sql<number>`count(distinct ${sessions.userId})` })
      .from(sessions)
      .where(gt(sessions.lastUsedAt, activeSince)),
    db.select({ n: count() }).from(meshConnections).where(eq(meshConnections.isActive, true)),
    sumOf(db, fromDay, "message.%"),
    sumOf(db, fromDay, "ai.%"),
    sumOf(db, fromDay, "sos.%"),
    sumOf(db, fromDay, "signup"),
    sumOf(db, fromDay, "verification"),
    sumOf(db, fromDay, "checkout"),
    db
      .select({ n: sql<number>`count(distinct ${analyticsDaily.area})` })
      .from(analyticsDaily)
      .where(and(gte(analyticsDaily.day, fromDay), sql`${analyticsDaily.area} <> ''`)),
    db
      .select({ kind: analyticsDaily.kind, n: sum(analyticsDaily.count) })
      .from(analyticsDaily)
      .where(gte(analyticsDaily.day, fromDay))
      .groupBy(analyticsDaily.kind),
    db
      .select({ day: analyticsDaily.day, n: sum(analyticsDaily.count) })
      .from(analyticsDaily)
      .where(and(gte(analyticsDaily.day, fromDay), like(analyticsDaily.kind, "message.%")))
      .groupBy(analyticsDaily.day)
      .orderBy(analyticsDaily.day),
  ]);
  return {
    range,
    since: since.toISOString(),
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
    coverage: Number(areas.n),
    byKind: Object.fromEntries(byKind.map((r) => [r.kind, Number(r.n)])),
    messagesPerDay: daily.map((r) => ({ day: r.day, count: Number(r.n) })),
  };
}

/** The spec's AI usage figures; LinkUp has no smart-reply counting or network optimisation, so those are null. */
export async function aiUsage(db: Db, range: Range, now = new Date()) {
  const { since, fromDay } = window(range, now);
  const [translations, emergencyDetection, marketAnalysis, questions, weather] = await Promise.all([
    sumOf(db, fromDay, "ai.translate"),
    sumOf(db, fromDay, "ai.emergency"),
    sumOf(db, fromDay, "ai.market"),
    sumOf(db, fromDay, "ai.question"),
    sumOf(db, fromDay, "ai.weather"),
  ]);
  return {
    range,
    since: since.toISOString(),
    translations,
    smartReplies: null,
    emergencyDetection,
    marketAnalysis,
    questions,
    weather,
    networkOptimization: null,
  };
}
