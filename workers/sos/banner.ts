// The SOS banner's data for a page load (issue 32): the row the session's own statement found
// (db/queries/sessions.ts findSession), shaped as the screen shows it. No query of its own (docs/decisions/062).
// A page served from a session pass reads the same row in its fresh statement (docs/decisions/065-the-session-off-d1.md).
// Only a caller with an API key (GET /api/me, no session read) takes its area cell's fresh SOS from the edge cache,
// kept 15 s and dropped here when an SOS in the cell starts, is answered or resolved: scripts polling /api/me cost
// one D1 read per cell, location and 15 s, however often they ask.
import { z } from "zod";
import { nameForOthers } from "../../core/names";
import { SOS_ALARM_MS, type SosBanner } from "../../core/sos";
import type { Db } from "../../db";
import { freshSosInCell } from "../../db/queries/emergency";
import type { User } from "../../db/schema";
import { edgeCached, edgeForget, SOS_CELL_KEY } from "../admin/edge-cache";

const BannerRow = z.object({
  id: z.string(),
  userId: z.string(),
  message: z.string(),
  emergencyType: z.string(),
  locationText: z.string().nullable(),
  geohash: z.string(),
  at: z.number(),
  nickname: z.string(),
  anonymous: z.union([z.number(), z.boolean()]),
});

/** The banner from the session read's JSON, or null (none, or a row that does not parse). */
export function sosBannerFrom(json: string | null | undefined): SosBanner | null {
  if (!json) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  const row = BannerRow.safeParse(raw);
  if (!row.success) return null;
  const b = row.data;
  const room = `nearby:${b.geohash}`;
  return {
    id: b.id,
    room,
    // The name the area room shows of them, anonymous mode included (core/names.ts).
    senderName: nameForOthers({ id: b.userId, nickname: b.nickname, anonymousMode: Boolean(b.anonymous) }, room),
    message: b.message,
    emergencyType: b.emergencyType,
    locationText: b.locationText,
    broadcastedAt: b.at,
  };
}

const CELL_CACHE_SECONDS = 15;
const cellKey = (geohash: string) => `${SOS_CELL_KEY}${encodeURIComponent(geohash)}` as const;

/** The banner for a caller with no session read (an API key): their cell's, through the edge cache. */
export async function sosBannerForCell(db: Db, user: User, now = new Date()): Promise<SosBanner | null> {
  if (!user.geohash) return null;
  const cell = user.geohash;
  const fresh = await edgeCached(cellKey(cell), CELL_CACHE_SECONDS, () => freshSosInCell(db, cell, new Date(now.getTime() - SOS_ALARM_MS)));
  for (const sos of fresh) {
    const banner = sosBannerFrom(sos.banner);
    if (!banner || banner.broadcastedAt <= now.getTime() - SOS_ALARM_MS) continue;
    const from = (JSON.parse(sos.banner) as { userId?: string }).userId;
    if (from !== user.id && !sos.responders.includes(user.id)) return banner;
  }
  return null;
}

/** An SOS in this cell started, was answered or ended: this location's readers see it now, others within 15 s. */
export async function forgetSosCell(geohash: string | null | undefined): Promise<void> {
  if (geohash) await edgeForget(cellKey(geohash));
}
