// Active SOS by area for the staff desk: every open broadcast, grouped by the area room it went to (one
// gazetteer, docs/decisions/009-one-place-one-room.md), busiest area first. Resolving uses the SOS module's
// own resolve, which staff may call and which audits it.
import type { DeskSos } from "../../core/admin-schemas";
import { resolveArea } from "../../core/places";
import type { Db } from "../../db";
import { activeBroadcastsWithSender } from "../../db/queries/emergency";

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
  return { areas: [...areas.values()].sort((a, b) => b.sos.length - a.sos.length), more: rows.length > SHOWN };
}
