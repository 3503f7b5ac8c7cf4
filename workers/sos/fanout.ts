// The SOS fan-out past what one request should carry (docs/decisions/036-sos-fan-out-on-a-queue.md, and
// docs/decisions/054-sos-a-durable-job.md for what survives a crash): the SOS request alerts the first people
// itself, so its answer can say who was reached, and puts the rest of the area on the SOS_FANOUT queue as pages
// by presence. Every person is claimed in sos_deliveries before their push, so a retried or redelivered batch
// skips whoever was reached. Every message is recorded as an open page of its job before it is sent and closed once
// everyone it names is reached, so one the queue loses is sent again by the Cron sweep. Messages the queue gives up
// on land in its dead-letter queue, kept for the staff desk.
import {
  EMERGENCY_TYPE_LABELS,
  type EmergencyType,
  SOS_FANOUT_BATCH,
  SOS_FANOUT_PLAN,
  type SosFanoutMessage,
  SosFanoutMessageSchema,
} from "../../core/sos-schemas";
import type { MessageKey } from "../../core/i18n/en";
import { nameForOthers } from "../../core/names";
import { EMERGENCY_TYPES } from "../../core/sos";
import { faultPoint } from "../../core/faults";
import { neighbourhoodCells } from "../../core/geohash";
import { createDb, type Db } from "../../db";
import { type BroadcastRow, findBroadcast } from "../../db/queries/emergency";
import { notificationsByIds } from "../../db/queries/notifications";
import {
  type AreaCursor,
  areaPage,
  claimRecipients,
  type FinalStatus,
  keepDeadLetter,
  noteNotifications,
  pageReached,
  recipientStatuses,
  settleRecipients,
  trackPages,
} from "../../db/queries/sos-jobs";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { newId } from "../../core/ids";
import { coarseArea, countTrouble, recordEvent } from "../analytics";
import type { AppEnv } from "../env";
import { type NotifyInput, pushStored, storeMany } from "../notifications";

/**
 * People the SOS request alerts itself. Each push is one outbound request (signed and encrypted) and the sender
 * waits for them, so the request keeps few (it answers in under a second: bench/README.md, sos); the rest go
 * through the queue, where each batch runs in its own invocation (docs/decisions/043-room-speed-and-shards.md).
 */
export const INLINE_RECIPIENTS = 10;

const sosTypeKey = (t: string): MessageKey =>
  EMERGENCY_TYPES.includes(t as EmergencyType) ? `sos.type.${t as EmergencyType}` : "sos.type.other";

export function typeLabel(t: string): string {
  return EMERGENCY_TYPE_LABELS[t as EmergencyType] ?? t;
}

/** The alert an SOS puts in people's notification centres and pushes. */
export function sosAlert(
  row: BroadcastRow,
  sender: Pick<User, "id" | "nickname" | "anonymousMode">,
  audience: SosFanoutMessage["audience"],
): NotifyInput {
  // Strangers nearby see the name the area room shows; the sender's own contacts know them (core/names.ts).
  const name = audience === "nearby" ? nameForOthers(sender) : sender.nickname;
  return {
    type: "emergency",
    title:
      audience === "nearby"
        ? `SOS nearby: ${typeLabel(row.emergencyType)}`
        : `SOS from ${sender.nickname}: ${typeLabel(row.emergencyType)}`,
    // Each person's own language (docs/decisions/031): the English title above is the fallback.
    localized: (t) => ({
      title:
        audience === "nearby"
          ? t("push.sosNearby", { type: t(sosTypeKey(row.emergencyType)) })
          : t("push.sosFrom", { name: sender.nickname, type: t(sosTypeKey(row.emergencyType)) }),
    }),
    content: `${name}: ${row.message}${row.locationText ? ` (${row.locationText})` : ""}`,
    priority: "critical",
    url: "/emergency",
    source: "sos",
    actionRequired: true,
  };
}

/**
 * How long a claim on a person (or a contact's message) holds before another attempt may take it over: longer
 * than one batch takes (50 pushes, six at a time, each well under a second), so a live attempt is never doubled.
 * A person can be alerted twice only when a Worker died after the push service took their push and before
 * "pushed" was written, and then only once more (decision 054).
 */
export const CLAIM_LEASE_MS = 60_000;

/** The cells an SOS alerts: its area, or a paying sender's neighbourhood (about 10 km). */
export function areaCells(row: BroadcastRow, sender: Pick<User, "subscriptionTier">): string[] {
  if (!row.geohash) return [];
  if (sender.subscriptionTier !== "free" && row.latitude !== null && row.longitude !== null)
    return neighbourhoodCells(row.latitude, row.longitude).slice(0, 25);
  return [row.geohash];
}

export interface AlertOutcome {
  /** Each person asked about and where they stand (pushed, stored, off, failed, or sending by a live attempt). */
  statuses: Map<string, string>;
  /** Notifications stored by this attempt. */
  stored: number;
  /** When the last claim held by another attempt lapses (ms), if any person is still `sending` by one. */
  heldUntil: number | null;
}

/**
 * Alerts these people once: claims them (one statement), stores their alert and notes it, pushes, writes each
 * outcome. Whoever an earlier attempt reached is skipped; a failed push is pushed again from the stored alert.
 * `at` names the fault points (sos.area.* in the request, sos.consumer.* in the queue consumer).
 */
export async function alertOnce(
  env: AppEnv,
  db: Db,
  row: BroadcastRow,
  sender: Pick<User, "id" | "nickname" | "anonymousMode">,
  audience: SosFanoutMessage["audience"],
  userIds: string[],
  at: "sos.area" | "sos.consumer",
  now = new Date(),
): Promise<AlertOutcome> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return { statuses: new Map(), stored: 0, heldUntil: null };
  const claimed = await claimRecipients(db, row.id, ids, CLAIM_LEASE_MS, now);
  await faultPoint(`${at}.claimed`, env);
  const fresh = claimed.filter((c) => !c.notificationId).map((c) => c.userId);
  const again = claimed.flatMap((c) => (c.notificationId ? [c.notificationId] : []));
  const stored = fresh.length ? await storeMany(db, fresh, sosAlert(row, sender, audience)) : [];
  await noteNotifications(
    db,
    row.id,
    stored.map((r) => ({ userId: r.userId, notificationId: r.id })),
  );
  await faultPoint(`${at}.stored`, env);
  const rows = [...stored, ...(again.length ? await notificationsByIds(db, again) : [])];
  const sent = rows.length ? await pushStored(env, db, rows, now) : { pushedUsers: new Set<string>(), failedUsers: new Set<string>() };
  await faultPoint(`${at}.pushed`, env);
  const withRow = new Set(rows.map((r) => r.userId));
  const outcomes = claimed.map(({ userId }) => ({
    userId,
    status: (!withRow.has(userId)
      ? "off"
      : sent.pushedUsers.has(userId)
        ? "pushed"
        : sent.failedUsers.has(userId)
          ? "failed"
          : "stored") as FinalStatus,
  }));
  await settleRecipients(db, row.id, outcomes, now);
  await faultPoint(`${at}.settled`, env);
  const statuses = new Map<string, string>(outcomes.map((o) => [o.userId, o.status]));
  let heldUntil: number | null = null;
  // People this attempt did not claim: reached earlier, or being reached by a live attempt.
  if (statuses.size < ids.length)
    for (const [u, s] of await recipientStatuses(
      db,
      row.id,
      ids.filter((u) => !statuses.has(u)),
    )) {
      statuses.set(u, s.status);
      if (s.status === "sending") heldUntil = Math.max(heldUntil ?? 0, s.updatedAt + CLAIM_LEASE_MS);
    }
  return { statuses, stored: stored.length, heldUntil };
}

type Body = { body: SosFanoutMessage };

const cursorKey = (after: AreaCursor | null) => (after ? `${after.at}:${after.id}` : "-");

/** A plan of an area's people after `after` (null: from its first); its key is its place, so a redelivered plan's is the same. */
export function planMessage(broadcastId: string, cells: string[], phase: "present" | "late", after: AreaCursor | null): SosFanoutMessage {
  return { broadcastId, audience: "nearby", page: { cells, phase, after, plan: true }, key: `page:plan:${phase}:${cursorKey(after)}` };
}

function pageMessage(broadcastId: string, cells: string[], phase: "present" | "late", after: AreaCursor | null): SosFanoutMessage {
  return { broadcastId, audience: "nearby", page: { cells, phase, after }, key: `page:${phase}:${cursorKey(after)}` };
}

/** Named people for an SOS in batches of SOS_FANOUT_BATCH. */
export function peopleMessages(broadcastId: string, audience: SosFanoutMessage["audience"], userIds: string[]): SosFanoutMessage[] {
  const messages: SosFanoutMessage[] = [];
  for (let i = 0; i < userIds.length; i += SOS_FANOUT_BATCH)
    messages.push({ broadcastId, audience, userIds: userIds.slice(i, i + SOS_FANOUT_BATCH), key: `page:people:${newId()}` });
  return messages;
}

/**
 * Queues these messages, each first recorded as an open page of its SOS (sos_steps `page:<key>`): the job stays
 * unfinished until every page is reached, and the Cron sweep sends again a page whose message the queue lost
 * (decision 054). A page an earlier attempt already reached is not sent again.
 */
export async function queueTracked(env: AppEnv, db: Db, broadcastId: string, messages: SosFanoutMessage[], now = new Date()) {
  for (let i = 0; i < messages.length; i += 100) {
    const chunk = messages.slice(i, i + 100);
    const open = await trackPages(
      db,
      broadcastId,
      chunk.map((m) => ({ key: m.key as string, body: m })),
      now,
    );
    await sendAll(
      env,
      chunk.filter((m) => open.has(m.key as string)).map((body) => ({ body })),
    );
  }
}

/** Sends messages as they are (the sweep's re-sends of recorded pages, a dead letter replayed). */
export async function sendAll(env: AppEnv, messages: Body[]) {
  // sendBatch takes at most 100 messages (and 256 KB) a call (developers.cloudflare.com/queues/platform/limits/).
  for (let i = 0; i < messages.length; i += 100) await env.SOS_FANOUT.sendBatch(messages.slice(i, i + 100));
}

/** The SOS's job is finished: counted once, by whoever finished it (the request, the sweep or the last page). */
export async function recordSosSent(db: Db, row: BroadcastRow) {
  await recordEvent(db, `sos.${row.channel}`, { area: coarseArea(row.geohash), userId: row.userId });
}

/**
 * What follows a read of `size` people that found `got`: more of the same phase when the read was full; after
 * the last "present" read, the first "late" one; nothing after the last "late" read.
 */
export function nextPage(got: { id: string; at: number }[], size: number, phase: "present" | "late") {
  const last = got.at(-1);
  if (got.length === size && last) return { phase, after: { at: last.at, id: last.id } };
  return phase === "present" ? { phase: "late" as const, after: null } : null;
}

/**
 * A plan: reads the places (id and presence time only, from the index) of the next SOS_FANOUT_PLAN people and
 * queues one page message per 50 of them, each starting at its cursor, and the next plan, in one sendBatch.
 * So a huge area takes one hop of the queue per 5,000 people, not per 50, and its pages run side by side.
 */
async function planArea(env: AppEnv, db: Db, row: BroadcastRow, page: Extract<SosFanoutMessage, { page: unknown }>["page"], now: Date) {
  const { cells, phase, after } = page;
  const got = await areaPage(db, {
    geohashes: cells,
    exceptUserId: row.userId,
    snapshot: row.broadcastedAt.getTime(),
    phase,
    after,
    size: SOS_FANOUT_PLAN,
  });
  const messages: SosFanoutMessage[] = [];
  for (let i = 0; i < got.length; i += SOS_FANOUT_BATCH)
    messages.push(pageMessage(row.id, cells, phase, i === 0 ? after : { at: got[i - 1].at, id: got[i - 1].id }));
  const next = nextPage(got, SOS_FANOUT_PLAN, phase);
  if (next) messages.push(planMessage(row.id, cells, next.phase, next.after));
  await queueTracked(env, db, row.id, messages, now);
  await faultPoint("sos.consumer.planned", env);
}

export type FanoutOutcome = { outcome: "done" | "failed" } | { outcome: "busy"; until: number };

/**
 * One message: alert whoever no earlier attempt reached; once all are reached its page is closed (and the job
 * finished if that was the last). "done" acks it; "failed" retries it, "busy" retries it once the claims held by
 * another attempt (`until`) have lapsed.
 */
export async function deliverFanout(env: AppEnv, db: Db, msg: SosFanoutMessage, now = new Date()): Promise<FanoutOutcome> {
  const row = await findBroadcast(db, msg.broadcastId);
  const sender = row && (await findUserById(db, row.userId));
  if (!row || !sender) return { outcome: "done" }; // The SOS (or its sender) was deleted: nothing left to send.
  const reached = async (): Promise<FanoutOutcome> => {
    if (msg.key && (await pageReached(db, row.id, msg.key, now))) await recordSosSent(db, row);
    return { outcome: "done" };
  };
  let userIds: string[];
  if ("page" in msg) {
    if (msg.page.plan) {
      await planArea(env, db, row, msg.page, now);
      return reached();
    }
    const got = await areaPage(db, {
      geohashes: msg.page.cells,
      exceptUserId: row.userId,
      snapshot: row.broadcastedAt.getTime(),
      phase: msg.page.phase,
      after: msg.page.after,
      size: SOS_FANOUT_BATCH,
    });
    // Someone who left the area since the plan makes this page read one more of the next: claimed once anyway.
    userIds = got.map((p) => p.id);
  } else userIds = msg.userIds;
  if (userIds.length === 0) return reached();
  const { statuses, heldUntil } = await alertOnce(env, db, row, sender, msg.audience, userIds, "sos.consumer", now);
  const left = [...statuses.values()];
  if (left.includes("failed")) return { outcome: "failed" };
  // Claimed but not yet pushed (by a live attempt, or one that died): not reached until pushed.
  if (left.includes("sending")) return { outcome: "busy", until: heldUntil ?? now.getTime() + CLAIM_LEASE_MS };
  return reached();
}

const backoff = (attempts: number) => Math.min(60, 5 * 2 ** (attempts - 1));

/** The queue consumer: a malformed message is dropped (logged), a batch with failed pushes retried with backoff. */
export async function consumeSosFanout(batch: MessageBatch<unknown>, env: AppEnv, now?: Date): Promise<void> {
  const db = createDb(env);
  for (const message of batch.messages) {
    const parsed = SosFanoutMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error("sos fan-out: malformed message dropped", parsed.error.issues[0]?.message);
      message.ack();
      continue;
    }
    // A second delivery: the last one failed or its Worker died (decision 053's counter).
    if (message.attempts > 1) await countTrouble(db, "queue_retried").catch((e) => console.error("sos fan-out: counting", e));
    try {
      const at = now ?? new Date();
      const result = await deliverFanout(env, db, parsed.data, at);
      if (result.outcome === "done") message.ack();
      // Another attempt holds some claims: look again once the last of them could have lapsed.
      else if (result.outcome === "busy")
        message.retry({ delaySeconds: Math.min(CLAIM_LEASE_MS / 1000, Math.max(1, Math.ceil((result.until - at.getTime()) / 1000) + 1)) });
      else message.retry({ delaySeconds: backoff(message.attempts) });
    } catch (e) {
      console.error("sos fan-out: batch failed", e);
      message.retry({ delaySeconds: backoff(message.attempts) });
    }
  }
}

/** The dead-letter queue's consumer: every message the fan-out gave up on is kept for the staff desk and counted. */
export async function keepDeadLetters(batch: MessageBatch<unknown>, env: AppEnv): Promise<void> {
  const db = createDb(env);
  for (const message of batch.messages) {
    const body = message.body as { broadcastId?: unknown } | null;
    const broadcastId = body && typeof body.broadcastId === "string" ? body.broadcastId.slice(0, 64) : null;
    try {
      if (await keepDeadLetter(db, { messageId: message.id, broadcastId, body: message.body ?? null, attempts: message.attempts }))
        await countTrouble(db, "dead_lettered");
      message.ack();
    } catch (e) {
      console.error("sos dead letters: keeping failed", e);
      message.retry();
    }
  }
}

/** The Worker's queue handler: the fan-out and its dead-letter queue (wrangler.toml). */
export function sosQueue(batch: MessageBatch<unknown>, env: AppEnv): Promise<void> {
  return batch.queue === SOS_DEAD_LETTER_QUEUE ? keepDeadLetters(batch, env) : consumeSosFanout(batch, env);
}

export const SOS_DEAD_LETTER_QUEUE = "linkup-sos-fanout-dlq";
