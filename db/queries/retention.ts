// How long rows of the tables that grow with use live (docs/decisions/051-retention.md): one rule per table, each
// deleting in bounded chunks so no statement holds D1's single thread for long. The Cron runs them
// (workers/retention.ts). Times are in ms since the epoch, as the timestamp_ms columns store them.
import { type SQL, sql } from "drizzle-orm";
import { PRICE_WINDOW_MS } from "../../core/price-reports";
import { PASS_TTL_MS } from "../../core/session-pass";
import { SECURITY_EVENTS_SHOWN } from "../../core/security";
import type { Db } from "../index";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** How long each table's rows live; the reasons are in docs/decisions/051-retention.md. */
export const RETENTION = {
  /**
   * A room's activity row once its room is gone (a deleted direct chat, an emptied group): a day, so a last batch
   * still on its way finds the row it counts against (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
   */
  goneRoomActivityMs: DAY,
  /** The per-address and per-phone limits look back one hour; a code lives 10 minutes. */
  verificationsMs: DAY,
  /** A pass lives PASS_TTL_MS: a revocation older than that names no pass still believed (decision 079). */
  passRevocationsMs: PASS_TTL_MS,
  /** Past expiry: the admin figures count people whose session was used in the last 30 days. */
  expiredSessionsMs: 30 * DAY,
  /** Stripe retries a webhook for up to 3 days; an event can be resent by hand for 30. */
  stripeEventsMs: 30 * DAY,
  /** Queue messages live at most 14 days, so no retried fan-out batch can come after this. */
  sosDeliveriesMs: 14 * DAY,
  /** A replayed dead letter: long enough for staff to look back at what they replayed (the audit log keeps a year). */
  replayedDeadLettersMs: 30 * DAY,
  /**
   * An open dead letter, after its SOS: a day less than sos_deliveries, whose claims keep a replay from alerting
   * anyone twice; an SOS two weeks old is over, and replaying it then would wake people for nothing.
   */
  openDeadLettersMs: 13 * DAY,
  readNotificationsMs: 30 * DAY,
  notificationsMs: 90 * DAY,
  securityEventsMs: 180 * DAY,
  outboundMs: 7 * DAY,
  auditLogMs: 365 * DAY,
  /** The plan limit counts today's calls; the screen shows today's. */
  apiKeyUsageMs: 7 * DAY,
  /** Reported prices are quoted from the last 14 days only (core/price-reports.ts, docs/decisions/068-…). */
  priceReportsMs: PRICE_WINDOW_MS,
  /** R2 aborts an incomplete multipart upload 7 days after it began, so the row can no longer finish. */
  unfinishedUploadsMs: 7 * DAY,
} as const;

/** Rows one statement deletes at most, and statements one table gets per run. */
export const CHUNK_ROWS = 5000;
export const CHUNKS_PER_RUN = 10;

/** Rows changed by a write, whichever driver ran it (D1: meta.changes; libSQL: rowsAffected). */
function changesOf(result: unknown): number {
  const r = result as { meta?: { changes?: number }; rowsAffected?: number };
  return Number(r.meta?.changes ?? r.rowsAffected ?? 0);
}

/**
 * Deletes the rows of `table` matching `where` (written against the bare table name), CHUNK_ROWS at a time by
 * rowid, until a chunk comes back short or CHUNKS_PER_RUN chunks ran. Answers how many rows went.
 */
async function deleteInChunks(db: Db, table: string, where: SQL, chunkRows = CHUNK_ROWS): Promise<number> {
  const name = sql.raw(`"${table}"`);
  let total = 0;
  for (let i = 0; i < CHUNKS_PER_RUN; i++) {
    const n = changesOf(
      await db.run(sql`DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE ${where} LIMIT ${chunkRows})`),
    );
    total += n;
    if (n < chunkRows) break;
  }
  return total;
}

export interface RetentionOptions {
  now: number;
  /** Smaller chunks, for tests that check the chunking itself. */
  chunkRows?: number;
}

/** The Cron's interval (wrangler.toml), and the slices of older time one run looks through (see below). */
export const CRON_INTERVAL_MS = 15 * 60_000;
export const OLD_SLICES = 96;
export const OLD_SLICE_MS = 7 * DAY;

/**
 * For rules that keep some old rows for good (each room's newest message, a person's newest security events): a
 * plain `time < cutoff` scan would walk every kept row on every run (14 s for a million quiet rooms, decision 051).
 * So each run looks at the day that just left the window (the steady flow: its kept rows are few), and at one
 * 7-day slice of older time, a different one each run of the day (the slice of run OLD_SLICES − 1 is open-ended):
 * rows that stopped being kept (a quiet room spoke again) or predate this rule go within a day of runs.
 */
async function pruneOutsideWindow(
  db: Db,
  o: RetentionOptions,
  table: string,
  time: string,
  cutoff: number,
  removable: SQL,
): Promise<number> {
  const col = sql.raw(time);
  const band = cutoff - DAY;
  const run = Math.floor(o.now / CRON_INTERVAL_MS) % OLD_SLICES;
  const hi = band - run * OLD_SLICE_MS;
  const lo = run === OLD_SLICES - 1 ? Number.MIN_SAFE_INTEGER : hi - OLD_SLICE_MS;
  const recent = await deleteInChunks(db, table, sql`${col} >= ${band} AND ${col} < ${cutoff} AND ${removable}`, o.chunkRows);
  const older = await deleteInChunks(db, table, sql`${col} >= ${lo} AND ${col} < ${hi} AND ${removable}`, o.chunkRows);
  return recent + older;
}

/**
 * Activity rows of rooms that no longer exist. One row per room otherwise (it is the room list's order and the
 * room's count), so the table grows with rooms, not with messages; room_presence holds only who is present now.
 */
export function pruneGoneRoomActivity(db: Db, o: RetentionOptions) {
  return deleteInChunks(
    db,
    "room_activity",
    sql`updated_at < ${o.now - RETENTION.goneRoomActivityMs} AND room_id NOT IN (SELECT id FROM rooms)`,
    o.chunkRows,
  );
}

export function pruneVerifications(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "verifications", sql`created_at < ${o.now - RETENTION.verificationsMs}`, o.chunkRows);
}

export function pruneSessions(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "sessions", sql`expires_at < ${o.now - RETENTION.expiredSessionsMs}`, o.chunkRows);
}

export function prunePassRevocations(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "pass_revocations", sql`at < ${o.now - RETENTION.passRevocationsMs}`, o.chunkRows);
}

/** A WebAuthn challenge is good for five minutes and once: an expired one is never read. */
export function pruneWebauthnChallenges(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "webauthn_challenges", sql`expires_at < ${o.now}`, o.chunkRows);
}

/** Windows that ended (each take already drops them; this catches addresses never seen again). */
export function pruneAddressCounters(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "address_counters", sql`expires_at < ${o.now}`, o.chunkRows);
}

export function pruneStripeEvents(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "stripe_events", sql`received_at < ${o.now - RETENTION.stripeEventsMs}`, o.chunkRows);
}

/** The outcomes of an SOS's fan-out, once the SOS is older than any retry of its batches. */
export function pruneSosDeliveries(db: Db, o: RetentionOptions) {
  return deleteInChunks(
    db,
    "sos_deliveries",
    sql`broadcast_id IN (SELECT id FROM emergency_broadcasts WHERE broadcasted_at < ${o.now - RETENTION.sosDeliveriesMs})`,
    o.chunkRows,
  );
}

/**
 * Fan-out messages the queue gave up on (docs/decisions/054-sos-a-durable-job.md): replayed ones 30 days after the
 * replay; open ones until replayed, or 13 days after their SOS was sent (or, with no SOS id, 13 days after they
 * arrived), before the claims that make a replay harmless are gone. Both through `sos_dead_letters_open_idx`.
 */
export async function pruneSosDeadLetters(db: Db, o: RetentionOptions) {
  const replayed = await deleteInChunks(
    db,
    "sos_dead_letters",
    sql`replayed_at IS NOT NULL AND replayed_at < ${o.now - RETENTION.replayedDeadLettersMs}`,
    o.chunkRows,
  );
  const bound = o.now - RETENTION.openDeadLettersMs;
  const open = await deleteInChunks(
    db,
    "sos_dead_letters",
    // Open letters are few (the index's NULL range); each looks its SOS up by primary key.
    sql`replayed_at IS NULL AND (received_at < ${bound} OR (SELECT b.broadcasted_at FROM emergency_broadcasts b WHERE b.id = sos_dead_letters.broadcast_id) < ${bound})`,
    o.chunkRows,
  );
  return replayed + open;
}

/** Read notifications after 30 days, any after 90. */
export function pruneNotifications(db: Db, o: RetentionOptions) {
  return deleteInChunks(
    db,
    "notifications",
    sql`created_at < ${o.now - RETENTION.readNotificationsMs} AND (is_read = 1 OR created_at < ${o.now - RETENTION.notificationsMs})`,
    o.chunkRows,
  );
}

/**
 * Security events past 180 days, except the newest the person is shown (core/security.ts SECURITY_EVENTS_SHOWN):
 * /advanced-security never goes blank because nothing happened lately.
 */
export function pruneSecurityEvents(db: Db, o: RetentionOptions) {
  return pruneOutsideWindow(
    db,
    o,
    "security_events",
    "created_at",
    o.now - RETENTION.securityEventsMs,
    sql`(SELECT count(*) FROM security_events s WHERE s.user_id = security_events.user_id AND s.created_at > security_events.created_at) >= ${SECURITY_EVENTS_SHOWN}`,
  );
}

export function pruneOutbound(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "outbound_messages", sql`created_at < ${o.now - RETENTION.outboundMs}`, o.chunkRows);
}

export function pruneAuditLog(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "audit_log", sql`created_at < ${o.now - RETENTION.auditLogMs}`, o.chunkRows);
}

/** Per-key daily call counts (`day` is YYYY-MM-DD, UTC). */
export function pruneApiKeyUsage(db: Db, o: RetentionOptions) {
  const day = new Date(o.now - RETENTION.apiKeyUsageMs).toISOString().slice(0, 10);
  return deleteInChunks(db, "api_key_usage", sql`day < ${day}`, o.chunkRows);
}

/** Uploads never finished: their parts, then the row (ready files stay as long as their room has them). */
export async function pruneUnfinishedUploads(db: Db, o: RetentionOptions) {
  const stale = sql`SELECT id FROM files WHERE state = 'uploading' AND created_at < ${o.now - RETENTION.unfinishedUploadsMs}`;
  await deleteInChunks(db, "file_parts", sql`file_id IN (${stale})`, o.chunkRows);
  return deleteInChunks(db, "files", sql`state = 'uploading' AND created_at < ${o.now - RETENTION.unfinishedUploadsMs}`, o.chunkRows);
}

/** Price reports past the window the answers quote from (their points stay in the ledger). */
export function prunePriceReports(db: Db, o: RetentionOptions) {
  return deleteInChunks(db, "price_reports", sql`reported_at < ${o.now - RETENTION.priceReportsMs}`, o.chunkRows);
}

/** Every rule, by table name, in the order the Cron runs them. */
export const RETENTION_RULES = {
  room_activity: pruneGoneRoomActivity,
  verifications: pruneVerifications,
  sessions: pruneSessions,
  pass_revocations: prunePassRevocations,
  webauthn_challenges: pruneWebauthnChallenges,
  address_counters: pruneAddressCounters,
  stripe_events: pruneStripeEvents,
  sos_deliveries: pruneSosDeliveries,
  sos_dead_letters: pruneSosDeadLetters,
  notifications: pruneNotifications,
  security_events: pruneSecurityEvents,
  outbound_messages: pruneOutbound,
  audit_log: pruneAuditLog,
  api_key_usage: pruneApiKeyUsage,
  files: pruneUnfinishedUploads,
  price_reports: prunePriceReports,
} satisfies Record<string, (db: Db, o: RetentionOptions) => Promise<number>>;
