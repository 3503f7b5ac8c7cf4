// The payment webhook path (issue 29; docs/decisions/055-webhooks-and-files-survive-a-crash.md): a person's
// subscription is past due; Stripe delivers `invoice.paid`. Killed at any webhook.* point and retried as Stripe
// does (the same event, signed again), the subscription must be active with the paid period, once, and the person
// must have exactly one receipt.
import Stripe from "stripe";
import { call, ok, verifiedPerson } from "../client.mjs";

/** The served build signs and checks webhooks with this secret (bench/crash/run.mjs sets it). */
export const WEBHOOK_SECRET = "whsec_crash_bench";
const DAY = 24 * 3600 * 1000;

function deliver(server, event) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return call(server, "/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });
}

const receipts = async (server, ctx) =>
  (await ok(await call(server, "/api/notifications?limit=50", { cookie: ctx.person.cookie }), "notifications")).notifications.filter(
    (n) => n.title === "Payment received",
  ).length;

export default {
  name: "payment webhook",
  points: "webhook.",
  async setup(server) {
    const person = await verifiedPerson(server);
    const sub = `sub_crash_${person.id.slice(0, 8)}`;
    const customer = `cus_crash_${person.id.slice(0, 8)}`;
    const created = Math.floor(Date.now() / 1000) - 60;
    const pastDue = {
      id: `evt_setup_${sub}`,
      object: "event",
      type: "customer.subscription.created",
      created,
      data: {
        object: {
          id: sub,
          object: "subscription",
          customer,
          status: "past_due",
          cancel_at_period_end: false,
          trial_end: null,
          metadata: { userId: person.id },
          items: { data: [{ price: { id: "price_premium_monthly" }, current_period_end: Math.floor((Date.now() + DAY) / 1000) }] },
        },
      },
    };
    await ok(await deliver(server, pastDue), "setup: subscription past due");
    const paidUntil = Math.floor((Date.now() + 31 * DAY) / 1000);
    const event = {
      id: `evt_paid_${sub}`,
      object: "event",
      type: "invoice.paid",
      created: created + 30,
      data: {
        object: {
          id: `in_${sub}`,
          object: "invoice",
          customer,
          currency: "ngn",
          amount_due: 250000,
          amount_paid: 250000,
          parent: { subscription_details: { subscription: sub } },
          lines: { data: [{ period: { end: paidUntil } }] },
        },
      },
    };
    return { person, event, paidUntil, receiptsBefore: await receipts(server, { person }) };
  },
  async act(server, ctx) {
    await (await deliver(server, ctx.event)).text();
  },
  /** Stripe retries a delivery that got no 2xx: the same event, signed again. */
  async retry(server, ctx) {
    ctx.retried = await ok(await deliver(server, ctx.event), "retried delivery");
  },
  async check(server, ctx) {
    const status = await ok(await call(server, "/api/subscription/status", { cookie: ctx.person.cookie }), "status");
    const got = await receipts(server, ctx);
    const paidUntil = new Date(ctx.paidUntil * 1000).toISOString();
    const survived =
      status.tier === "premium" && status.status === "active" && status.nextBilling === paidUntil && got === ctx.receiptsBefore + 1;
    return {
      survived,
      checked: `retry ${JSON.stringify(ctx.retried)}; subscription ${status.status}, tier ${status.tier}, paid to the invoice's period ${status.nextBilling === paidUntil ? "yes" : "no"}; receipts ${got - ctx.receiptsBefore}`,
    };
  },
};
