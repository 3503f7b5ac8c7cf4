// Which payment provider serves this deployment, its prices and its webhook secret.
import { type BillingInterval, INTERVALS, PAID_TIERS, type PaidTier, planPrice } from "../../core/billing";
import type { AppEnv } from "../app-env";
import { macHex } from "../mac";

export type BillingMode = "stripe" | "paystack" | "local" | "unconfigured";

/** The configured provider: BILLING_PROVIDER=paystack chooses Paystack, anything else Stripe. */
export function billingProviderName(env: AppEnv): "stripe" | "paystack" {
  return env.BILLING_PROVIDER?.trim().toLowerCase() === "paystack" ? "paystack" : "stripe";
}

/**
 * The chosen provider when its secret key is set; the local stand-in only in development without a key;
 * otherwise billing refuses (a production deploy without the key must not take "payments" that are not real).
 */
export function billingMode(env: AppEnv): BillingMode {
  const provider = billingProviderName(env);
  if (provider === "paystack" ? env.PAYSTACK_SECRET_KEY : env.STRIPE_SECRET_KEY) return provider;
  return env.ENVIRONMENT === "development" ? "local" : "unconfigured";
}

/** Stripe needs all three: the key to create subscriptions, the webhook secret to learn they were paid and
 * the publishable key for the Payment Element. Missing ones are named (never their values). */
export function missingStripeConfig(env: AppEnv): string[] {
  const missing: string[] = [];
  if (!env.STRIPE_WEBHOOK_SECRET) missing.push("STRIPE_WEBHOOK_SECRET");
  if (!env.STRIPE_PUBLISHABLE_KEY) missing.push("STRIPE_PUBLISHABLE_KEY");
  return missing;
}

/** What the configured provider needs before it can take real payments, by name; development's stand-in
 * covers these locally, which is why only billingHealth (not this list) knows about the stand-in. */
export function billingRequirements(env: AppEnv): string[] {
  if (billingProviderName(env) === "paystack") return missingPaystackConfig(env);
  if (!env.STRIPE_SECRET_KEY) return ["STRIPE_SECRET_KEY", ...(env.STRIPE_WEBHOOK_SECRET ? [] : ["STRIPE_WEBHOOK_SECRET"])];
  return missingStripeConfig(env);
}

/** Paystack signs its webhooks with the secret key itself, so the key and the plans are all it needs. */
export function missingPaystackConfig(env: AppEnv): string[] {
  const vars = env as unknown as Record<string, string | undefined>;
  const missing = env.PAYSTACK_SECRET_KEY ? [] : ["PAYSTACK_SECRET_KEY"];
  for (const tier of PAID_TIERS)
    for (const interval of INTERVALS) if (!vars[PLAN_VARS[tier][interval]]) missing.push(PLAN_VARS[tier][interval]);
  return missing;
}

/** For /api/health: whether billing can take real or local payments, which, and what is missing. */
export function billingHealth(env: AppEnv): { mode: BillingMode; ready: boolean; missing: string[] } {
  const mode = billingMode(env);
  if (mode === "local") return { mode, ready: true, missing: [] };
  if (mode === "unconfigured")
    return { mode, ready: false, missing: [billingProviderName(env) === "paystack" ? "PAYSTACK_SECRET_KEY" : "STRIPE_SECRET_KEY"] };
  const missing = mode === "paystack" ? missingPaystackConfig(env) : missingStripeConfig(env);
  return { mode, ready: missing.length === 0, missing };
}

export interface PlanPrice {
  priceId: string;
  tier: PaidTier;
  interval: BillingInterval;
  amountNgn: number;
}

const PRICE_VARS = {
  premium: { monthly: "STRIPE_PRICE_PREMIUM_MONTHLY", yearly: "STRIPE_PRICE_PREMIUM_YEARLY" },
  enterprise: { monthly: "STRIPE_PRICE_ENTERPRISE_MONTHLY", yearly: "STRIPE_PRICE_ENTERPRISE_YEARLY" },
} as const;

// Paystack's plan codes (PLN_…) take the place of Stripe's Price ids when Paystack is the provider.
const PLAN_VARS = {
  premium: { monthly: "PAYSTACK_PLAN_PREMIUM_MONTHLY", yearly: "PAYSTACK_PLAN_PREMIUM_YEARLY" },
  enterprise: { monthly: "PAYSTACK_PLAN_ENTERPRISE_MONTHLY", yearly: "PAYSTACK_PLAN_ENTERPRISE_YEARLY" },
} as const;

/** The configured Stripe Prices or Paystack plans (wrangler.toml vars); amounts are ours (core), ids are configuration. */
export function priceCatalog(env: AppEnv): PlanPrice[] {
  const vars = env as unknown as Record<string, string | undefined>;
  const names = billingMode(env) === "paystack" ? PLAN_VARS : PRICE_VARS;
  return PAID_TIERS.flatMap((tier) =>
    INTERVALS.flatMap((interval) => {
      const priceId = vars[names[tier][interval]];
      return priceId ? [{ priceId, tier, interval, amountNgn: planPrice(tier, interval) }] : [];
    }),
  );
}

export function findPrice(env: AppEnv, priceId: string | null | undefined): PlanPrice | undefined {
  return priceCatalog(env).find((p) => p.priceId === priceId);
}

const LOCAL_SECRET_LABEL = "linkup-local-stripe-webhook";

/**
 * The secret webhooks are signed with: Stripe's endpoint secret, or locally one derived from SESSION_SECRET
 * (never present outside development, and private to this machine like the session secret).
 */
export async function webhookSecret(env: AppEnv): Promise<string | null> {
  const mode = billingMode(env);
  if (mode === "stripe") return env.STRIPE_WEBHOOK_SECRET || null;
  if (mode === "unconfigured" || mode === "paystack") return null;
  if (env.STRIPE_WEBHOOK_SECRET) return env.STRIPE_WEBHOOK_SECRET;
  return `whsec_local_${await macHex(env, LOCAL_SECRET_LABEL)}`;
}

/**
 * The key Paystack's webhooks are signed with: its secret key, or in development's stand-in (Paystack chosen,
 * no key) one derived from SESSION_SECRET, like the Stripe stand-in's webhook secret.
 */
export async function paystackSigningKey(env: AppEnv): Promise<string | null> {
  if (billingProviderName(env) !== "paystack") return null;
  const mode = billingMode(env);
  if (mode === "paystack") return env.PAYSTACK_SECRET_KEY || null;
  if (mode === "local") return `sk_local_${await macHex(env, "linkup-local-paystack-key")}`;
  return null;
}
