// Stripe webhook events → subscription records → the person's tier (docs/decisions/018-billing.md).
// Each event is applied once; an event older than what a record already reflects never moves it back.
import { addDays } from "./time";
import type { ApiErrorCode } from "../../core/api-errors";
import { GRACE_DAYS, type PaidTier } from "../../core/billing";
import {
  type StripeEventInput,
  StripeEventSchema,
  type StripeInvoice,
  StripeInvoiceSchema,
  type StripeSubscription,
  StripeSubscriptionSchema,
} from "../../core/billing-schemas";
import { faultPoint } from "../../core/faults";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import {
  claimEventWrite,
  eventClaimed,
  findByProviderId,
  insertSubscriptionWrite,
  isDuplicateClaim,
  runBatch,
  setUserTierWrite,
  type SubscriptionRow,
  subscriptionsOf,
  updateSubscriptionWrite,
  userOfCustomer,
  type Write,
} from "../../db/queries/billing";
import { countTrouble } from "../analytics";
import type { AppEnv } from "../env";
import { errorBody } from "../errors";
import { translatePaystackEvent, verifyPaystackSignature } from "../services/paystack";
import { verifyStripeSignature } from "../services/stripe";
import { findPrice, paystackSigningKey, webhookSecret } from "./config";
import { NOTICES, type PreparedNotice, prepareNotice } from "./notices";
import { effectiveTier } from "./tier";

export type WebhookOutcome = {
  status: 200 | 400 | 500 | 503;
  body: { received?: true; duplicate?: true; ignored?: true; error?: string; code?: ApiErrorCode };
};

/** The one webhook handler: Stripe's own requests and the local stand-in's signed events both come here. */
export async function handleStripeWebhook(
  env: AppEnv,
  db: Db,
  body: string,
  signature: string | null,
  now = new Date(),
): Promise<WebhookOutcome> {
  const secret = await webhookSecret(env);
  if (!secret) return { status: 503, body: errorBody("payments_not_configured", "Payments are not configured") };
  if (!signature) return { status: 400, body: errorBody("webhook_signature_missing", "Missing Stripe-Signature header") };
  let raw: unknown;
  try {
    raw = await verifyStripeSignature(body, signature, secret);
  } catch {
    return { status: 400, body: errorBody("webhook_signature", "Invalid webhook signature") };
  }
  const parsed = StripeEventSchema.safeParse(raw);
  if (!parsed.success) return { status: 400, body: errorBody("webhook_malformed", "Malformed event") };
  return applyOnce(env, db, parsed.data, now);
}

/**
 * POST /webhooks/paystack: `x-paystack-signature` is the HMAC-SHA512 of the raw body under the secret key.
 * Paystack's events carry no id, so the body's digest is the id a replay is known by; each event becomes the
 * Stripe-shaped event it means (workers/services/paystack.ts) and goes through the same path as Stripe's.
 */
export async function handlePaystackWebhook(
  env: AppEnv,
  db: Db,
  body: string,
  signature: string | null,
  now = new Date(),
): Promise<WebhookOutcome> {
  const key = await paystackSigningKey(env);
  if (!key) return { status: 503, body: errorBody("payments_not_configured", "Payments are not configured") };
  if (!signature) return { status: 400, body: errorBody("webhook_signature_missing", "Missing x-paystack-signature header") };
  if (!(await verifyPaystackSignature(body, signature, key)))
    return { status: 400, body: errorBody("webhook_signature", "Invalid webhook signature") };
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { status: 400, body: errorBody("webhook_malformed", "Malformed event") };
  }
  const meant = translatePaystackEvent(raw);
  if (meant === "malformed") return { status: 400, body: errorBody("webhook_malformed", "Malformed event") };
  if (!meant) return { status: 200, body: { received: true, ignored: true } };
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  const id = `paystack_${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  // Paystack's events have no creation time of their own: the moment they arrive is when they are seen.
  return applyOnce(env, db, { id, type: meant.type, created: Math.floor(now.getTime() / 1000), data: { object: meant.object } }, now);
}

/**
 * Claims the event and applies its effect in one D1 batch (docs/decisions/055-webhooks-and-files-survive-a-crash.md):
 * everything the effect needs is read first, then the claim and the writes commit together or not at all. A
 * Worker that dies anywhere before the commit leaves the event unclaimed, so the provider's retry applies it;
 * one that dies after it leaves it applied, so the retry is a duplicate. The notices' pushes and WhatsApp go out
 * after the commit (at most once).
 */
async function applyOnce(env: AppEnv, db: Db, event: StripeEventInput, now: Date): Promise<WebhookOutcome> {
  if (await eventClaimed(db, event.id)) return { status: 200, body: { received: true, duplicate: true } };
  await faultPoint("webhook.checked", env);
  let plan: Plan;
  try {
    plan = await planEvent(env, db, event, now);
  } catch (e) {
    if (e instanceof MalformedObject) return { status: 400, body: errorBody("webhook_malformed", e.message) };
    return failed(db, event, e);
  }
  await faultPoint("webhook.planned", env);
  try {
    await runBatch(db, [claimEventWrite(db, event.id, event.type), ...plan.writes]);
  } catch (e) {
    // A concurrent delivery of the same event committed first: this batch rolled back whole.
    if (isDuplicateClaim(e)) return { status: 200, body: { received: true, duplicate: true } };
    return failed(db, event, e);
  }
  await faultPoint("webhook.applied", env);
  for (const notice of plan.notices) await notice.deliver();
  await faultPoint("webhook.told", env);
  return { status: 200, body: plan.applied ? { received: true } : { received: true, ignored: true } };
}

/** Not claimed: the provider retries it. Counted for the operator (docs/decisions/053-nothing-lost.md). */
async function failed(db: Db, event: StripeEventInput, e: unknown): Promise<WebhookOutcome> {
  console.error("billing webhook: applying failed", event.type, event.id, e);
  await countTrouble(db, "webhook_failed").catch(() => {});
  return { status: 500, body: errorBody("webhook_not_applied", "Could not apply the event") };
}

/** What an event changes: statements not run yet, and the notices to deliver once they are committed. */
interface Plan {
  writes: Write[];
  notices: PreparedNotice[];
  applied: boolean;
}
const IGNORED: Plan = { writes: [], notices: [], applied: false };
const plan = (writes: Write[], notices: PreparedNotice[]): Plan => ({
  writes: [...writes, ...notices.flatMap((n) => n.writes)],
  notices,
  applied: true,
});

/**
 * The person's tier as it will be once `changed` is stored: their other records as read now, and this one.
 * (An array, not the statement itself: a drizzle statement is a thenable, and an async function would run it.)
 */
async function tierWrite(db: Db, userId: string, changed: SubscriptionRow, now: Date): Promise<Write[]> {
  const others = (await subscriptionsOf(db, userId)).filter((r) => r.id !== changed.id);
  const { tier, expiresAt } = effectiveTier([...others, changed], now);
  return [setUserTierWrite(db, userId, tier, expiresAt)];
}

class MalformedObject extends Error {}

function parseObject<T>(
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false } },
  value: unknown,
  what: string,
): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new MalformedObject(`Malformed ${what} in event`);
  return r.data;
}

async function planEvent(env: AppEnv, db: Db, event: StripeEventInput, now: Date): Promise<Plan> {
  const createdAt = new Date(event.created * 1000);
  switch (event.type) {
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return planSubscription(env, db, parseObject(StripeSubscriptionSchema, event.data.object, "subscription"), createdAt, now);
    case "customer.subscription.trial_will_end":
      return trialWillEnd(env, db, parseObject(StripeSubscriptionSchema, event.data.object, "subscription"));
    case "invoice.paid":
      return invoicePaid(env, db, parseObject(StripeInvoiceSchema, event.data.object, "invoice"), createdAt, now);
    case "invoice.payment_failed":
      return invoiceFailed(env, db, parseObject(StripeInvoiceSchema, event.data.object, "invoice"), now);
    default:
      // Acknowledged so Stripe does not retry, and otherwise ignored.
      return IGNORED;
  }
}

// Where a subscription is in its life: at the same `created` second, an event never moves it to an earlier stage.
const STAGE: Record<string, number> = {
  incomplete: 0,
  incomplete_expired: 3,
  trialing: 1,
  active: 2,
  past_due: 2,
  unpaid: 2,
  paused: 2,
  canceled: 3,
};
const stage = (status: string) => STAGE[status] ?? 2;

async function userFor(db: Db, sub: { customer: string; metadata?: Record<string, string> }): Promise<string | undefined> {
  return (await userOfCustomer(db, sub.customer)) ?? sub.metadata?.userId;
}

/** Applies a subscription object seen at `seenAt` (an event's `created`, or now for the provider's own answer). */
export async function applySubscription(env: AppEnv, db: Db, sub: StripeSubscription, seenAt: Date, now = new Date()): Promise<boolean> {
  const planned = await planSubscription(env, db, sub, seenAt, now);
  await runBatch(db, planned.writes);
  for (const notice of planned.notices) await notice.deliver();
  return planned.applied;
}

async function planSubscription(env: AppEnv, db: Db, sub: StripeSubscription, seenAt: Date, now: Date): Promise<Plan> {
  const item = sub.items.data[0];
  const price = findPrice(env, item.price.id);
  if (!price) {
    console.error("stripe webhook: subscription with an unknown price", sub.id, item.price.id);
    return IGNORED;
  }
  const periodEnd = item.current_period_end ? new Date(item.current_period_end * 1000) : null;
  const row = await findByProviderId(db, sub.id);
  if (row) {
    if (row.lastEventAt && seenAt < row.lastEventAt) return IGNORED;
    if (row.lastEventAt && seenAt.getTime() === row.lastEventAt.getTime() && stage(sub.status) < stage(row.status)) return IGNORED;
    // Stripe never brings a canceled subscription back; a late 'updated' must not either.
    if (row.status === "canceled" && sub.status !== "canceled") return IGNORED;
  }
  const userId = row?.userId ?? (await userFor(db, sub));
  if (!userId) {
    console.error("stripe webhook: subscription of an unknown customer", sub.id);
    return IGNORED;
  }
  // A downgrade keeps the higher tier until the period it was paid for is over.
  let tier: PaidTier = price.tier;
  let pendingPriceId: string | null = null;
  if (row?.pendingPriceId === price.priceId && row.currentPeriodEnd && periodEnd && periodEnd <= row.currentPeriodEnd) {
    tier = row.tier;
    pendingPriceId = row.pendingPriceId;
  }
  const values = {
    tier,
    status: sub.status,
    priceId: price.priceId,
    pendingPriceId,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    trialEndsAt: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
    graceEndsAt: sub.status === "past_due" ? (row?.graceEndsAt ?? addDays(now, GRACE_DAYS)) : null,
    lastEventAt: seenAt,
  };
  const wasEntitled = row && (row.status === "active" || row.status === "trialing" || row.status === "past_due");
  const ended = Boolean(sub.status === "canceled" && wasEntitled && row);
  const writes: Write[] = [];
  let changed: SubscriptionRow;
  if (row) {
    const patch = ended ? { ...values, endedNoticeAt: now } : values;
    writes.push(updateSubscriptionWrite(db, row.id, patch));
    changed = { ...row, ...patch };
  } else {
    const inserted = {
      ...values,
      id: newId(),
      userId,
      source: "stripe" as const,
      stripeCustomerId: sub.customer,
      stripeSubscriptionId: sub.id,
    };
    writes.push(insertSubscriptionWrite(db, inserted));
    changed = inserted as unknown as SubscriptionRow;
  }
  writes.push(...(await tierWrite(db, userId, changed, now)));
  const notices = ended && row ? [await prepareNotice(env, db, userId, NOTICES.ended(row.tier, "canceled"))] : [];
  return plan(writes, notices);
}

function invoiceSubscriptionId(inv: StripeInvoice): string | undefined {
  return inv.parent?.subscription_details?.subscription;
}

// Stripe amounts are in the currency's minor unit (kobo for NGN).
const toNaira = (minor: number) => Math.round(minor / 100);

async function invoicePaid(env: AppEnv, db: Db, inv: StripeInvoice, createdAt: Date, now: Date): Promise<Plan> {
  const subId = invoiceSubscriptionId(inv);
  const row = subId ? await findByProviderId(db, subId) : undefined;
  const userId = row?.userId ?? (await userOfCustomer(db, inv.customer));
  if (!userId) return IGNORED;
  const tier: PaidTier = row?.tier ?? "premium";
  let until = row?.currentPeriodEnd ?? null;
  const writes: Write[] = [];
  if (row && row.status !== "canceled") {
    const lineEnd = Math.max(0, ...(inv.lines?.data ?? []).map((l) => l.period?.end ?? 0));
    if (lineEnd && (!until || lineEnd * 1000 > until.getTime())) until = new Date(lineEnd * 1000);
    const lastEventAt = row.lastEventAt && row.lastEventAt > createdAt ? row.lastEventAt : createdAt;
    const status = ["incomplete", "past_due", "unpaid"].includes(row.status) ? "active" : row.status;
    const patch = { status, graceEndsAt: null, currentPeriodEnd: until, lastEventAt, endedNoticeAt: null };
    writes.push(updateSubscriptionWrite(db, row.id, patch));
    writes.push(...(await tierWrite(db, userId, { ...row, ...patch }, now)));
  }
  const notices = inv.amount_paid > 0 ? [await prepareNotice(env, db, userId, NOTICES.receipt(tier, toNaira(inv.amount_paid), until))] : [];
  return plan(writes, notices);
}

async function invoiceFailed(env: AppEnv, db: Db, inv: StripeInvoice, now: Date): Promise<Plan> {
  const subId = invoiceSubscriptionId(inv);
  const row = subId ? await findByProviderId(db, subId) : undefined;
  const userId = row?.userId ?? (await userOfCustomer(db, inv.customer));
  if (!userId) return IGNORED;
  const amount = toNaira(inv.amount_due);
  if (!row || row.status === "incomplete" || row.status === "canceled") {
    return plan([], [await prepareNotice(env, db, userId, NOTICES.failedFirst(row?.tier ?? "premium", amount))]);
  }
  const graceEndsAt: Date = row.graceEndsAt ?? addDays(now, GRACE_DAYS);
  const patch = { status: "past_due" as const, graceEndsAt };
  const writes = [updateSubscriptionWrite(db, row.id, patch), ...(await tierWrite(db, userId, { ...row, ...patch }, now))];
  return plan(writes, [await prepareNotice(env, db, userId, NOTICES.failedWithGrace(row.tier, amount, graceEndsAt))]);
}

async function trialWillEnd(env: AppEnv, db: Db, sub: StripeSubscription): Promise<Plan> {
  const row = await findByProviderId(db, sub.id);
  const userId = row?.userId ?? (await userFor(db, sub));
  if (!userId || !sub.trial_end) return IGNORED;
  return plan([], [await prepareNotice(env, db, userId, NOTICES.trialEndingSoon(new Date(sub.trial_end * 1000)))]);
}
