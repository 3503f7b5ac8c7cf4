// What a seat gives (docs/decisions/067-enterprise-teams.md): while a person holds a seat in an organisation whose
// owner's Enterprise subscription runs, and the organisation lets seats carry features, they have the Enterprise
// tier; it lapses with the owner's, and goes when they leave or are removed (billing's refreshTier asks here).
import type { Tier } from "../../core/constants";
import type { teamOf } from "../../db/queries/teams";

type Standing = Awaited<ReturnType<typeof teamOf>>;

/** The tier a seat gives at `now` and when that lapses by the clock, or null when it gives none. */
export function seatEntitlement(standing: Standing, now: Date): { tier: Tier; until: Date | null } | null {
  if (!standing || standing.role === "owner" || !standing.org.seatFeatures) return null;
  if (standing.ownerTier !== "enterprise") return null;
  const until = standing.ownerTierExpiresAt;
  if (until && until <= now) return null;
  return { tier: "enterprise", until };
}
