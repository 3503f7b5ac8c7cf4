// Billing through the real Worker and D1: checkout, Stripe webhooks signed with Stripe's SDK test helper
// through the real handler, the trial and the clock. Stripe's API is faked only at the fetch edge.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOCAL_TEST_CARDS } from "../../core/billing";
import { createDb } from "../../db";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { createServer } from "../server";
import { signPaystackPayload } from "../services/paystack";
import { billingHealth, confirmLocalPayment, createSubscription, handleStripeWebhook, runBillingClock } from ".";
import { paystackSigningKey, webhookSecret } from "./config";

const appEnv = env as unknown as AppEnv;
const db = createDb(appEnv);
const DAY = 24 * 3600 * 1000;
const cryptoProvider = Stripe.createSubtleCryptoProvider();

afterEach(() => vi.restoreAllMocks());

const verifiedUser = () => verifiedSession("0805");

async function status(cookie: string) {
  const res = await call("/api/subscription/status", { cookie });
  expect(res.status).toBe(200);
  return res.json<Record<string, unknown>>();
}

async function tierOf(cookie: string) {
  return (await (await call("/api/me", { cookie })).json<{ user: { tier: string } }>()).user.tier;
}

let eventSeq = 0;
/** A Stripe event posted to /webhooks/stripe, signed with Stripe's own test helper. */
async function postEvent(
  type: string,
  object: unknown,
  opts: { created?: number; id?: string; signature?: string; tamper?: boolean } = {},
) {
  const event = {
    id: opts.id ?? `evt_test_${++eventSeq}_${Date.now()}`,
    object: "event",
    type,
    created: opts.created ?? Math.floor(Date.now() / 1000),
    data: { object },
  };
  const payload = JSON.stringify(event);
  const secret = (await webhookSecret(appEnv)) as string;
  const signature = opts.signature ?? (await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider }));
  const body = opts.tamper ? payload.replace(type, "invoice.paid") : payload;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature) headers["stripe-signature"] = signature;
  return call("/webhooks/stripe", { method: "POST", body, headers });
}

function subscription(
  id: string,
  customer: string,
  userId: string,
  status: string,
  extra: { price?: string; periodEnd?: number; cancel?: boolean } = {},
) {
  return {
    id,
    object: "subscription",
    customer,
    status,
    cancel_at_period_end: extra.cancel ?? false,
    trial_end: null,
    metadata: { userId },
    items: {
      data: [
        {
          price: { id: extra.price ?? "price_premium_monthly" },
          current_period_end: extra.periodEnd ?? Math.floor((Date.now() + 30 * DAY) / 1000),
        },
      ],
    },
  };
}

function invoice(subId: string, customer: string, amountNgn: number, paid: boolean) {
  return {
    id: `in_${subId}_${++eventSeq}`,
    object: "invoice",
    customer,
    currency: "ngn",
    amount_due: amountNgn * 100,
    amount_paid: paid ? amountNgn * 100 : 0,
    parent: { subscription_details: { subscription: subId } },
    lines: { data: [{ period: { end: Math.floor((Date.now() + 30 * DAY) / 1000) } }] },
  };
}

async function notificationsOf(userId: string) {
  const r = await env.DB.prepare("select title, content from notifications where user_id = ? order by created_at")
    .bind(userId)
    .all<{ title: string; content: string }>();
  return r.results;
}
async function outboxTo(phone: string) {
  const r = await env.DB.prepare('select body from outbound_messages where "to" = ? order by created_at')
    .bind(phone)
    .all<{ body: string }>();
  return r.results.map((x) => x.body);
}

/** A paying person: their subscription made through the API, paid with the local stand-in's success card. */
async function payingUser() {
  const u = await verifiedUser();
  const res = await call("/api/create-subscription", { method: "POST", cookie: u.cookie, json: { priceId: "price_premium_monthly" } });
  expect(res.status).toBe(200);
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
  return { ...u, sub: row!.sub, cus: row!.cus };
}

describe("POST /api/create-subscription", () => {
  it("is only for verified people, and refuses an unknown price id", async () => {
    const anon = await anonymousSession();
    const refused = await call("/api/create-subscription", {
      method: "POST",
      cookie: anon.cookie,
      json: { priceId: "price_premium_monthly" },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ error: string }>()).error).toBe("This feature requires phone verification");
    const u = await verifiedUser();
    const unknown = await call("/api/create-subscription", { method: "POST", cookie: u.cookie, json: { priceId: "price_free_forever" } });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "Unknown price", code: "unknown_price" });
    const missing = await call("/api/create-subscription", { method: "POST", cookie: u.cookie, json: {} });
    expect(missing.status).toBe(400);
  });

  it("lets one person start only CHECKOUTS_PER_PERSON_PER_HOUR payment sessions an hour; others are not held up", async () => {
    const u = await verifiedUser();
    const checkout = (cookie: string) =>
      call("/api/create-subscription", { method: "POST", cookie, json: { priceId: "price_premium_monthly" } });
    const limit = Number(appEnv.CHECKOUTS_PER_PERSON_PER_HOUR);
    for (let i = 0; i < limit; i++) expect((await checkout(u.cookie)).status).toBe(200);
    const refused = await checkout(u.cookie);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "Too many payment attempts. Please try again later." });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await verifiedUser();
    expect((await checkout(other.cookie)).status).toBe(200);
  });

  it("100 parallel checkouts from one person start exactly CHECKOUTS_PER_PERSON_PER_HOUR sessions; the rest 429 with Retry-After", async () => {
    // docs/decisions/047-limits-taken-atomically.md: the limit is one conditional upsert (workers/limits).
    const u = await verifiedUser();
    const limit = Number(appEnv.CHECKOUTS_PER_PERSON_PER_HOUR);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        call("/api/create-subscription", { method: "POST", cookie: u.cookie, json: { priceId: "price_premium_monthly" } }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - limit);
    expect(answers.filter((r) => r.status === 429).every((r) => Number(r.headers.get("retry-after")) > 0)).toBe(true);
  });

  it("makes one Stripe customer per person (our user id in its metadata) and an incomplete subscription", async () => {
    const u = await verifiedUser();
    const user = (await db.query.users.findFirst({ where: (t, { eq }) => eq(t.id, u.id) }))!;
    const stripeEnv = {
      ...appEnv,
      STRIPE_SECRET_KEY: "sk_test_linkup",
      STRIPE_WEBHOOK_SECRET: "whsec_test",
      STRIPE_PUBLISHABLE_KEY: "pk_test_linkup",
    } as AppEnv;
    const sent: { url: string; body: URLSearchParams; auth: string | null }[] = [];
    let n = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      sent.push({ url, body: new URLSearchParams(String(init?.body ?? "")), auth: new Headers(init?.headers).get("authorization") });
      if (url.endsWith("/v1/customers")) return Response.json({ id: "cus_T1", object: "customer", metadata: { userId: u.id } });
      n++;
      return Response.json({
        ...subscription(`sub_T${n}`, "cus_T1", u.id, "incomplete"),
        latest_invoice: {
          id: `in_T${n}`,
          object: "invoice",
          confirmation_secret: { client_secret: `pi_T${n}_secret_abc`, type: "payment_intent" },
        },
      });
    });
    const first = await createSubscription(stripeEnv, db, user, "price_premium_monthly");
    expect(first).toEqual({ clientSecret: "pi_T1_secret_abc", provider: "stripe" });
    // Changing the plan asks for a new payment session; the customer is reused.
    const second = await createSubscription(stripeEnv, db, user, "price_enterprise_monthly");
    expect(second.clientSecret).toBe("pi_T2_secret_abc");
    const customers = sent.filter((s) => s.url === "https://api.stripe.com/v1/customers");
    expect(customers).toHaveLength(1);
    expect(customers[0].body.get("metadata[userId]")).toBe(u.id);
    expect(customers[0].auth).toBe("Bearer sk_test_linkup");
    const subs = sent.filter((s) => s.url === "https://api.stripe.com/v1/subscriptions");
    expect(subs).toHaveLength(2);
    expect(subs[0].body.get("payment_behavior")).toBe("default_incomplete");
    expect(subs[0].body.get("customer")).toBe("cus_T1");
    expect(subs[0].body.get("items[0][price]")).toBe("price_premium_monthly");
    expect(subs[1].body.get("items[0][price]")).toBe("price_enterprise_monthly");
    expect(await status(u.cookie)).toMatchObject({ isActive: false, tier: "free" });
  });

  it("refuses clearly outside development when Stripe is not configured", async () => {
    const u = await verifiedUser();
    const user = (await db.query.users.findFirst({ where: (t, { eq }) => eq(t.id, u.id) }))!;
    const production = { ...appEnv, ENVIRONMENT: "production" } as AppEnv;
    await expect(createSubscription(production, db, user, "price_premium_monthly")).rejects.toMatchObject({
      code: "payments_not_configured",
      message: "Payments are not configured",
    });
    // A Stripe key alone is not enough: without the webhook secret nobody would ever become Premium.
    const keyOnly = { ...production, STRIPE_SECRET_KEY: "sk_test_linkup", STRIPE_PUBLISHABLE_KEY: "pk_test_linkup" } as AppEnv;
    await expect(createSubscription(keyOnly, db, user, "price_premium_monthly")).rejects.toMatchObject({
      code: "payments_not_configured",
      kind: "unavailable",
    });
    expect(billingHealth(keyOnly)).toEqual({ mode: "stripe", ready: false, missing: ["STRIPE_WEBHOOK_SECRET"] });
    expect(billingHealth(production)).toEqual({ mode: "unconfigured", ready: false, missing: ["STRIPE_SECRET_KEY"] });
    const webhook = await handleStripeWebhook(production, db, "{}", "t=1,v1=00");
    expect(webhook.status).toBe(503);
  });
});

describe("local checkout (development without Stripe)", () => {
  it("the success card makes the person Premium through the webhook, with a receipt in the centre and on WhatsApp", async () => {
    const u = await payingUser();
    expect(await tierOf(u.cookie)).toBe("premium");
    const s = await status(u.cookie);
    expect(s).toMatchObject({
      isActive: true,
      tier: "premium",
      status: "active",
      cancelAtPeriodEnd: false,
      trialEndsAt: null,
      interval: "monthly",
    });
    expect(Date.parse(s.nextBilling as string)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect((await notificationsOf(u.id)).map((n) => n.title)).toContain("Payment received");
    expect((await outboxTo(u.phone)).some((b) => b.includes("We received ₦2,500 for LinkUp Premium"))).toBe(true);
  });

  it("the decline card answers the provider's message and leaves the person on Community, with a message", async () => {
    const u = await verifiedUser();
    const { clientSecret } = await (
      await call("/api/create-subscription", { method: "POST", cookie: u.cookie, json: { priceId: "price_premium_yearly" } })
    ).json<{ clientSecret: string }>();
    const res = await call("/api/dev/payments/confirm", {
      method: "POST",
      cookie: u.cookie,
      json: { clientSecret, cardNumber: LOCAL_TEST_CARDS.decline },
    });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ error: "Your card was declined." });
    expect(await tierOf(u.cookie)).toBe("free");
    expect((await notificationsOf(u.id)).map((n) => n.title)).toContain("Payment failed");
    expect((await outboxTo(u.phone)).some((b) => b.includes("We could not take ₦25,000 for LinkUp Premium"))).toBe(true);
  });

  it("a payment session is only good for the person it was made for", async () => {
    const a = await verifiedUser();
    const b = await verifiedUser();
    const { clientSecret } = await (
      await call("/api/create-subscription", { method: "POST", cookie: a.cookie, json: { priceId: "price_premium_monthly" } })
    ).json<{ clientSecret: string }>();
    const res = await call("/api/dev/payments/confirm", {
      method: "POST",
      cookie: b.cookie,
      json: { clientSecret, cardNumber: LOCAL_TEST_CARDS.success },
    });
    expect(res.status).toBe(400);
    expect(await tierOf(b.cookie)).toBe("free");
    const forged = await call("/api/dev/payments/confirm", {
      method: "POST",
      cookie: a.cookie,
      json: { clientSecret: `${clientSecret.slice(0, -2)}00`, cardNumber: LOCAL_TEST_CARDS.success },
    });
    expect(forged.status).toBe(400);
  });

  it("cancel keeps Premium to the period's end and can be resumed", async () => {
    const u = await payingUser();
    const cancelled = await call("/api/subscription/cancel", { method: "POST", cookie: u.cookie });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ tier: "premium", isActive: true, cancelAtPeriodEnd: true, nextBilling: null });
    const resumed = await call("/api/subscription/resume", { method: "POST", cookie: u.cookie });
    expect(await resumed.json()).toMatchObject({ tier: "premium", cancelAtPeriodEnd: false });
  });

  it("an upgrade is at once; a downgrade waits for the next billing cycle", async () => {
    const u = await payingUser();
    const up = await call("/api/subscription/change", {
      method: "POST",
      cookie: u.cookie,
      json: { tier: "enterprise", interval: "monthly" },
    });
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ tier: "enterprise" });
    expect(await tierOf(u.cookie)).toBe("enterprise");
    const down = await call("/api/subscription/change", {
      method: "POST",
      cookie: u.cookie,
      json: { tier: "premium", interval: "monthly" },
    });
    expect(await down.json()).toMatchObject({ tier: "enterprise", pendingTier: "premium" });
    expect(await tierOf(u.cookie)).toBe("enterprise");
    // The renewal: Stripe moves the period on, and the lower price takes over.
    const renewed = subscription(u.sub, u.cus, u.id, "active", {
      price: "price_premium_monthly",
      periodEnd: Math.floor((Date.now() + 60 * DAY) / 1000),
    });
    expect((await postEvent("customer.subscription.updated", renewed, { created: Math.floor(Date.now() / 1000) + 5 })).status).toBe(200);
    expect(await tierOf(u.cookie)).toBe("premium");
    expect(await status(u.cookie)).toMatchObject({ pendingTier: null });
  });
});

describe("POST /webhooks/stripe", () => {
  it("refuses unsigned and tampered requests with 400", async () => {
    const u = await verifiedUser();
    const obj = subscription("sub_forged", "cus_forged", u.id, "active");
    const unsigned = await postEvent("customer.subscription.created", obj, { signature: "" });
    expect(unsigned.status).toBe(400);
    const wrong = await postEvent("customer.subscription.created", obj, {
      signature: `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`,
    });
    expect(wrong.status).toBe(400);
    const tampered = await postEvent("customer.subscription.created", obj, { tamper: true });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual({ error: "Invalid webhook signature", code: "webhook_signature" });
    expect(await tierOf(u.cookie)).toBe("free");
  });

  it("follows the lifecycle created → active → deleted, and acknowledges unknown types", async () => {
    const u = await verifiedUser();
    const t = Math.floor(Date.now() / 1000);
    expect(
      (await postEvent("customer.subscription.created", subscription("sub_life", "cus_life", u.id, "incomplete"), { created: t })).status,
    ).toBe(200);
    expect(await tierOf(u.cookie)).toBe("free");
    await postEvent(
      "customer.subscription.updated",
      subscription("sub_life", "cus_life", u.id, "active", { price: "price_enterprise_yearly" }),
      { created: t + 1 },
    );
    expect(await tierOf(u.cookie)).toBe("enterprise");
    expect(await status(u.cookie)).toMatchObject({ tier: "enterprise", interval: "yearly", status: "active" });
    const unknown = await postEvent("customer.tax_id.created", { id: "txi_1", object: "tax_id" });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ received: true, ignored: true });
    await postEvent(
      "customer.subscription.deleted",
      subscription("sub_life", "cus_life", u.id, "canceled", { price: "price_enterprise_yearly" }),
      { created: t + 2 },
    );
    expect(await tierOf(u.cookie)).toBe("free");
    expect((await notificationsOf(u.id)).map((n) => n.title)).toContain("LinkUp Enterprise has ended");
  });

  it("applies a replayed event once", async () => {
    const u = await payingUser();
    const paid = invoice(u.sub, u.cus, 2500, true);
    const before = (await notificationsOf(u.id)).filter((n) => n.title === "Payment received").length;
    const first = await postEvent("invoice.paid", paid, { id: "evt_replayed_once" });
    const again = await postEvent("invoice.paid", paid, { id: "evt_replayed_once" });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect((await notificationsOf(u.id)).filter((n) => n.title === "Payment received").length).toBe(before + 1);
  });

  it("never moves a person back for an event that arrives late", async () => {
    const u = await verifiedUser();
    const t = Math.floor(Date.now() / 1000);
    await postEvent("customer.subscription.updated", subscription("sub_late", "cus_late", u.id, "active"), { created: t + 10 });
    // Older events delivered afterwards: the creation (incomplete) and a cancellation that was later undone.
    await postEvent("customer.subscription.created", subscription("sub_late", "cus_late", u.id, "incomplete"), { created: t });
    await postEvent("customer.subscription.updated", subscription("sub_late", "cus_late", u.id, "active", { cancel: true }), {
      created: t + 5,
    });
    expect(await status(u.cookie)).toMatchObject({ tier: "premium", status: "active", cancelAtPeriodEnd: false });
    // Once deleted, a late 'updated' does not bring it back.
    await postEvent("customer.subscription.deleted", subscription("sub_late", "cus_late", u.id, "canceled"), { created: t + 20 });
    await postEvent("customer.subscription.updated", subscription("sub_late", "cus_late", u.id, "active"), { created: t + 15 });
    expect(await tierOf(u.cookie)).toBe("free");
  });

  it("a failed renewal keeps Premium through the grace period, then back to free by the clock, with a message each time", async () => {
    const u = await payingUser();
    const failed = await postEvent("invoice.payment_failed", invoice(u.sub, u.cus, 2500, false));
    expect(failed.status).toBe(200);
    const s = await status(u.cookie);
    expect(s).toMatchObject({ tier: "premium", isActive: true, status: "past_due" });
    expect(Date.parse(s.graceEndsAt as string)).toBeGreaterThan(Date.now() + 2 * DAY);
    expect((await outboxTo(u.phone)).some((b) => b.includes("We could not take ₦2,500 for LinkUp Premium. You keep Premium until"))).toBe(
      true,
    );
    await postEvent("invoice.payment_failed", invoice(u.sub, u.cus, 2500, false));
    expect((await notificationsOf(u.id)).filter((n) => n.title === "Payment failed")).toHaveLength(2);
    // The grace period does not restart with each retry, and ends by the server's clock.
    const ended = await runBillingClock(appEnv, db, new Date(Date.now() + 4 * DAY));
    expect(ended.ended).toBeGreaterThanOrEqual(1);
    expect(await tierOf(u.cookie)).toBe("free");
    expect((await notificationsOf(u.id)).map((n) => n.title)).toContain("LinkUp Premium has ended");
  });

  it("a paid invoice after a failure ends the grace period", async () => {
    const u = await payingUser();
    await postEvent("invoice.payment_failed", invoice(u.sub, u.cus, 2500, false));
    await postEvent("invoice.paid", invoice(u.sub, u.cus, 2500, true));
    expect(await status(u.cookie)).toMatchObject({ tier: "premium", status: "active", graceEndsAt: null });
    await runBillingClock(appEnv, db, new Date(Date.now() + 4 * DAY));
    expect(await tierOf(u.cookie)).toBe("premium");
  });
});

describe("the 7-day trial", () => {
  it("needs a verified phone, never an anonymous session", async () => {
    const anon = await anonymousSession();
    const res = await call("/api/subscription/trial", { method: "POST", cookie: anon.cookie });
    expect(res.status).toBe(403);
    expect(await tierOf(anon.cookie)).toBe("free");
  });

  it("tells the person in the language they saved, in the notification centre and by WhatsApp", async () => {
    const u = await verifiedUser();
    const saved = await call("/api/me", { method: "PATCH", cookie: u.cookie, json: { language: "hausa" } });
    expect(saved.status).toBe(200);
    expect((await call("/api/subscription/trial", { method: "POST", cookie: u.cookie })).status).toBe(200);
    const notices = await notificationsOf(u.id);
    expect(notices.map((n) => n.title)).toContain("Gwajin Premium ɗinka ya fara");
    expect(notices.map((n) => n.title)).not.toContain("Your Premium trial has started");
    expect(
      (await outboxTo(u.phone)).some((b) => b.startsWith("LinkUp: Gwajin Premium ɗinka ya fara. Ji daɗin LinkUp Premium kyauta")),
    ).toBe(true);
  });

  it("is once per phone number, and ends by the server's clock with a reminder a day before", async () => {
    const u = await verifiedUser();
    expect(await status(u.cookie)).toMatchObject({ trialAvailable: true });
    const res = await call("/api/subscription/trial", { method: "POST", cookie: u.cookie });
    expect(res.status).toBe(200);
    const s = await res.json<{ tier: string; trialEndsAt: string; trialAvailable: boolean; source: string }>();
    expect(s).toMatchObject({ tier: "premium", source: "trial", trialAvailable: false });
    expect(Date.parse(s.trialEndsAt) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    expect(await tierOf(u.cookie)).toBe("premium");
    const twice = await call("/api/subscription/trial", { method: "POST", cookie: u.cookie });
    expect(twice.status).toBe(409);

    expect((await runBillingClock(appEnv, db, new Date(Date.now() + 5 * DAY))).reminded).toBe(0);
    await runBillingClock(appEnv, db, new Date(Date.now() + 6.5 * DAY));
    expect((await notificationsOf(u.id)).filter((n) => n.title === "Your Premium trial ends tomorrow")).toHaveLength(1);
    await runBillingClock(appEnv, db, new Date(Date.now() + 6.6 * DAY));
    expect((await notificationsOf(u.id)).filter((n) => n.title === "Your Premium trial ends tomorrow")).toHaveLength(1);
    expect(await tierOf(u.cookie)).toBe("premium");

    await runBillingClock(appEnv, db, new Date(Date.now() + 7 * DAY + 60_000));
    expect(await tierOf(u.cookie)).toBe("free");
    expect((await notificationsOf(u.id)).map((n) => n.title)).toContain("LinkUp Premium has ended");
    // Signing out and in again, or a fresh account on the same phone, gets no second trial.
    const again = await call("/api/subscription/trial", { method: "POST", cookie: u.cookie });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "The free trial has already been used for this phone number", code: "trial_used" });
  });

  it("ends on read once its time has passed, even before the clock runs", async () => {
    const u = await verifiedUser();
    await call("/api/subscription/trial", { method: "POST", cookie: u.cookie });
    const past = Date.now() - 1000;
    await env.DB.prepare("update subscriptions set trial_ends_at = ? where user_id = ?").bind(past, u.id).run();
    await env.DB.prepare("update users set tier_expires_at = ? where id = ?").bind(past, u.id).run();
    expect(await tierOf(u.cookie)).toBe("free");
  });
});

describe("complimentary tier (staff)", () => {
  it("an admin grants a tier with an end date, recorded in the audit log; others are refused", async () => {
    const admin = await adminSession();
    const person = await verifiedUser();
    const endsAt = new Date(Date.now() + 30 * DAY).toISOString();
    const body = { userId: person.id, tier: "premium", endsAt, reason: "Paid by phone with support" };
    const refused = await call("/api/admin/subscriptions/complimentary", { method: "POST", cookie: person.cookie, json: body });
    expect(refused.status).toBe(403);
    const past = await call("/api/admin/subscriptions/complimentary", {
      method: "POST",
      cookie: admin.cookie,
      json: { ...body, endsAt: "2020-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
    const res = await call("/api/admin/subscriptions/complimentary", { method: "POST", cookie: admin.cookie, json: body });
    expect(res.status).toBe(201);
    expect(await tierOf(person.cookie)).toBe("premium");
    expect(await status(person.cookie)).toMatchObject({ source: "complimentary", isActive: true });
    const log = await env.DB.prepare("select actor_id, action, target, detail from audit_log where target = ?")
      .bind(person.id)
      .first<Record<string, string>>();
    expect(log).toMatchObject({ actor_id: admin.id, action: "billing.complimentary_granted" });
    expect(JSON.parse(log!.detail)).toMatchObject({ tier: "premium", endsAt, reason: "Paid by phone with support" });
    await runBillingClock(appEnv, db, new Date(Date.now() + 31 * DAY));
    expect(await tierOf(person.cookie)).toBe("free");
  });
});

describe("complimentary grants are bounded (issue 27 finding 11)", () => {
  const grant = (cookie: string, userId: string, endsAt: Date, tier = "enterprise") =>
    call("/api/admin/subscriptions/complimentary", {
      method: "POST",
      cookie,
      json: { userId, tier, endsAt: endsAt.toISOString(), reason: "Because" },
    });

  it("staff cannot grant themselves a tier, even for a day; another admin can grant it to them", async () => {
    const admin = await adminSession();
    const staff = await verifiedUser();
    expect(
      (await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } })).status,
    ).toBe(200);
    for (const [who, cookie] of [
      [staff.id, staff.cookie],
      [admin.id, admin.cookie],
    ]) {
      const self = await grant(cookie, who, new Date(Date.now() + DAY));
      expect(self.status).toBe(403);
      expect(await self.json()).toEqual({
        error: "You cannot grant a tier to yourself. Ask another admin to grant it.",
        code: "self_grant",
      });
    }
    expect(await tierOf(staff.cookie)).toBe("free");
    expect((await grant(admin.cookie, staff.id, new Date(Date.now() + 30 * DAY))).status).toBe(201);
    expect(await tierOf(staff.cookie)).toBe("enterprise");
  });

  it("a grant past 90 days is refused (2099 included); 90 days is granted", async () => {
    const admin = await adminSession();
    const person = await verifiedUser();
    for (const endsAt of [new Date(Date.now() + 92 * DAY), new Date("2099-12-31T23:59:59Z")]) {
      const res = await grant(admin.cookie, person.id, endsAt);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "A complimentary tier can be granted for at most 90 days", code: "grant_too_long" });
    }
    expect(await tierOf(person.cookie)).toBe("free");
    expect((await grant(admin.cookie, person.id, new Date(Date.now() + 90 * DAY))).status).toBe(201);
  });
});

describe("Premium's priority support queue", () => {
  it("staff see open call-back requests of paying people first, then the oldest", async () => {
    const admin = await adminSession();
    const free = await verifiedUser();
    const paying = await payingUser();
    const old = Date.now() - 3600_000;
    await env.DB.prepare(
      "insert into support_tickets (id, user_id, phone, message, category, created_at) values (?, ?, ?, ?, 'technical', ?)",
    )
      .bind("t-free", free.id, free.phone, "My messages do not send", old)
      .run();
    // Left by phone only (the support bot's call-back form), matched to the paying account that owns the phone.
    await env.DB.prepare(
      "insert into support_tickets (id, user_id, phone, message, category, created_at) values (?, null, ?, ?, 'technical', ?)",
    )
      .bind("t-paid", paying.phone, "Please call me back", Date.now())
      .run();
    expect((await call("/api/support/tickets", { cookie: free.cookie })).status).toBe(403);
    const res = await call("/api/support/tickets", { cookie: admin.cookie });
    expect(res.status).toBe(200);
    const { tickets } = await res.json<{ tickets: { id: string; priority: boolean; tier: string }[] }>();
    const ours = tickets.filter((t) => t.id === "t-free" || t.id === "t-paid");
    expect(ours.map((t) => [t.id, t.tier, t.priority])).toEqual([
      ["t-paid", "premium", true],
      ["t-free", "free", false],
    ]);
  });
});

describe("Paystack (BILLING_PROVIDER=paystack)", () => {
  const PAYSTACK_KEY = "sk_test_paystack_linkup";
  const paystackEnv = {
    ...appEnv,
    ENVIRONMENT: undefined,
    BILLING_PROVIDER: "paystack",
    PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
    PAYSTACK_PLAN_PREMIUM_MONTHLY: "PLN_premium_m",
    PAYSTACK_PLAN_PREMIUM_YEARLY: "PLN_premium_y",
    PAYSTACK_PLAN_ENTERPRISE_MONTHLY: "PLN_enterprise_m",
    PAYSTACK_PLAN_ENTERPRISE_YEARLY: "PLN_enterprise_y",
  } as unknown as AppEnv;
  const server = createServer(async () => new Response("page"));

  async function post(body: string, signature: string | null, bindings: AppEnv = paystackEnv) {
    const ctx = createExecutionContext();
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signature !== null) headers["x-paystack-signature"] = signature;
    const res = await server.fetch(
      new Request("http://localhost:5173/webhooks/paystack", { method: "POST", body, headers }),
      bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }
  async function paystackEvent(event: string, data: unknown) {
    const body = JSON.stringify({ event, data });
    return post(body, await signPaystackPayload(body, PAYSTACK_KEY));
  }
  const subscriptionData = (code: string, customer: string, status: string, plan = "PLN_premium_m") => ({
    subscription_code: code,
    status,
    next_payment_date: new Date(Date.now() + 30 * DAY).toISOString(),
    plan: { plan_code: plan },
    customer: { customer_code: customer },
  });

  /** A verified person with a Paystack customer and a checkout started (Paystack faked at fetch). */
  async function checkout() {
    const u = await verifiedUser();
    const user = (await db.query.users.findFirst({ where: (t, { eq }) => eq(t.id, u.id) }))!;
    const customer = `CUS_${u.id.slice(0, 8)}`;
    const sent: { url: string; method: string; body: Record<string, unknown>; auth: string | null }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      sent.push({ url, method: init?.method ?? "GET", body, auth: new Headers(init?.headers).get("authorization") });
      if (url === "https://api.paystack.co/customer")
        return Response.json({ status: true, data: { customer_code: customer, email: body.email } });
      if (url === "https://api.paystack.co/transaction/initialize")
        return Response.json({
          status: true,
          data: { authorization_url: "https://checkout.paystack.com/abc123", access_code: "abc123", reference: `ref_${u.id.slice(0, 8)}` },
        });
      return Response.json({ status: false, message: "Not faked" }, { status: 404 });
    });
    const session = await createSubscription(paystackEnv, db, user, "PLN_premium_m");
    vi.restoreAllMocks();
    return { ...u, customer, session, sent };
  }

  it("checks out with a Paystack customer and a transaction for the plan, in kobo, back to /chat", async () => {
    const { session, sent, customer, id } = await checkout();
    expect(session).toEqual({ clientSecret: "abc123", provider: "paystack", redirectUrl: "https://checkout.paystack.com/abc123" });
    expect(sent.map((s) => s.url)).toEqual(["https://api.paystack.co/customer", "https://api.paystack.co/transaction/initialize"]);
    expect(sent.every((s) => s.auth === `Bearer ${PAYSTACK_KEY}`)).toBe(true);
    expect(sent[0].body).toMatchObject({ metadata: { userId: id } });
    expect(sent[1].body).toMatchObject({
      email: sent[0].body.email,
      plan: "PLN_premium_m",
      amount: "250000",
      currency: "NGN",
      callback_url: "http://localhost:5173/chat?subscription=success",
    });
    expect(customer).toMatch(/^CUS_/);
    const user = (await db.query.users.findFirst({ where: (t, { eq }) => eq(t.id, id) }))!;
    await expect(createSubscription(paystackEnv, db, user, "price_premium_monthly")).rejects.toMatchObject({
      code: "unknown_price",
      kind: "invalid",
    });
  });

  it("follows signed events once: subscription.create makes Premium, a receipt per charge, a failed invoice's grace, disable ends it", async () => {
    const u = await checkout();
    expect(await tierOf(u.cookie)).toBe("free");
    const created = await paystackEvent("subscription.create", subscriptionData(`SUB_1${u.id.slice(0, 6)}`, u.customer, "active"));
    expect(created.status).toBe(200);
    expect(await tierOf(u.cookie)).toBe("premium");
    const charge = {
      reference: `ref_${u.id.slice(0, 8)}`,
      amount: 250000,
      customer: { customer_code: u.customer },
      paid_at: new Date().toISOString(),
    };
    expect(await (await paystackEvent("charge.success", charge)).json()).toEqual({ received: true });
    // The same delivery again is recognised and not applied twice: one receipt.
    expect(await (await paystackEvent("charge.success", charge)).json()).toEqual({ received: true, duplicate: true });
    expect((await notificationsOf(u.id)).filter((n) => n.content.includes("2,500"))).toHaveLength(1);
    const sub = `SUB_1${u.id.slice(0, 6)}`;
    const failed = await paystackEvent("invoice.payment_failed", {
      invoice_code: "INV_1",
      amount: 250000,
      subscription: { subscription_code: sub },
      customer: { customer_code: u.customer },
    });
    expect(failed.status).toBe(200);
    expect(await status(u.cookie)).toMatchObject({ tier: "premium", status: "past_due" });
    expect((await status(u.cookie)).graceEndsAt).toBeTruthy();
    await paystackEvent("subscription.disable", subscriptionData(sub, u.customer, "complete"));
    expect(await tierOf(u.cookie)).toBe("free");
    // Unknown events are acknowledged and ignored.
    expect(await (await paystackEvent("transfer.success", { id: 1 })).json()).toEqual({ received: true, ignored: true });
  });

  it("refuses unsigned, tampered and malformed webhooks, and refuses all when Paystack is not the provider", async () => {
    const u = await checkout();
    const body = JSON.stringify({ event: "subscription.create", data: subscriptionData("SUB_X", u.customer, "active") });
    const signature = await signPaystackPayload(body, PAYSTACK_KEY);
    expect((await post(body, null)).status).toBe(400);
    expect((await post(body.replace("SUB_X", "SUB_Y"), signature)).status).toBe(400);
    expect((await post(body, await signPaystackPayload(body, "sk_test_other"))).status).toBe(400);
    const malformed = JSON.stringify({ event: "subscription.create", data: { subscription_code: "SUB_Z" } });
    const bad = await post(malformed, await signPaystackPayload(malformed, PAYSTACK_KEY));
    expect(bad.status).toBe(400);
    expect(await tierOf(u.cookie)).toBe("free");
    const stripeEnv = { ...paystackEnv, BILLING_PROVIDER: "" } as unknown as AppEnv;
    expect((await post(body, signature, stripeEnv)).status).toBe(503);
  });

  it("in development without a key, the local stand-in pays with Paystack-shaped events through the Paystack handler", async () => {
    const localPaystack = { ...appEnv, BILLING_PROVIDER: "paystack" } as unknown as AppEnv;
    const u = await verifiedUser();
    const user = (await db.query.users.findFirst({ where: (t, { eq }) => eq(t.id, u.id) }))!;
    const session = await createSubscription(localPaystack, db, user, "price_premium_monthly");
    expect(session.provider).toBe("local");
    const before = await env.DB.prepare("select count(*) as n from stripe_events where id like 'paystack_%'").first<{ n: number }>();
    expect(
      await confirmLocalPayment(localPaystack, db, { userId: u.id, clientSecret: session.clientSecret, cardNumber: "4242424242424242" }),
    ).toEqual({
      ok: true,
    });
    expect(await tierOf(u.cookie)).toBe("premium");
    expect((await notificationsOf(u.id)).some((n) => n.content.includes("2,500"))).toBe(true);
    // Both of its events (charge.success, subscription.create) went through the Paystack handler.
    const after = await env.DB.prepare("select count(*) as n from stripe_events where id like 'paystack_%'").first<{ n: number }>();
    expect((after?.n ?? 0) - (before?.n ?? 0)).toBe(2);
    // A request signed with the local key is refused once this is not development.
    const body = JSON.stringify({ event: "subscription.create", data: subscriptionData("SUB_L", "CUS_L", "active") });
    const localKey = (await paystackSigningKey(localPaystack)) as string;
    expect(
      (await post(body, await signPaystackPayload(body, localKey), { ...localPaystack, ENVIRONMENT: undefined } as unknown as AppEnv))
        .status,
    ).toBe(503);
  });

  it("names what Paystack still needs in /api/health", async () => {
    const noPlans = { ...paystackEnv, PAYSTACK_PLAN_ENTERPRISE_YEARLY: "" } as unknown as AppEnv;
    expect(billingHealth(noPlans)).toEqual({ mode: "paystack", ready: false, missing: ["PAYSTACK_PLAN_ENTERPRISE_YEARLY"] });
    expect(billingHealth(paystackEnv)).toEqual({ mode: "paystack", ready: true, missing: [] });
    const noKey = { ...paystackEnv, PAYSTACK_SECRET_KEY: "" } as unknown as AppEnv;
    expect(billingHealth(noKey)).toEqual({ mode: "unconfigured", ready: false, missing: ["PAYSTACK_SECRET_KEY"] });
    const ctx = createExecutionContext();
    const res = await server.fetch(new Request("http://localhost:5173/api/health"), noKey, ctx);
    await waitOnExecutionContext(ctx);
    const body = await res.json<{ missing: string[]; billing: { mode: string } }>();
    expect(body.missing).toContain("PAYSTACK_SECRET_KEY");
    expect(body.missing).not.toContain("STRIPE_SECRET_KEY");
    expect(body.billing.mode).toBe("unconfigured");
  });
});
