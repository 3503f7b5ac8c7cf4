// A webhook that dies at any step is applied exactly once by the provider's retry (issue 29,
// docs/decisions/055-webhooks-and-files-survive-a-crash.md). For every fault point the path passes, the Worker
// dies there, the same signed delivery comes again (as Stripe and Paystack retry), and the subscription, the
// tier and the notices have changed exactly once.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { armFault, faultPointsPassed, resetFaults } from "../../core/faults";
import { call, verifiedSession } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { createServer } from "../server";
import { signPaystackPayload } from "../services/paystack";
import { webhookSecret } from "./config";

const appEnv = env as unknown as AppEnv;
const DAY = 24 * 3600 * 1000;
const cryptoProvider = Stripe.createSubtleCryptoProvider();

afterEach(() => resetFaults());

async function tierOf(cookie: string) {
  return (await (await call("/api/me", { cookie })).json<{ user: { tier: string } }>()).user.tier;
}
async function countWhere(sql: string, ...args: unknown[]) {
  return (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;
}
const notices = (userId: string, title: string) =>
  countWhere("select count(*) as n from notifications where user_id = ? and title = ?", userId, title);
const whatsapps = (phone: string, text: string) =>
  countWhere(`select count(*) as n from outbound_messages where "to" = ? and channel = 'whatsapp' and body like ?`, phone, `%${text}%`);
const webhookFailures = () => countWhere("select coalesce(sum(count), 0) as n from analytics_daily where kind = 'ops.webhook_failed'");

/** One Stripe delivery: its exact bytes and signature (Stripe's own helper), posted as often as needed. */
async function stripeDelivery(type: string, object: unknown) {
  const payload = JSON.stringify({
    id: `evt_crash_${crypto.randomUUID()}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const secret = (await webhookSecret(appEnv)) as string;
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider });
  return () =>
    call("/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
}

/** A paying person (the local stand-in's success card), with their subscription and customer ids. */
async function payingUser() {
  const u = await verifiedSession("0806");
  const res = await call("/api/create-subscription", { method: "POST", cookie: u.cookie, json: { priceId: "price_premium_monthly" } });
  const { clientSecret } = await res.json<{ clientSecret: string }>();
  const paid = await call("/api/dev/payments/confirm", {
    method: "POST",
    cookie: u.cookie,
    json: { clientSecret, cardNumber: "4242 4242 4242 4242" },
  });
  expect(paid.status).toBe(200);
  const row = await env.DB.prepare(
    "select stripe_subscription_id as sub, stripe_customer_id as cus from subscriptions where user_id = ? and source = 'stripe'",
  )
    .bind(u.id)
    .first<{ sub: string; cus: string }>();
  const phone = (await env.DB.prepare("select phone from users where id = ?").bind(u.id).first<{ phone: string }>())!.phone;
  return { ...u, sub: row!.sub, cus: row!.cus, phone };
}

const subscriptionObject = (id: string, customer: string, userId: string, status: string) => ({
  id,
  object: "subscription",
  customer,
  status,
  cancel_at_period_end: false,
  trial_end: null,
  metadata: { userId },
  items: { data: [{ price: { id: "price_premium_monthly" }, current_period_end: Math.floor((Date.now() + 30 * DAY) / 1000) }] },
});
const invoiceObject = (subId: string, customer: string, amountNgn: number) => ({
  id: `in_crash_${crypto.randomUUID()}`,
  object: "invoice",
  customer,
  currency: "ngn",
  amount_due: amountNgn * 100,
  amount_paid: amountNgn * 100,
  parent: { subscription_details: { subscription: subId } },
  lines: { data: [{ period: { end: Math.floor((Date.now() + 60 * DAY) / 1000) } }] },
});

/** The webhook path's points, learned by walking it once. */
async function webhookPoints(): Promise<string[]> {
  const u = await payingUser();
  resetFaults();
  const deliver = await stripeDelivery("invoice.paid", invoiceObject(u.sub, u.cus, 2500));
  expect((await deliver()).status).toBe(200);
  const points = [...new Set(faultPointsPassed().filter((p) => p.startsWith("webhook.")))];
  resetFaults();
  return points;
}

/** Dies at `point` on the first delivery; the second, identical delivery must then be answered 200. */
async function dieThenRetry(point: string, deliver: () => Promise<Response>) {
  armFault(point);
  expect((await deliver()).status).toBe(500);
  const retried = await deliver();
  expect(retried.status).toBe(200);
  // A third delivery (Stripe may send one more) is known: nothing is applied again.
  expect(await (await deliver()).json()).toMatchObject({ received: true, duplicate: true });
}

describe("a Stripe webhook that dies at any step is applied once by the retry", () => {
  it("walks every point of the webhook path", async () => {
    expect(await webhookPoints()).toEqual(["webhook.checked", "webhook.planned", "webhook.applied", "webhook.told"]);
  });

  for (const point of ["webhook.checked", "webhook.planned", "webhook.applied", "webhook.told"]) {
    it(`dying at ${point}: one receipt for a paid invoice, and a cancellation ends the plan once with one notice`, async () => {
      const u = await payingUser();
      const receiptsBefore = await notices(u.id, "Payment received");
      const whatsappsBefore = await whatsapps(u.phone, "Payment received");
      await dieThenRetry(point, await stripeDelivery("invoice.paid", invoiceObject(u.sub, u.cus, 2500)));
      expect(await notices(u.id, "Payment received")).toBe(receiptsBefore + 1);
      // The WhatsApp goes out after the commit: lost only when the Worker dies between the two, never doubled.
      expect(await whatsapps(u.phone, "Payment received")).toBe(whatsappsBefore + (point === "webhook.applied" ? 0 : 1));

      await dieThenRetry(point, await stripeDelivery("customer.subscription.deleted", subscriptionObject(u.sub, u.cus, u.id, "canceled")));
      expect(await tierOf(u.cookie)).toBe("free");
      expect(await countWhere("select count(*) as n from subscriptions where user_id = ? and status = 'canceled'", u.id)).toBe(1);
      expect(await notices(u.id, "LinkUp Premium has ended")).toBe(1);
    });
  }

  it("a failed commit leaves the event unclaimed and counts webhook_failed; the retry applies it", async () => {
    const u = await payingUser();
    const failuresBefore = await webhookFailures();
    const deliver = await stripeDelivery("customer.subscription.deleted", subscriptionObject(u.sub, u.cus, u.id, "canceled"));
    // A trigger that refuses the claim stands in for D1 failing the batch.
    await env.DB.prepare(
      "create trigger refuse_claims before insert on stripe_events begin select raise(abort, 'D1 is failing'); end",
    ).run();
    const failed = await deliver();
    await env.DB.prepare("drop trigger refuse_claims").run();
    expect(failed.status).toBe(500);
    expect(await tierOf(u.cookie)).toBe("premium");
    expect(await webhookFailures()).toBe(failuresBefore + 1);
    expect((await deliver()).status).toBe(200);
    expect(await tierOf(u.cookie)).toBe("free");
  });
});

describe("a Paystack webhook that dies at any step is applied once by the retry", () => {
  const KEY = "sk_test_paystack_linkup";
  const paystackEnv = {
    ...appEnv,
    ENVIRONMENT: undefined,
    BILLING_PROVIDER: "paystack",
    PAYSTACK_SECRET_KEY: KEY,
    PAYSTACK_PLAN_PREMIUM_MONTHLY: "PLN_premium_m",
    PAYSTACK_PLAN_PREMIUM_YEARLY: "PLN_premium_y",
    PAYSTACK_PLAN_ENTERPRISE_MONTHLY: "PLN_enterprise_m",
    PAYSTACK_PLAN_ENTERPRISE_YEARLY: "PLN_enterprise_y",
  } as unknown as AppEnv;
  const server = createServer(async () => new Response("page"));

  /** One Paystack delivery: the same body and `x-paystack-signature` (Paystack's HMAC) each time. */
  async function paystackDelivery(event: string, data: unknown) {
    const body = JSON.stringify({ event, data });
    const signature = await signPaystackPayload(body, KEY);
    return async () => {
      const ctx = createExecutionContext();
      const res = await server.fetch(
        new Request("http://localhost:5173/webhooks/paystack", {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-paystack-signature": signature },
        }),
        paystackEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
  }

  for (const point of ["webhook.checked", "webhook.planned", "webhook.applied", "webhook.told"]) {
    it(`dying at ${point}: subscription.create makes one Premium subscription, charge.success one receipt`, async () => {
      const u = await verifiedSession("0807");
      const customer = `CUS_${u.id.slice(0, 8)}`;
      await env.DB.prepare("insert into billing_customers (user_id, customer_id) values (?, ?)").bind(u.id, customer).run();
      const code = `SUB_${u.id.slice(0, 8)}`;
      await dieThenRetry(
        point,
        await paystackDelivery("subscription.create", {
          subscription_code: code,
          status: "active",
          next_payment_date: new Date(Date.now() + 30 * DAY).toISOString(),
          plan: { plan_code: "PLN_premium_m" },
          customer: { customer_code: customer },
        }),
      );
      expect(await tierOf(u.cookie)).toBe("premium");
      expect(await countWhere("select count(*) as n from subscriptions where user_id = ?", u.id)).toBe(1);

      await dieThenRetry(
        point,
        await paystackDelivery("charge.success", {
          reference: `ref_${u.id.slice(0, 8)}`,
          amount: 250000,
          customer: { customer_code: customer },
          paid_at: new Date().toISOString(),
        }),
      );
      expect(await notices(u.id, "Payment received")).toBe(1);
      expect(await tierOf(u.cookie)).toBe("premium");
    });
  }
});
