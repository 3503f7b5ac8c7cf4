// The tier a person has right now, from their subscription records and the server's clock.
import type { Tier } from "../../core/constants";
import type { Db } from "../../db";
import { setUserTier, type SubscriptionRow, subscriptionsOf } from "../../db/queries/billing";

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
  const { tier, expiresAt } = effectiveTier(await subscriptionsOf(db, userId), now);
  await setUserTier(db, userId, tier, expiresAt);
  return tier;
}
