// Billing domain (docs/decisions/018-billing.md): checkout, the subscription's status, the card-less trial,
// cancel/resume, plan changes, complimentary grants and the clock that ends what has run out.
import { recordEvent } from "../analytics";
import {
  type BillingInterval,
  GRANT_TOO_LONG,
  latestGrantEnd,
  PLAN_NAMES,
  type PaidTier,
  SELF_GRANT_REFUSED,
  type SubscriptionStatus,
  TRIAL_MS,
  TRIAL_REMINDER_MS,
} from "../../core/billing";
import type { MessageKey } from "../../core/i18n/en";
import { StripeSubscriptionSchema } from "../../core/billing-schemas";
import type { Db } from "../../db";
import { claimPremium, premiumClaimed } from "../../db/queries/claims";
import {
  audit,
  claimTrial,
  customerOf,
  endedWithoutNotice,
  insertSubscription,
  saveCustomer,
  type SubscriptionRow,
  subscriptionsOf,
  trialClaimed,
  trialsToRemind,
  updateSubscription,
  usersWithLapsedTier,
} from "../../db/queries/billing";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { mac } from "../mac";
import { DomainError } from "../../core/domain-error";
import { stripeProvider } from "../services/stripe";
import { billingMode, findPrice, missingPaystackConfig, missingStripeConfig, priceCatalog } from "./config";
import { NOTICES, tellPerson } from "./notices";
import type { BillingProvider } from "./provider";
import { effectiveTier, entitlement, refreshTier } from "./tier";

export { billingHealth, billingMode, priceCatalog } from "./config";
export { refreshTier } from "./tier";

// The webhooks' handling (with Paystack's adapter) and the local stand-in load on first use, not with every isolate
// (docs/decisions/082-a-worker-that-starts-small.md).
type Events = typeof import("./events");
type Local = typeof import("./local");
const events = () => import("./events");
const local = () => import("./local");
export const handleStripeWebhook: Events["handleStripeWebhook"] = async (...a) => (await events()).handleStripeWebhook(...a);
export const handlePaystackWebhook: Events["handlePaystackWebhook"] = async (...a) => (await events()).handlePaystackWebhook(...a);
export const confirmLocalPayment: Local["confirmLocalPayment"] = async (...a) => (await local()).confirmLocalPayment(...a);

/** A provider whose adapter loads with its first call. */
function onFirstCall(name: BillingProvider["name"], load: () => Promise<BillingProvider>): BillingProvider {
  let provider: Promise<BillingProvider> | undefined;
  const get = () =>
    (provider ??= load().catch((e: unknown) => {
      provider = undefined;
      throw e;
    }));
  return {
    name,
    createCustomer: async (input) => (await get()).createCustomer(input),
    createSubscription: async (input) => (await get()).createSubscription(input),
    setCancelAtPeriodEnd: async (id, cancel) => (await get()).setCancelAtPeriodEnd(id, cancel),
    changePrice: async (id, price, prorate) => (await get()).changePrice(id, price, prorate),
  };
}

const NOT_CONFIGURED = "Payments are not configured";

export function billingProvider(env: AppEnv, db: Db): BillingProvider {
  const mode = billingMode(env);
  if (mode === "stripe") {
    // A subscription nobody could pay for, or whose payment we would never hear of, is refused up front.
    if (missingStripeConfig(env).length > 0) throw new DomainError("payments_not_configured", NOT_CONFIGURED);
    return stripeProvider(env.STRIPE_SECRET_KEY as string);
  }
  if (mode === "paystack") {
    if (missingPaystackConfig(env).length > 0) throw new DomainError("payments_not_configured", NOT_CONFIGURED);
    const options = {
      amountOf: (planCode: string) => findPrice(env, planCode)?.amountNgn,
      callbackUrl: new URL("/chat?subscription=success", env.APP_URL).toString(),
    };
    return onFirstCall("paystack", () =>
      import("../services/paystack").then((m) => m.paystackProvider(env.PAYSTACK_SECRET_KEY as string, options)),
    );
  }
  if (mode === "local") return onFirstCall("local", () => local().then((m) => m.localProvider(env, db)));
  throw new DomainError("payments_not_configured", NOT_CONFIGURED);
}

// The provider's own answer is applied at once (with event-second precision, so the webhook for the same
// change, or a later one in the same second, is not mistaken for an older event).
const asSeen = (now: Date) => new Date(Math.floor(now.getTime() / 1000) * 1000);

async function applyAnswer(env: AppEnv, db: Db, object: unknown, now: Date) {
  const parsed = StripeSubscriptionSchema.safeParse(object);
  if (!parsed.success)
    throw new DomainError("payment_provider_unexpected", "The payment provider answered with an unexpected subscription");
  await (await events()).applySubscription(env, db, parsed.data, asSeen(now), now);
}

/** The paid subscription the person manages (the one giving their tier, or their latest). */
function managedSubscription(rows: SubscriptionRow[], now: Date): SubscriptionRow | undefined {
  return rows.find((r) => r.source === "stripe" && entitlement(r, now));
}

/** POST /api/create-subscription: one customer per person, an incomplete subscription, its payment secret. */
export async function createSubscription(env: AppEnv, db: Db, user: User, priceId: string, now = new Date()) {
  const price = findPrice(env, priceId);
  if (!price) throw new DomainError("unknown_price", "Unknown price");
  const provider = billingProvider(env, db);
  if (managedSubscription(await subscriptionsOf(db, user.id), now)) {
    throw new DomainError("already_subscribed", "You already have a subscription. Change your plan in Settings.");
  }
  let customerId = await customerOf(db, user.id);
  if (!customerId) {
    customerId = await saveCustomer(
      db,
      user.id,
      await provider.createCustomer({ userId: user.id, phone: user.phone, nickname: user.nickname }),
    );
  }
  const { object, clientSecret, redirectUrl } = await provider.createSubscription({ userId: user.id, customerId, priceId: price.priceId });
  await applyAnswer(env, db, object, now);
  await recordEvent(db, "checkout", { now });
  // Paystack's checkout is its own page: the browser goes to redirectUrl and comes back to the callback.
  return { clientSecret, provider: provider.name, ...(redirectUrl ? { redirectUrl } : {}) };
}

export async function subscriptionStatus(env: AppEnv, db: Db, user: User, now = new Date()): Promise<SubscriptionStatus> {
  const rows = await subscriptionsOf(db, user.id);
  const { tier, row } = effectiveTier(rows, now);
  const shown = row ?? rows.find((r) => r.source === "stripe" && r.status !== "incomplete");
  const price = findPrice(env, shown?.priceId);
  const pending = shown?.pendingPriceId ? findPrice(env, shown.pendingPriceId) : undefined;
  const trialAvailable = user.authMode === "verified" && Boolean(user.phone) && !(await trialUsed(env, db, user.phone as string));
  const nextBilling = shown?.source === "stripe" && row && !shown.cancelAtPeriodEnd ? shown.currentPeriodEnd : null;
  return {
    isActive: tier !== "free",
    tier,
    status: shown?.status ?? "none",
    nextBilling: nextBilling?.toISOString() ?? null,
    trialEndsAt: shown?.trialEndsAt?.toISOString() ?? null,
    cancelAtPeriodEnd: shown?.cancelAtPeriodEnd ?? false,
    source: shown?.source ?? null,
    interval: price?.interval ?? null,
    graceEndsAt: shown?.status === "past_due" ? (shown.graceEndsAt?.toISOString() ?? null) : null,
    pendingTier: pending?.tier ?? null,
    trialAvailable,
  };
}

/**
 * The key of a phone's free-Premium claims (premium_claims): an HMAC under SESSION_SECRET, as sessions and
 * addresses are kept, so the table names no number (docs/decisions/049-abuse-bans-claims-and-names.md).
 */
export function phoneClaimKey(env: AppEnv, phone: string): Promise<string> {
  return mac(env, `phone-claim:${phone}`);
}

async function trialUsed(env: AppEnv, db: Db, phone: string): Promise<boolean> {
  return (await trialClaimed(db, phone)) || (await premiumClaimed(db, await phoneClaimKey(env, phone), "trial"));
}

/** The 7-day trial: no card, once per verified phone number ever (an account deleted and made again included). */
export async function startTrial(env: AppEnv, db: Db, user: User, now = new Date()) {
  if (user.authMode !== "verified" || !user.phone)
    throw new DomainError("verification_required", "This feature requires phone verification");
  if (effectiveTier(await subscriptionsOf(db, user.id), now).tier !== "free")
    throw new DomainError("already_premium", "You already have Premium");
  // Once per phone ever: the hashed claim outlives the account; trial_claims (by account) holds claims made before it.
  if ((await trialClaimed(db, user.phone)) || !(await claimPremium(db, await phoneClaimKey(env, user.phone), "trial")))
    throw new DomainError("trial_used", "The free trial has already been used for this phone number");
  await claimTrial(db, user.phone, user.id);
  const trialEndsAt = new Date(now.getTime() + TRIAL_MS);
  await insertSubscription(db, { userId: user.id, tier: "premium", status: "trialing", source: "trial", trialEndsAt, lastEventAt: now });
  await refreshTier(db, user.id, now);
  await tellPerson(env, db, user.id, NOTICES.trialStarted(trialEndsAt));
  return subscriptionStatus(env, db, (await refreshedUser(db, user)) ?? user, now);
}

function refreshedUser(db: Db, user: User): Promise<User | undefined> {
  return findUserById(db, user.id);
}

async function requireManaged(db: Db, user: User, now: Date): Promise<SubscriptionRow> {
  const row = managedSubscription(await subscriptionsOf(db, user.id), now);
  if (!row?.stripeSubscriptionId) throw new DomainError("no_paid_subscription", "You have no paid subscription to change");
  return row;
}

/** Cancel at the period's end (Premium stays until then) or resume a cancellation. */
export async function setCancelAtPeriodEnd(env: AppEnv, db: Db, user: User, cancel: boolean, now = new Date()) {
  const row = await requireManaged(db, user, now);
  const provider = billingProvider(env, db);
  await applyAnswer(env, db, await provider.setCancelAtPeriodEnd(row.stripeSubscriptionId as string, cancel), now);
  return subscriptionStatus(env, db, user, now);
}

const RANK: Record<PaidTier, number> = { premium: 1, enterprise: 2 };

/** Upgrades take effect at once (the difference charged now); downgrades at the next billing cycle. */
export async function changePlan(env: AppEnv, db: Db, user: User, tier: PaidTier, interval: BillingInterval, now = new Date()) {
  const row = await requireManaged(db, user, now);
  const price = priceCatalog(env).find((p) => p.tier === tier && p.interval === interval);
  if (!price) throw new DomainError("unknown_price", "Unknown price");
  const current = findPrice(env, row.priceId);
  if (price.priceId === row.priceId)
    throw new DomainError("already_on_plan", `You are already on ${PLAN_NAMES[tier]}`, { values: { plan: PLAN_NAMES[tier] } });
  const upgrade = RANK[tier] > RANK[row.tier] || (tier === row.tier && price.amountNgn > (current?.amountNgn ?? 0));
  const provider = billingProvider(env, db);
  if (!upgrade) await updateSubscription(db, row.id, { pendingPriceId: price.priceId });
  await applyAnswer(env, db, await provider.changePrice(row.stripeSubscriptionId as string, price.priceId, upgrade), now);
  return subscriptionStatus(env, db, user, now);
}

/** Staff grant a tier until a date (Premium by phone, docs/product/plans-and-limits.md); recorded in the audit log. */
export async function grantComplimentary(
  env: AppEnv,
  db: Db,
  admin: User,
  input: { user: User; tier: PaidTier; endsAt: Date; reason: string },
  now = new Date(),
) {
  // Bounded and never to oneself (issue 27 finding 11; docs/decisions/049-abuse-bans-claims-and-names.md): the
  // audit log records a grant, these stop the one that should not happen.
  if (input.user.id === admin.id) throw new DomainError("self_grant", SELF_GRANT_REFUSED);
  if (input.endsAt > latestGrantEnd(now)) throw new DomainError("grant_too_long", GRANT_TOO_LONG);
  const row = await insertSubscription(db, {
    userId: input.user.id,
    tier: input.tier,
    status: "active",
    source: "complimentary",
    currentPeriodEnd: input.endsAt,
    lastEventAt: now,
  });
  await audit(db, {
    actorId: admin.id,
    action: "billing.complimentary_granted",
    target: input.user.id,
    detail: {
      subscriptionId: row.id,
      tier: input.tier,
      endsAt: input.endsAt.toISOString(),
      reason: input.reason,
      before: { tier: input.user.subscriptionTier },
      after: { tier: input.tier, endsAt: input.endsAt.toISOString() },
    },
  });
  const tier = await refreshTier(db, input.user.id, now);
  await tellPerson(env, db, input.user.id, NOTICES.granted(input.tier, input.endsAt));
  return { id: row.id, userId: input.user.id, tier: input.tier, endsAt: input.endsAt.toISOString(), effectiveTier: tier };
}

/**
 * Premium days earned as a reward (an achievement, docs/decisions/033-rewards-that-grant-premium.md): a
 * complimentary grant that starts when the person's running grants end, so rewards add up instead of overlapping.
 * The caller makes sure a reward is granted once.
 */
export async function grantRewardDays(
  env: AppEnv,
  db: Db,
  userId: string,
  input: { days: number; reason: string; achievement?: MessageKey },
  now = new Date(),
) {
  const running = (await subscriptionsOf(db, userId))
    .filter((r) => r.source === "complimentary" && r.tier === "premium" && entitlement(r, now))
    .map((r) => r.currentPeriodEnd?.getTime() ?? 0);
  const start = Math.max(now.getTime(), ...running);
  const endsAt = new Date(start + input.days * 86_400_000);
  const row = await insertSubscription(db, {
    userId,
    tier: "premium",
    status: "active",
    source: "complimentary",
    currentPeriodEnd: endsAt,
    lastEventAt: now,
  });
  await audit(db, {
    actorId: userId,
    action: "billing.reward_granted",
    target: userId,
    detail: { subscriptionId: row.id, days: input.days, reason: input.reason, endsAt: endsAt.toISOString() },
  });
  const tier = await refreshTier(db, userId, now);
  await tellPerson(env, db, userId, NOTICES.rewardDays(input.achievement ?? null, input.days, endsAt));
  return { endsAt: endsAt.toISOString(), effectiveTier: tier };
}

/** Staff end a person's complimentary grants now (a mistaken or withdrawn grant); audited, and the person is told. */
export async function endComplimentary(env: AppEnv, db: Db, staff: User, user: User, now = new Date()) {
  const grants = (await subscriptionsOf(db, user.id)).filter(
    (r) => r.source === "complimentary" && r.status === "active" && (!r.currentPeriodEnd || r.currentPeriodEnd > now),
  );
  if (grants.length === 0) throw new DomainError("no_grant", "This person has no complimentary tier to end");
  for (const row of grants) await updateSubscription(db, row.id, { status: "ended", currentPeriodEnd: now, endedNoticeAt: now });
  const tier = await refreshTier(db, user.id, now);
  await audit(db, {
    actorId: staff.id,
    action: "billing.complimentary_ended",
    target: user.id,
    detail: { subscriptionIds: grants.map((g) => g.id), before: { tier: user.subscriptionTier }, after: { tier } },
  });
  await tellPerson(env, db, user.id, NOTICES.ended(grants[0].tier, "complimentary"));
  return { userId: user.id, effectiveTier: tier };
}

/** Re-checks a person whose tier lapses by the clock; called when a session is loaded. */
export async function refreshIfLapsed(db: Db, user: User, now = new Date()): Promise<User> {
  if (!user.tierExpiresAt || user.tierExpiresAt > now) return user;
  const tier = await refreshTier(db, user.id, now);
  return (await refreshedUser(db, user)) ?? { ...user, subscriptionTier: tier };
}

/**
 * The billing clock (Cron trigger): reminds trials ending within a day, ends what ran out (trials, grace
 * periods, complimentary grants) and tells each person once.
 */
export async function runBillingClock(env: AppEnv, db: Db, now = new Date()) {
  let reminded = 0;
  let ended = 0;
  for (const row of await trialsToRemind(db, now, TRIAL_REMINDER_MS)) {
    if (!row.trialEndsAt || row.trialEndsAt <= now) continue;
    await updateSubscription(db, row.id, { reminderSentAt: now });
    await tellPerson(env, db, row.userId, NOTICES.trialEndingSoon(row.trialEndsAt));
    reminded++;
  }
  for (const row of await endedWithoutNotice(db, now)) {
    await updateSubscription(db, row.id, { endedNoticeAt: now, ...(row.source === "trial" ? { status: "ended" } : {}) });
    await refreshTier(db, row.userId, now);
    const why = row.source === "trial" ? "trial" : row.source === "complimentary" ? "complimentary" : "grace";
    await tellPerson(env, db, row.userId, NOTICES.ended(row.tier, why));
    ended++;
  }
  for (const userId of await usersWithLapsedTier(db, now)) await refreshTier(db, userId, now);
  return { reminded, ended };
}
