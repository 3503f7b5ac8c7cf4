// The SOS banner's data for a page load (issue 32): the row the session's own statement found
// (db/queries/sessions.ts findSession), shaped as the screen shows it. No query of its own (docs/decisions/062).
import { z } from "zod";
import { nameForOthers } from "../../core/names";
import type { SosBanner } from "../../core/sos";

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
