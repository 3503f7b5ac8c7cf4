// An SOS as a durable job (docs/decisions/054-sos-a-durable-job.md): its steps, the claim on each recipient
// taken before the push, the area paged by presence, the unfinished jobs for the Cron and the dead letters.
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { emergencyBroadcasts, sosDeadLetters, sosSteps, users } from "../schema";

export type SosStepRow = typeof sosSteps.$inferSelect;

export async function stepsOf(db: Db, broadcastId: string): Promise<Map<string, SosStepRow>> {
  const rows = await db.select().from(sosSteps).where(eq(sosSteps.broadcastId, broadcastId));
  return new Map(rows.map((r) => [r.step, r]));
}

export async function markStepDone(db: Db, broadcastId: string, step: string, result: Record<string, unknown>, at = new Date()) {
  await db
    .insert(sosSteps)
    .values({ broadcastId, step, state: "done", result, at })
    // The first attempt to finish a step keeps its result (a concurrent retry finding it done reached nobody new).
    .onConflictDoUpdate({
      target: [sosSteps.broadcastId, sosSteps.step],
      set: { state: "done", result, at },
      setWhere: eq(sosSteps.state, "started"),
    });
}

/**
 * Claims a step (one contact's message) before doing it: true when this caller may do it now. A claim left
 * "started" longer than `leaseMs` (its Worker died) is taken over, so the contact may hear twice only when the
 * Worker died between the provider taking the message and "done" being written.
 */
export async function claimStep(db: Db, broadcastId: string, step: string, leaseMs: number, now = new Date()): Promise<boolean> {
  const rows = await db
    .insert(sosSteps)
    .values({ broadcastId, step, state: "started", at: now })
    .onConflictDoUpdate({
      target: [sosSteps.broadcastId, sosSteps.step],
      set: { at: now },
      setWhere: and(eq(sosSteps.state, "started"), lt(sosSteps.at, new Date(now.getTime() - leaseMs))),
    })
    .returning({ step: sosSteps.step });
  return rows.length > 0;
}

export async function finishJob(db: Db, id: string, reached: Record<string, unknown>, at = new Date()) {
  await db.update(emergencyBroadcasts).set({ reached, jobDoneAt: at }).where(eq(emergencyBroadcasts.id, id));
}

/** SOS of the last day whose job has not finished `olderThanMs` after it was sent (the Cron resumes them). */
export function unfinishedJobs(db: Db, now: Date, olderThanMs: number, limit: number) {
  return db
    .select()
    .from(emergencyBroadcasts)
    .where(
      and(
        isNull(emergencyBroadcasts.jobDoneAt),
        lt(emergencyBroadcasts.broadcastedAt, new Date(now.getTime() - olderThanMs)),
        gt(emergencyBroadcasts.broadcastedAt, new Date(now.getTime() - 24 * 3600_000)),
      ),
    )
    .orderBy(asc(emergencyBroadcasts.broadcastedAt))
    .limit(limit);
}

export interface ClaimedRecipient {
  userId: string;
  notificationId: string | null;
}

/**
 * Claims these people for an SOS before anyone is pushed, in one statement: a person nobody claimed yet, whose
 * push failed, or whose claim is older than `leaseMs` (the Worker that took it died) is claimed now; everyone
 * else (reached, or being reached by a live attempt) is left alone. Answers the people claimed.
 */
export async function claimRecipients(
  db: Db,
  broadcastId: string,
  userIds: string[],
  leaseMs: number,
  now = new Date(),
): Promise<ClaimedRecipient[]> {
  if (userIds.length === 0) return [];
  const t = now.getTime();
  // json_each keeps it one statement with three bound values for any batch (D1's 100 bound values a statement).
  const rows = await db.all<{ user_id: string; notification_id: string | null }>(sql`
    insert into sos_deliveries (broadcast_id, user_id, status, attempts, updated_at)
    select ${broadcastId}, value, 'sending', 1, ${t} from json_each(${JSON.stringify(userIds)}) where true
    on conflict (broadcast_id, user_id) do update set status = 'sending', attempts = sos_deliveries.attempts + 1,
      updated_at = excluded.updated_at
    where sos_deliveries.status = 'failed' or (sos_deliveries.status = 'sending' and sos_deliveries.updated_at < ${t - leaseMs})
    returning user_id, notification_id`);
  return rows.map((r) => ({ userId: r.user_id, notificationId: r.notification_id }));
}

/** Notes the notification stored for each claimed person, so a retry pushes it again instead of storing another. */
export async function noteNotifications(db: Db, broadcastId: string, pairs: { userId: string; notificationId: string }[]) {
  if (pairs.length === 0) return;
  await db.run(sql`
    update sos_deliveries set notification_id = (select json_extract(p.value, '$.n') from json_each(${JSON.stringify(
      pairs.map((p) => ({ u: p.userId, n: p.notificationId })),
    )}) p where json_extract(p.value, '$.u') = sos_deliveries.user_id)
    where broadcast_id = ${broadcastId} and user_id in (select json_extract(value, '$.u') from json_each(${JSON.stringify(
      pairs.map((p) => ({ u: p.userId })),
    )}))`);
}

export type FinalStatus = "pushed" | "stored" | "off" | "failed";

/** Each claimed person's outcome, in one statement. */
export async function settleRecipients(db: Db, broadcastId: string, outcomes: { userId: string; status: FinalStatus }[], now = new Date()) {
  if (outcomes.length === 0) return;
  await db.run(sql`
    update sos_deliveries set status = (select json_extract(o.value, '$.s') from json_each(${JSON.stringify(
      outcomes.map((o) => ({ u: o.userId, s: o.status })),
    )}) o where json_extract(o.value, '$.u') = sos_deliveries.user_id), updated_at = ${now.getTime()}
    where broadcast_id = ${broadcastId} and user_id in (select value from json_each(${JSON.stringify(outcomes.map((o) => o.userId))}))`);
}

/** Where each of these people stands for this SOS. */
export async function recipientStatuses(db: Db, broadcastId: string, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, string>();
  const rows = await db.all<{ user_id: string; status: string }>(sql`
    select user_id, status from sos_deliveries
    where broadcast_id = ${broadcastId} and user_id in (select value from json_each(${JSON.stringify(userIds)}))`);
  return new Map(rows.map((r) => [r.user_id, r.status]));
}

/** Where a page of an area starts: after this (presence time, id), in the page's order. */
export interface AreaCursor {
  at: number;
  id: string;
}

/**
 * One page of an area's people by presence (decision 054). "present": present at or before the SOS, most recent
 * first; "late": present after it (moved in, or refreshed while the fan-out ran), oldest first, so a person
 * who refreshes again moves ahead of the cursor, never behind it. Keyset paging on users_area_presence_idx.
 */
export async function areaPage(
  db: Db,
  opts: { geohashes: string[]; exceptUserId: string; snapshot: number; phase: "present" | "late"; after: AreaCursor | null; size: number },
): Promise<{ id: string; at: number }[]> {
  const at = users.locationUpdatedAt;
  const inArea = opts.geohashes.length === 1 ? eq(users.geohash, opts.geohashes[0]) : inArray(users.geohash, opts.geohashes.slice(0, 25));
  const snapshot = new Date(opts.snapshot);
  const a = opts.after;
  const where =
    opts.phase === "present"
      ? and(
          inArea,
          lte(at, snapshot),
          a ? or(lt(at, new Date(a.at)), and(eq(at, new Date(a.at)), lt(users.id, a.id))) : undefined,
          ne(users.id, opts.exceptUserId),
        )
      : and(
          inArea,
          gt(at, snapshot),
          a ? or(gt(at, new Date(a.at)), and(eq(at, new Date(a.at)), gt(users.id, a.id))) : undefined,
          ne(users.id, opts.exceptUserId),
        );
  const rows = await db
    .select({ id: users.id, at: users.locationUpdatedAt })
    .from(users)
    .where(where)
    .orderBy(...(opts.phase === "present" ? [desc(at), desc(users.id)] : [asc(at), asc(users.id)]))
    .limit(opts.size);
  return rows.map((r) => ({ id: r.id, at: r.at?.getTime() ?? 0 }));
}

// Dead letters.
export type DeadLetterRow = typeof sosDeadLetters.$inferSelect;

/** Keeps a dead-lettered message; the queue may deliver it twice, so its message id keeps one row. */
export async function keepDeadLetter(
  db: Db,
  values: { messageId: string; broadcastId: string | null; body: unknown; attempts: number },
): Promise<boolean> {
  const rows = await db
    .insert(sosDeadLetters)
    .values({ id: newId(), ...values })
    .onConflictDoNothing({ target: sosDeadLetters.messageId })
    .returning({ id: sosDeadLetters.id });
  return rows.length > 0;
}

export function openDeadLetters(db: Db, limit: number) {
  return db.select().from(sosDeadLetters).where(isNull(sosDeadLetters.replayedAt)).orderBy(desc(sosDeadLetters.receivedAt)).limit(limit);
}

/** Marks a dead letter replayed by this staff member; the row when it was still open (a second replay is refused). */
export async function takeDeadLetter(db: Db, id: string, by: string): Promise<DeadLetterRow | undefined> {
  const [row] = await db
    .update(sosDeadLetters)
    .set({ replayedAt: new Date(), replayedBy: by })
    .where(and(eq(sosDeadLetters.id, id), isNull(sosDeadLetters.replayedAt)))
    .returning();
  return row;
}

/** Puts a dead letter back when its replay could not be queued. */
export async function reopenDeadLetter(db: Db, id: string) {
  await db.update(sosDeadLetters).set({ replayedAt: null, replayedBy: null }).where(eq(sosDeadLetters.id, id));
}

export async function countAreaPeople(db: Db, geohashes: string[], exceptUserId: string): Promise<number> {
  const inArea = geohashes.length === 1 ? eq(users.geohash, geohashes[0]) : inArray(users.geohash, geohashes.slice(0, 25));
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(inArea, ne(users.id, exceptUserId)))
    .get();
  return Number(row?.n ?? 0);
}
