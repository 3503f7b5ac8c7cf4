// An SOS as a durable job (docs/decisions/054-sos-a-durable-job.md): its steps, the claim on each recipient
// taken before the push, the area paged by presence, the unfinished jobs for the Cron and the dead letters.
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { emergencyBroadcasts, sosDeadLetters, sosSteps, users } from "../schema";

export type SosStepRow = typeof sosSteps.$inferSelect;

/** Queued fan-out messages are rows `page:<key>` beside the steps (decision 054); these bound their range. */
const PAGE_FROM = "page:";
const PAGE_TO = "page;";

/** The job's steps (room, area, contacts, contact:<phone>), not its queued pages. */
export async function stepsOf(db: Db, broadcastId: string): Promise<Map<string, SosStepRow>> {
  const rows = await db
    .select()
    .from(sosSteps)
    .where(and(eq(sosSteps.broadcastId, broadcastId), or(lt(sosSteps.step, PAGE_FROM), gte(sosSteps.step, PAGE_TO))));
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

/** No queued page of this SOS is still open (SQL, for the statements that finish a job). */
const noOpenPage = (broadcastId: string) =>
  sql`not exists (select 1 from sos_steps p where p.broadcast_id = ${broadcastId} and p.step >= ${PAGE_FROM} and p.step < ${PAGE_TO} and p.state = 'started')`;

/**
 * Stores the answer of a job whose three steps are done, and finishes it when no queued page is open (else the
 * last page to be reached finishes it: pageReached). True when this call finished it.
 */
export async function finishJob(db: Db, id: string, reached: Record<string, unknown>, at = new Date()): Promise<boolean> {
  const t = at.getTime();
  const rows = await db.all<{ done: number | null }>(sql`
    update emergency_broadcasts set reached = ${JSON.stringify(reached)},
      job_done_at = case when job_done_at is not null then job_done_at when ${noOpenPage(id)} then ${t} else null end
    where id = ${id} returning job_done_at as done`);
  return rows[0]?.done === t;
}

/**
 * Queued fan-out messages, each recorded before it is sent so that one the queue loses keeps its job open until
 * the sweep sends it again (decision 054). Answers the keys to send: new, or recorded but still open (an earlier
 * attempt may have died before sending); one already reached is not sent again.
 */
export async function trackPages(db: Db, broadcastId: string, pages: { key: string; body: unknown }[], now = new Date()) {
  if (pages.length === 0) return new Set<string>();
  const rows = await db.all<{ step: string }>(sql`
    insert into sos_steps (broadcast_id, step, state, result, at)
    select ${broadcastId}, json_extract(value, '$.k'), 'started', json_object('body', json_extract(value, '$.b'), 'requeues', 0), ${now.getTime()}
    from json_each(${JSON.stringify(pages.map((p) => ({ k: p.key, b: p.body })))}) where true
    on conflict (broadcast_id, step) do update set state = sos_steps.state where sos_steps.state = 'started'
    returning step`);
  return new Set(rows.map((r) => r.step));
}

/**
 * A queued message reached everyone it names: its page is done, and the job finished when that was the last open
 * page and its three steps are done. True when this call finished the job.
 */
export async function pageReached(db: Db, broadcastId: string, key: string, now = new Date()): Promise<boolean> {
  const t = now.getTime();
  const closed = await db.all<{ step: string }>(sql`
    update sos_steps set state = 'done', result = null, at = ${t}
    where broadcast_id = ${broadcastId} and step = ${key} and state = 'started' returning step`);
  if (closed.length === 0) return false;
  const finished = await db.all<{ id: string }>(sql`
    update emergency_broadcasts set job_done_at = ${t}
    where id = ${broadcastId} and job_done_at is null
      and (select count(*) from sos_steps s where s.broadcast_id = ${broadcastId} and s.step in ('room', 'area', 'contacts') and s.state = 'done') = 3
      and ${noOpenPage(broadcastId)}
    returning id`);
  return finished.length > 0;
}

/**
 * Open pages the sweep should send again: queued at least `staleMs` ago (doubling with each re-send), while the job
 * reached no page in the last `staleMs`: a fan-out still moving through a backlog is left to the queue.
 */
export async function stalePages(db: Db, broadcastId: string, now: Date, staleMs: number, limit: number) {
  const t = now.getTime();
  const rows = await db.all<{ step: string; body: string; requeues: number }>(sql`
    select step, json_extract(result, '$.body') as body, coalesce(json_extract(result, '$.requeues'), 0) as requeues
    from sos_steps
    where broadcast_id = ${broadcastId} and step >= ${PAGE_FROM} and step < ${PAGE_TO} and state = 'started'
      and at <= ${t} - ${staleMs} * (1 << min(coalesce(json_extract(result, '$.requeues'), 0), 5))
      and not exists (select 1 from sos_steps d where d.broadcast_id = ${broadcastId} and d.step >= ${PAGE_FROM}
        and d.step < ${PAGE_TO} and d.state = 'done' and d.at > ${t - staleMs})
    order by at limit ${limit}`);
  return rows.map((r) => ({ key: r.step, body: JSON.parse(r.body) as unknown, requeues: Number(r.requeues) }));
}

/**
 * Notes pages sent again by the sweep (their clock restarts, their count grows). One sent `giveUpAfter` times is
 * closed as given up: its message is in the dead-letter queue for the staff desk by then, if it keeps failing.
 */
export async function pagesRequeued(db: Db, broadcastId: string, keys: string[], giveUpAfter: number, now = new Date()) {
  if (keys.length === 0) return;
  await db.run(sql`
    update sos_steps set at = ${now.getTime()},
      state = case when coalesce(json_extract(result, '$.requeues'), 0) + 1 >= ${giveUpAfter} then 'done' else 'started' end,
      result = json_set(result, '$.requeues', coalesce(json_extract(result, '$.requeues'), 0) + 1)
    where broadcast_id = ${broadcastId} and step in (select value from json_each(${JSON.stringify(keys)})) and state = 'started'`);
}

/**
 * Claims one contact's message before it goes (step `contact:<phone>`), numbering the attempts: an attempt's
 * messages are recorded under ids made from its number (contactMessageIds), so a later attempt can see whether an
 * earlier one's message went. Answers this attempt's number, or null when the step is done or held by a live
 * attempt (claimed less than `leaseMs` ago).
 */
export async function claimContact(db: Db, broadcastId: string, step: string, leaseMs: number, now = new Date()): Promise<number | null> {
  const t = now.getTime();
  const rows = await db.all<{ n: number }>(sql`
    insert into sos_steps (broadcast_id, step, state, result, at) values (${broadcastId}, ${step}, 'started', json_object('n', 1), ${t})
    on conflict (broadcast_id, step) do update set at = excluded.at,
      result = json_set(coalesce(sos_steps.result, '{}'), '$.n', coalesce(json_extract(sos_steps.result, '$.n'), 1) + 1)
    where sos_steps.state = 'started' and sos_steps.at < ${t - leaseMs}
    returning json_extract(result, '$.n') as n`);
  return rows.length ? Number(rows[0].n) : null;
}

/** How many attempts have claimed this contact's message so far (0 when none). */
export async function contactAttempts(db: Db, broadcastId: string, step: string): Promise<number> {
  const rows = await db.all<{ n: number | null }>(sql`
    select json_extract(result, '$.n') as n from sos_steps where broadcast_id = ${broadcastId} and step = ${step} and state = 'started'`);
  return rows.length ? Number(rows[0].n ?? 1) : 0;
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

/** Where each of these people stands for this SOS, and since when (a `sending` claim lapses a lease after it). */
export async function recipientStatuses(db: Db, broadcastId: string, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, { status: string; updatedAt: number }>();
  const rows = await db.all<{ user_id: string; status: string; updated_at: number }>(sql`
    select user_id, status, updated_at from sos_deliveries
    where broadcast_id = ${broadcastId} and user_id in (select value from json_each(${JSON.stringify(userIds)}))`);
  return new Map(rows.map((r) => [r.user_id, { status: r.status, updatedAt: Number(r.updated_at) }]));
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
