// How many SOS a person and an address may send, and when an SOS may alert a far area
// (docs/decisions/047-limits-taken-atomically.md). The broadcast's insert counts them itself, in one statement,
// so 100 parallel requests send exactly what the limits allow and a replay spends nothing.
import { EMERGENCY_NUMBERS } from "../../core/constants";
import { DomainError } from "../../core/domain-error";
import { distanceMetres } from "../../core/geohash";
import { placeFromText } from "../../core/places";
import type { Db } from "../../db";
import { findPhoneChannel } from "../../db/queries/phone-channels";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import type { BroadcastLimits } from "../../db/queries/emergency";
import { addressLimit, hashedAddress } from "../limits";

const HOUR_MS = 3600_000;

/** An SOS naming a place farther than this from where the sender was known to be alerts that area only rarely. */
export const FAR_SOS_METRES = 50_000;

export const TOO_MANY_SOS = `Too many SOS from you in the last hour. If you are in danger, call ${EMERGENCY_NUMBERS.join(" or ")}.`;

type Position = { latitude: number; longitude: number };
type Channel = "web" | "ussd" | "whatsapp";

/**
 * Where LinkUp last knew the sender to be: their reported position, else (on a phone channel) the phone's last
 * place, else their profile's town. Null when nothing is known.
 */
export async function knownPosition(db: Db, user: User, channel: Channel): Promise<Position | null> {
  if (user.latitude !== null && user.longitude !== null) return { latitude: user.latitude, longitude: user.longitude };
  if (channel !== "web" && user.phone) {
    const pc = await findPhoneChannel(db, user.phone);
    if (pc?.latitude != null && pc.longitude != null) return { latitude: pc.latitude, longitude: pc.longitude };
    const place = placeFromText(pc?.locationText);
    if (place) return { latitude: place.lat, longitude: place.lon };
  }
  const town = placeFromText(user.locationText);
  return town ? { latitude: town.lat, longitude: town.lon } : null;
}

/**
 * Whether the SOS names a place far from where the sender was known to be. A request that names no place (the
 * SOS then uses the known one) is never far; nor is a first position from someone LinkUp knew nowhere: it becomes
 * their known place (decision 047 says why).
 */
export function isFarSos(known: Position | null, request: { location?: Position; locationText?: string }): boolean {
  const place = request.location ? null : placeFromText(request.locationText);
  const named = request.location ?? (place ? { latitude: place.lat, longitude: place.lon } : null);
  if (!named || !known) return false;
  return distanceMetres(known, named) > FAR_SOS_METRES;
}

/** A phone proven by a code (web) or by the channel itself (USSD and WhatsApp come from the phone). */
export function hasProvenPhone(user: User, channel: Channel): boolean {
  return user.authMode === "verified" || (channel !== "web" && user.phone !== null);
}

/**
 * The limits an SOS is inserted under: the person's (always), the address's (senders without a verified phone on
 * the web: their new anonymous identities share it) and, for an area far from where the sender was known to be,
 * the person's far budget. The insert itself counts them (db/queries/emergency.ts insertBroadcastWithinLimits).
 */
export async function sosLimits(
  env: AppEnv,
  opts: { user: User; channel: Channel; clientAddress: string | null | undefined },
  now = new Date(),
): Promise<BroadcastLimits> {
  const { user, channel, clientAddress } = opts;
  const anonymousWeb = channel === "web" && user.authMode !== "verified" && clientAddress;
  return {
    since: new Date(now.getTime() - HOUR_MS),
    perPerson: addressLimit(env, "sos"),
    address: anonymousWeb ? { key: await hashedAddress(env, clientAddress), limit: addressLimit(env, "anonSos") } : null,
    farLimit: addressLimit(env, "farSos"),
  };
}

export function tooManySos(retryAfterSeconds: number): DomainError {
  return new DomainError("too_many_sos", TOO_MANY_SOS, { retryAfterSeconds });
}
