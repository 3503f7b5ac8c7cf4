// The SOS fan-out past what one request should carry (docs/decisions/036-sos-fan-out-on-a-queue.md): the SOS
// request alerts the first people itself, so its answer can say who was reached, and puts everyone else on the
// SOS_FANOUT queue in batches. This Worker consumes the queue: it stores and pushes each batch's alerts,
// records every person's outcome in sos_deliveries, and has the queue retry a batch whose pushes failed.
import {
  EMERGENCY_TYPE_LABELS,
  type EmergencyType,
  SOS_FANOUT_BATCH,
  type SosFanoutMessage,
  SosFanoutMessageSchema,
} from "../../core/sos-schemas";
import type { MessageKey } from "../../core/i18n/en";
import { nameForOthers } from "../../core/names";
import { EMERGENCY_TYPES } from "../../core/sos";
import { createDb, type Db } from "../../db";
import { type BroadcastRow, deliveriesFor, findBroadcast, recordDeliveries, type SosDeliveryStatus } from "../../db/queries/emergency";
import { notificationsByIds } from "../../db/queries/notifications";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { type NotifyInput, notifyMany, pushStored } from "../notifications";

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

/** Queues people for an SOS in batches; answers how many were queued. */
export async function enqueueFanout(env: AppEnv, broadcastId: string, audience: SosFanoutMessage["audience"], userIds: string[]) {
  const messages: { body: SosFanoutMessage }[] = [];
  for (let i = 0; i < userIds.length; i += SOS_FANOUT_BATCH)
    messages.push({ body: { broadcastId, audience, userIds: userIds.slice(i, i + SOS_FANOUT_BATCH) } });
  // sendBatch takes at most 100 messages (and 256 KB) a call.
  for (let i = 0; i < messages.length; i += 100) await env.SOS_FANOUT.sendBatch(messages.slice(i, i + 100));
  return userIds.length;
}

/** One batch: alert whoever no earlier attempt reached, push again where a push failed; true when none failed. */
export async function deliverFanout(env: AppEnv, db: Db, msg: SosFanoutMessage): Promise<boolean> {
  const row = await findBroadcast(db, msg.broadcastId);
  const sender = row && (await findUserById(db, row.userId));
  if (!row || !sender) return true; // The SOS (or its sender) was deleted: nothing left to send.
  const before = new Map((await deliveriesFor(db, row.id, msg.userIds)).map((d) => [d.userId, d]));
  const fresh = msg.userIds.filter((u) => !before.has(u));
  const retry = [...before.values()].filter((d) => d.status === "failed" && d.notificationId);
  const outcomes: { userId: string; notificationId: string | null; status: SosDeliveryStatus }[] = [];

  if (fresh.length) {
    const sent = await notifyMany(env, db, fresh, sosAlert(row, sender, msg.audience));
    const byUser = new Map(sent.rows.map((r) => [r.userId, r.id]));
    for (const userId of fresh) {
      const notificationId = byUser.get(userId) ?? null;
      const status = !notificationId ? "off" : sent.pushedUsers.has(userId) ? "pushed" : sent.failedUsers.has(userId) ? "failed" : "stored";
      outcomes.push({ userId, notificationId, status });
    }
  }
  if (retry.length) {
    const rows = await notificationsByIds(
      db,
      retry.map((d) => d.notificationId as string),
    );
    const sent = await pushStored(env, db, rows);
    for (const d of retry)
      outcomes.push({ userId: d.userId, notificationId: d.notificationId, status: sent.pushedUsers.has(d.userId) ? "pushed" : "failed" });
  }
  await recordDeliveries(db, row.id, outcomes);
  return !outcomes.some((o) => o.status === "failed");
}

/** The queue consumer: a malformed message is dropped (logged), a batch with failed pushes retried with backoff. */
export async function consumeSosFanout(batch: MessageBatch<unknown>, env: AppEnv): Promise<void> {
  const db = createDb(env);
  for (const message of batch.messages) {
    const parsed = SosFanoutMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      console.error("sos fan-out: malformed message dropped", parsed.error.issues[0]?.message);
      message.ack();
      continue;
    }
    try {
      if (await deliverFanout(env, db, parsed.data)) message.ack();
      else message.retry({ delaySeconds: Math.min(60, 5 * 2 ** (message.attempts - 1)) });
    } catch (e) {
      console.error("sos fan-out: batch failed", e);
      message.retry({ delaySeconds: Math.min(60, 5 * 2 ** (message.attempts - 1)) });
    }
  }
}
