// Analytics from real events (docs/decisions/027-analytics.md): the domain modules record what happened as it
// happens, into daily roll-ups per kind and coarse area; the admin figures are computed only from these and
// the live tables. A failed write never fails the action it counts.
import type { Db } from "../../db";
import {
  addDailyCount,
  addHourlyCount,
  addPersonalCount,
  countActiveUsersSince,
  countAllUsers,
  countAreasSince,
  countOpenConnections,
  deleteHourlyBefore,
  deletePersonalBefore,
  messagesPerPeriodSince,
  personalCountsSince,
  sumByKindSince,
  sumEventsSince,
} from "../../db/queries/analytics";

export type EventKind =
  | "signup"
  | "verification"
  | `message.${"nearby" | "group" | "dm" | "other"}`
  | `sos.${"web" | "ussd" | "whatsapp"}`
  | `ai.${string}`
  | "checkout"
  | "file"
  | `ops.${OpsCounter}`;

/**
 * Trouble an operator must see (docs/decisions/053-nothing-lost.md), counted like any event and shown to admins on
 * /analytics-dashboard: queue messages retried and dead-lettered, D1 writes that failed, SOS jobs found
 * unfinished by the sweep, webhooks that failed to apply.
 */
export const OPS_COUNTERS = ["queue_retried", "dead_lettered", "d1_write_failed", "sos_unfinished", "webhook_failed"] as const;
export type OpsCounter = (typeof OPS_COUNTERS)[number];

/** The trouble counters of a range, every one named (zero when nothing happened), from the by-kind sums. */
function troubleOf(byKind: Record<string, number>): Record<OpsCounter, number> {
  return Object.fromEntries(OPS_COUNTERS.map((what) => [what, byKind[`ops.${what}`] ?? 0])) as Record<OpsCounter, number>;
}

/** Counts one occurrence (or `n`) of trouble; like every event, a failed write never fails the caller. */
export const countTrouble = (db: Db, what: OpsCounter, n = 1) => recordEvent(db, `ops.${what}`, { n });

export { coarseArea } from "../../core/geohash";

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
    await addDailyCount(db, { day: dayOf(now), kind, area, n });
    await addHourlyCount(db, { hour: hourOf(now), kind, area, n });
  } catch (e) {
    console.error("analytics: record", kind, e);
  }
  if (opts.userId) await recordPersonal(db, opts.userId, kind, n, now);
}

/** Drops hours older than the hourly roll-up keeps and personal activity older than 31 days (run by the cron). */
export async function pruneAnalytics(db: Db, now = new Date()): Promise<void> {
  await deleteHourlyBefore(db, hourOf(new Date(now.getTime() - HOURLY_KEEP_MS)));
  await deletePersonalBefore(db, hourOf(new Date(now.getTime() - PERSONAL_KEEP_MS)));
}

/** Only the person's own activity (recordEvent writes the service-wide counts; rooms count messages in their batch). */
async function recordPersonal(db: Db, userId: string, kind: EventKind, n: number, now: Date): Promise<void> {
  try {
    await addPersonalCount(db, { userId, hour: hourOf(now), kind, n });
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

const sumOf = (db: Db, w: Window, kindLike: string) => sumEventsSince(db, w.unit, w.from, kindLike);

/** The analytics metrics (docs/product/admin-and-analytics.md), each from events or live tables; what LinkUp cannot measure is null. */
export async function metrics(db: Db, range: Range, now = new Date()) {
  const w = window(range, now);
  const activeSince = new Date(now.getTime() - RANGES[range]);
  const [
    total,
    active,
    conns,
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
    countAllUsers(db),
    countActiveUsersSince(db, activeSince),
    countOpenConnections(db),
    sumOf(db, w, "message.%"),
    sumOf(db, w, "ai.%"),
    sumOf(db, w, "sos.%"),
    sumOf(db, w, "signup"),
    sumOf(db, w, "verification"),
    sumOf(db, w, "checkout"),
    countAreasSince(db, w.unit, w.from),
    sumByKindSince(db, w.unit, w.from),
    messagesPerPeriodSince(db, w.unit, w.from),
  ]);
  return {
    scope: "service" as const,
    range,
    since: w.since.toISOString(),
    unit: w.unit,
    totalUsers: total,
    activeUsers: active,
    meshConnections: conns,
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
    // People's events; the ops.* counters are the operator's, apart (read from the same sums: no extra query).
    byKind: Object.fromEntries(Object.entries(byKind).filter(([kind]) => !kind.startsWith("ops."))),
    trouble: troubleOf(byKind),
    messagesOverTime: series,
  };
}

/**
 * One person's own activity over the range, by real hours: messages they sent, their AI commands by kind, their
 * SOS alerts and files. Nothing anyone else did is read.
 */
export async function personalMetrics(db: Db, userId: string, range: Range, now = new Date()) {
  const from = hourOf(new Date(now.getTime() - RANGES[range]));
  const rows = await personalCountsSince(db, userId, from);
  const total = (prefix: string) => rows.filter((r) => r.kind.startsWith(prefix)).reduce((n, r) => n + r.n, 0);
  const aiByKind = Object.fromEntries(rows.filter((r) => r.kind.startsWith("ai.")).map((r) => [r.kind.slice(3), r.n]));
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

/**
 * The assistant usage figures (docs/product/admin-and-analytics.md); LinkUp has no smart-reply counting or network
 * optimisation, so those are null.
 */
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
