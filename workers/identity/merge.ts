// Merging one user into another: when a phone that already belongs to someone is verified from a new
// (usually anonymous) identity, that identity's data moves to the phone's owner and nothing is lost.
import type { Db } from "../../db";
import { type MergedProfile, mergeUserRows } from "../../db/queries/merge";
import type { User } from "../../db/schema";

const TIER_RANK = { free: 0, premium: 1, enterprise: 2 } as const;
const ROLE_RANK: Record<User["role"], number> = { user: 0, staff: 1, admin: 2 };

/**
 * The owner's profile wins where it has a value; empty fields are filled from the merged user.
 * Interests are united; the higher tier and role are kept.
 */
export function mergedProfile(from: User, into: User): MergedProfile {
  const intoHasPlace = into.latitude !== null;
  return {
    locationText: into.locationText ?? from.locationText,
    latitude: intoHasPlace ? into.latitude : from.latitude,
    longitude: intoHasPlace ? into.longitude : from.longitude,
    geohash: intoHasPlace ? into.geohash : from.geohash,
    locationUpdatedAt: intoHasPlace ? into.locationUpdatedAt : from.locationUpdatedAt,
    interests: [...new Set([...into.interests, ...from.interests])].slice(0, 20),
    onboardingCompletedAt: into.onboardingCompletedAt ?? from.onboardingCompletedAt,
    subscriptionTier: TIER_RANK[from.subscriptionTier] > TIER_RANK[into.subscriptionTier] ? from.subscriptionTier : into.subscriptionTier,
    role: ROLE_RANK[from.role] > ROLE_RANK[into.role] ? from.role : into.role,
  };
}

/** Moves everything of `from` to `into` and deletes `from`, in one atomic batch on D1 and on libSQL. */
export async function mergeUsers(db: Db, from: User, into: User): Promise<void> {
  if (from.id === into.id) return;
  await mergeUserRows(db, from.id, into.id, mergedProfile(from, into));
}
