// Active SOS by area for the staff desk: every open broadcast, grouped by the area room it went to (one
// gazetteer, docs/decisions/009-one-place-one-room.md), busiest area first. Resolving uses the SOS module's
// own resolve, which staff may call and which audits it.
import type { DeskDeadLetter, DeskSos } from "../../core/admin-schemas";
import { DomainError } from "../../core/domain-error";
import { SosFanoutMessageSchema } from "../../core/sos-schemas";
import { resolveArea } from "../../core/places";
import type { Db } from "../../db";
import { activeBroadcastsWithSender } from "../../db/queries/emergency";
import { openDeadLetters, reopenDeadLetter, takeDeadLetter } from "../../db/queries/sos-jobs";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { auditAction } from ".";

/** Enough for any real night; the desk says when there are more than it shows. */
const SHOWN = 200;

export async function activeSosByArea(db: Db) {
  const rows = await activeBroadcastsWithSender(db, SHOWN + 1);
  const areas = new Map<string, { area: string; geohash: string | null; sos: DeskSos[] }>();
  for (const { sos, nickname } of rows.slice(0, SHOWN)) {
    const area = resolveArea(sos);
    const key = area?.geohash ?? "";
    const group = areas.get(key) ?? { area: area?.name ?? "Area unknown", geohash: area?.geohash ?? null, sos: [] };
    group.sos.push({
      id: sos.id,
      type: sos.emergencyType,
      message: sos.message,
      channel: sos.channel,
      nickname,
      locationText: sos.locationText,
      broadcastedAt: sos.broadcastedAt.toISOString(),
    });
    areas.set(key, group);
  }
  return {
    areas: [...areas.values()].sort((a, b) => b.sos.length - a.sos.length),
    more: rows.length > SHOWN,
    deadLetters: await deadLetters(db),
  };
}

/** SOS fan-out messages the queue gave up on and nobody replayed yet (docs/decisions/054-sos-a-durable-job.md). */
export async function deadLetters(db: Db) {
  const rows = await openDeadLetters(db, 50);
  return rows.map((r) => {
    const body = SosFanoutMessageSchema.safeParse(r.body);
    return {
      id: r.id,
      broadcastId: r.broadcastId,
      // What a replay would alert: named people (how many), or a page of the area (null); malformed: nothing.
      people: body.success && "userIds" in body.data ? body.data.userIds.length : null,
      malformed: !body.success,
      attempts: r.attempts,
      receivedAt: r.receivedAt.toISOString(),
    } satisfies DeskDeadLetter;
  });
}

/**
 * Staff put a dead-lettered message back on the fan-out queue: its people are claimed before their push as on
 * any delivery, so whoever an earlier attempt reached is not alerted again. Audited; a second replay is refused.
 */
export async function replayDeadLetter(env: AppEnv, db: Db, staff: User, id: string) {
  const row = await takeDeadLetter(db, id, staff.id);
  if (!row) throw new DomainError("dead_letter_not_found", "No such dead letter waiting for a replay");
  const body = SosFanoutMessageSchema.safeParse(row.body);
  if (!body.success) {
    await reopenDeadLetter(db, id);
    throw new DomainError("dead_letter_malformed", "This message is malformed and cannot be replayed");
  }
  try {
    await env.SOS_FANOUT.send(body.data);
  } catch (e) {
    await reopenDeadLetter(db, id);
    throw e;
  }
  await auditAction(db, staff, "sos.dead_letter_replayed", row.broadcastId ?? row.id, { deadLetter: row.id }, { replayed: true });
  return { id: row.id, replayed: true };
}
