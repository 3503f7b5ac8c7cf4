// The tier a person has right now, from their subscription records and the server's clock.
import type { Tier } from "../../core/constants";
import type { Db } from "../../db";
import { setUserTier, type SubscriptionRow, subscriptionsOf } from "../../db/queries/billing";
import { seatHoldersOwnedBy, teamOf } from "../../db/queries/teams";
import { seatEntitlement } from "../teams/seats";

const RANK: Record<Tier, number> = { free: 0, premium: 1, enterprise: 2 };

/** What one record grants at `now`: its tier and when that lapses by the clock (null: until the provider says). */
export function entitlement(row: SubscriptionRow, now: Date): { tier: Tier; until: Date | null } | null {
  const t = now.getTime();
  if (row.source === "trial") {
    return row.status === "trialing" && row.trialEndsAt && row.trialEndsAt.getTime() > t
      ? { tier: row.tier, until: row.trialEndsAt }
      : null;
  }
  if (row.source === "complimentary") {
    return row.status === "active" && row.currentPeriodEnd && row.currentPeriodEnd.getTime() > t
      ? { tier: row.tier, until: row.currentPeriodEnd }
      : null;
  }
  if (row.status === "active" || row.status === "trialing") return { tier: row.tier, until: null };
  // A failed renewal keeps the tier through the grace period (docs/decisions/018-billing.md).
  if (row.status === "past_due" && row.graceEndsAt && row.graceEndsAt.getTime() > t) return { tier: row.tier, until: row.graceEndsAt };
  return null;
}

/** The best tier of all records, the record giving it, and the earliest moment anything lapses by the clock. */
export function effectiveTier(rows: SubscriptionRow[], now: Date): { tier: Tier; row: SubscriptionRow | null; expiresAt: Date | null } {
  let best: { tier: Tier; row: SubscriptionRow | null } = { tier: "free", row: null };
  let expiresAt: Date | null = null;
  for (const row of rows) {
    const e = entitlement(row, now);
    if (!e) continue;
    // A paid subscription is preferred over a trial or grant of the same tier: it is what the person manages.
    if (RANK[e.tier] > RANK[best.tier] || (RANK[e.tier] === RANK[best.tier] && row.source === "stripe" && best.row?.source !== "stripe")) {
      best = { tier: e.tier, row };
    }
    if (e.until && (!expiresAt || e.until < expiresAt)) expiresAt = e.until;
  }
  return { ...best, expiresAt };
}

/** Recomputes and stores the person's tier (users.subscription_tier follows the subscriptions). */
export async function refreshTier(db: Db, userId: string, now = new Date()): Promise<Tier> {
  const [rows, team] = await Promise.all([subscriptionsOf(db, userId), teamOf(db, userId)]);
  const own = effectiveTier(rows, now);
  // A seat in an Enterprise organisation gives its tier while the owner's runs (docs/decisions/067-enterprise-teams.md).
  const seat = seatEntitlement(team, now);
  const tier = seat && RANK[seat.tier] > RANK[own.tier] ? seat.tier : own.tier;
  const lapses = [own.expiresAt, seat?.until ?? null].filter((d): d is Date => d !== null);
  const expiresAt = lapses.length ? new Date(Math.min(...lapses.map((d) => d.getTime()))) : null;
  await setUserTier(db, userId, tier, expiresAt);
  // The seats of an owner's organisation follow the owner's tier (at most TEAM_SEATS people).
  if (team?.role === "owner") for (const m of await seatHoldersOwnedBy(db, userId)) await refreshTier(db, m.userId, now);
  return tier;
}
