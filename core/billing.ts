// Plans, prices and subscription texts shared by the checkout screen and the billing module
// (docs/product/plans-and-limits.md). zod-free so screens can import it without the schema library.
import { PRICES_NGN, TRIAL_DAYS } from "./constants";

export const PAID_TIERS = ["premium", "enterprise"] as const;
export type PaidTier = (typeof PAID_TIERS)[number];
export const INTERVALS = ["monthly", "yearly"] as const;
export type BillingInterval = (typeof INTERVALS)[number];

/** Days a person keeps their tier after a failed renewal while the card is retried. */
export const GRACE_DAYS = 3;
/** How long before the trial's end the reminder goes out. */
export const TRIAL_REMINDER_MS = 24 * 3600 * 1000;
export const TRIAL_MS = TRIAL_DAYS * 24 * 3600 * 1000;

/**
 * The longest complimentary grant staff may give (docs/decisions/049-abuse-bans-claims-and-names.md): through the
 * end of the UTC day 90 days from now, so a date picked on the staff desk (granted to 23:59:59Z) fits.
 */
export const MAX_GRANT_DAYS = 90;
export function latestGrantEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + MAX_GRANT_DAYS, 23, 59, 59, 999));
}
export const GRANT_TOO_LONG = `A complimentary tier can be granted for at most ${MAX_GRANT_DAYS} days`;
export const SELF_GRANT_REFUSED = "You cannot grant a tier to yourself. Ask another admin to grant it.";

export const PLAN_NAMES: Record<PaidTier, string> = { premium: "Premium", enterprise: "Enterprise" };

export function naira(n: number): string {
  return `₦${n.toLocaleString("en-NG")}`;
}

export function planPrice(tier: PaidTier, interval: BillingInterval): number {
  return PRICES_NGN[tier][interval];
}

export function parsePlan(value: string | null | undefined): PaidTier {
  return value === "enterprise" ? "enterprise" : "premium";
}

export function parseInterval(value: string | null | undefined): BillingInterval {
  return value === "yearly" ? "yearly" : "monthly";
}

/** The documented subscription status shape (docs/product/plans-and-limits.md), plus what the settings tab needs. */
export interface SubscriptionStatus {
  isActive: boolean;
  tier: "free" | PaidTier;
  /** Stripe's status of the subscription that gives the tier ('active', 'trialing', 'past_due'…), or 'none'. */
  status: string;
  nextBilling: string | null;
  trialEndsAt: string | null;
  cancelAtPeriodEnd: boolean;
  /** Where the tier comes from: a paid subscription, the free trial or a complimentary grant. */
  source: "stripe" | "trial" | "complimentary" | null;
  interval: BillingInterval | null;
  graceEndsAt: string | null;
  /** A downgrade waiting for the next billing cycle. */
  pendingTier: PaidTier | null;
  /** Whether this person can still start the free trial (verified, phone never used for one). */
  trialAvailable: boolean;
}

// Texts of the payment toasts (docs/product/plans-and-limits.md).
export const PAYMENT_TEXTS = {
  setup: "Setting up your subscription...",
  failedTitle: "Payment Failed",
  successTitle: "Payment Successful",
  successBody: "Welcome to LinkUp Premium! Your subscription is now active.",
  initErrorTitle: "Error",
  initErrorBody: "Failed to initialize payment. Please try again.",
} as const;

/** Cards of the local payment stand-in: the same numbers as Stripe's test cards. */
export const LOCAL_TEST_CARDS = { success: "4242424242424242", decline: "4000000000000002" } as const;
export const LOCAL_DECLINE_MESSAGE = "Your card was declined.";
