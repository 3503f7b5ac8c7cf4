// The local payment stand-in (docs/architecture.md §9), present only when ENVIRONMENT=development and no provider key:
// it plays Stripe's part by building Stripe-shaped objects and events, signing them with the local webhook
// secret through Stripe's SDK and handing them to the same webhook handler Stripe's requests reach. With
// BILLING_PROVIDER=paystack the payment's events are Paystack's instead, signed and handled as Paystack's.
import { LOCAL_DECLINE_MESSAGE, LOCAL_TEST_CARDS } from "../../core/billing";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import { findByProviderId, type SubscriptionRow } from "../../db/queries/billing";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { signPaystackPayload } from "../services/paystack";
import { signStripePayload } from "../services/stripe";
import { billingProviderName, findPrice, type PlanPrice, paystackSigningKey, webhookSecret } from "./config";
import { handlePaystackWebhook, handleStripeWebhook } from "./events";
import type { BillingProvider } from "./provider";
import { addDays } from "./time";
import { macHex } from "../mac";

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function periodEnd(from: Date, price: PlanPrice): Date {
  return addDays(from, price.interval === "yearly" ? 365 : 30);
}

function subscriptionObject(s: {
  id: string;
  customer: string;
  userId: string;
  status: string;
  priceId: string;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}) {
  return {
    id: s.id,
    object: "subscription",
    customer: s.customer,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    trial_end: null,
    metadata: { userId: s.userId },
    livemode: false,
    items: {
      object: "list",
      data: [
        {
          id: `si_${s.id}`,
          object: "subscription_item",
          price: { id: s.priceId, object: "price" },
          current_period_end: s.periodEnd ? seconds(s.periodEnd) : undefined,
        },
      ],
    },
  };
}

function fromRow(row: SubscriptionRow, patch: Partial<Parameters<typeof subscriptionObject>[0]> = {}) {
  return subscriptionObject({
    id: row.stripeSubscriptionId ?? "",
    customer: row.stripeCustomerId ?? "",
    userId: row.userId,
    status: row.status,
    priceId: row.priceId ?? "",
    periodEnd: row.currentPeriodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    ...patch,
  });
}

/** Signs an event like Stripe does and posts it through the real webhook handler. */
async function emit(env: AppEnv, db: Db, type: string, object: unknown, now: Date): Promise<void> {
  const secret = await webhookSecret(env);
  if (!secret) throw new DomainError("payments_not_configured", "Payments are not configured");
  const body = JSON.stringify({
    id: `evt_local_${newId(12)}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: seconds(now),
    livemode: false,
    pending_webhooks: 0,
    type,
    data: { object },
  });
  const outcome = await handleStripeWebhook(env, db, body, await signStripePayload(body, secret), now);
  if (outcome.status !== 200) throw new Error(`local webhook ${type} answered ${outcome.status}: ${outcome.body.error}`);
}

/** Development with Paystack chosen: Paystack-shaped events, signed as Paystack signs, through its handler. */
async function emitPaystack(env: AppEnv, db: Db, event: string, data: unknown, now: Date): Promise<void> {
  const key = await paystackSigningKey(env);
  if (!key) throw new DomainError("payments_not_configured", "Payments are not configured");
  const body = JSON.stringify({ event, data });
  const outcome = await handlePaystackWebhook(env, db, body, await signPaystackPayload(body, key), now);
  if (outcome.status !== 200) throw new Error(`local webhook ${event} answered ${outcome.status}: ${outcome.body.error}`);
}

async function secretTag(env: AppEnv, subscriptionId: string): Promise<string> {
  return (await macHex(env, `local-client-secret:${subscriptionId}`)).slice(0, 24);
}

async function rowOf(db: Db, subscriptionId: string): Promise<SubscriptionRow> {
  const row = await findByProviderId(db, subscriptionId);
  if (!row) throw new DomainError("subscription_not_found", "Subscription not found");
  return row;
}

export function localProvider(env: AppEnv, db: Db, clock: () => Date = () => new Date()): BillingProvider {
  return {
    name: "local",
    createCustomer: async () => `cus_local_${newId(12)}`,
    createSubscription: async ({ userId, customerId, priceId }) => {
      const id = `sub_local_${newId(12)}`;
      const object = subscriptionObject({
        id,
        customer: customerId,
        userId,
        status: "incomplete",
        priceId,
        periodEnd: null,
        cancelAtPeriodEnd: false,
      });
      await emit(env, db, "customer.subscription.created", object, clock());
      return { object, clientSecret: `local_${id}_secret_${await secretTag(env, id)}` };
    },
    setCancelAtPeriodEnd: async (id, cancel) => {
      const object = fromRow(await rowOf(db, id), { cancelAtPeriodEnd: cancel });
      await emit(env, db, "customer.subscription.updated", object, clock());
      return object;
    },
    changePrice: async (id, priceId, prorate) => {
      const row = await rowOf(db, id);
      const now = clock();
      const from = findPrice(env, row.priceId);
      const to = findPrice(env, priceId);
      const object = fromRow(row, { priceId });
      await emit(env, db, "customer.subscription.updated", object, now);
      if (prorate && from && to && row.currentPeriodEnd) {
        // The difference for what is left of the period, charged at once (Stripe's always_invoice).
        const left = Math.max(0, row.currentPeriodEnd.getTime() - now.getTime()) / (periodEnd(now, from).getTime() - now.getTime());
        const amount = Math.max(0, Math.round((to.amountNgn - from.amountNgn) * Math.min(1, left)));
        await emit(env, db, "invoice.paid", invoiceObject(row, amount, row.currentPeriodEnd), now);
      }
      return object;
    },
  };
}

function invoiceObject(row: SubscriptionRow, amountNgn: number, periodEndAt: Date | null, paid = true) {
  return {
    id: `in_local_${newId(12)}`,
    object: "invoice",
    customer: row.stripeCustomerId,
    currency: "ngn",
    amount_due: amountNgn * 100,
    amount_paid: paid ? amountNgn * 100 : 0,
    status: paid ? "paid" : "open",
    parent: { type: "subscription_details", subscription_details: { subscription: row.stripeSubscriptionId } },
    lines: { object: "list", data: periodEndAt ? [{ period: { end: seconds(periodEndAt) } }] : [] },
  };
}

/**
 * The local payment form's confirm: the success card pays the first invoice and activates the subscription;
 * the decline card fails it, as Stripe's test cards do. Either way the events go through the webhook handler.
 */
export async function confirmLocalPayment(
  env: AppEnv,
  db: Db,
  input: { userId: string; clientSecret: string; cardNumber: string },
  now = new Date(),
): Promise<{ ok: true } | { ok: false; message: string }> {
  const m = /^local_(sub_local_[A-Za-z0-9_-]+)_secret_([0-9a-f]+)$/.exec(input.clientSecret);
  if (!m || m[2] !== (await secretTag(env, m[1]))) throw new DomainError("unknown_payment_session", "Unknown payment session");
  const row = await findByProviderId(db, m[1]);
  if (!row || row.userId !== input.userId) throw new DomainError("unknown_payment_session", "Unknown payment session");
  if (row.status !== "incomplete") throw new DomainError("payment_session_complete", "This payment session is already complete");
  const price = findPrice(env, row.priceId);
  if (!price) throw new DomainError("unknown_payment_session", "Unknown payment session");
  const paystack = billingProviderName(env) === "paystack";
  const customer = { customer_code: row.stripeCustomerId };
  if (input.cardNumber === LOCAL_TEST_CARDS.decline) {
    if (paystack) {
      const failed = {
        invoice_code: `INV_local_${newId(12)}`,
        amount: price.amountNgn * 100,
        subscription: { subscription_code: m[1] },
        customer,
      };
      await emitPaystack(env, db, "invoice.payment_failed", failed, now);
      return { ok: false, message: LOCAL_DECLINE_MESSAGE };
    }
    await emit(env, db, "invoice.payment_failed", invoiceObject(row, price.amountNgn, null, false), now);
    return { ok: false, message: LOCAL_DECLINE_MESSAGE };
  }
  if (input.cardNumber !== LOCAL_TEST_CARDS.success) {
    throw new DomainError("test_card", "Test mode: use the card 4242 4242 4242 4242, or 4000 0000 0000 0002 to see a decline");
  }
  const end = periodEnd(now, price);
  if (paystack) {
    const charge = { reference: `T_local_${newId(12)}`, amount: price.amountNgn * 100, customer, paid_at: now.toISOString() };
    await emitPaystack(env, db, "charge.success", charge, now);
    const subscription = {
      subscription_code: m[1],
      status: "active",
      next_payment_date: end.toISOString(),
      plan: { plan_code: price.priceId },
      customer,
    };
    await emitPaystack(env, db, "subscription.create", subscription, now);
    return { ok: true };
  }
  await emit(env, db, "invoice.paid", invoiceObject(row, price.amountNgn, end), now);
  await emit(env, db, "customer.subscription.updated", fromRow(row, { status: "active", periodEnd: end }), now);
  return { ok: true };
}
