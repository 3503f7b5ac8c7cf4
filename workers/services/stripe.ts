// Stripe adapter (docs/architecture.md §9): the official SDK on workerd's fetch and WebCrypto. Only this file talks to
// Stripe's API; the billing domain sees the `BillingProvider` interface.
// The SDK (about a third of a megabyte) loads on first use, so an isolate that never bills never evaluates it
// (docs/decisions/070-light-enough-for-2g.md).
import type Stripe from "stripe";
import type { BillingProvider } from "../billing/provider";
import { DomainError } from "../../core/domain-error";

type StripeSdk = typeof Stripe;
let sdk: Promise<{ Stripe: StripeSdk; crypto: ReturnType<StripeSdk["createSubtleCryptoProvider"]> }> | undefined;
function loadStripe() {
  sdk ??= import("stripe").then(({ default: Stripe }) => ({ Stripe, crypto: Stripe.createSubtleCryptoProvider() }));
  return sdk;
}

/** Stripe's client on the Worker's fetch, looked up per call so tests can fake the network edge. */
export async function stripeClient(secretKey: string, opts: { host?: string } = {}): Promise<Stripe> {
  const { Stripe } = await loadStripe();
  return new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient((input, init) => fetch(input, init)),
    maxNetworkRetries: 1,
    ...(opts.host ? { host: opts.host, protocol: "https" as const } : {}),
  });
}

/** Checks the `Stripe-Signature` header with Stripe's own SDK; throws on a missing, wrong or stale signature. */
export async function verifyStripeSignature(body: string, signature: string, secret: string): Promise<unknown> {
  const { Stripe, crypto } = await loadStripe();
  return Stripe.webhooks.constructEventAsync(body, signature, secret, undefined, crypto);
}

/** Signs a payload the way Stripe does (used by the local stand-in to post its events through the handler). */
export async function signStripePayload(payload: string, secret: string): Promise<string> {
  const { Stripe, crypto } = await loadStripe();
  return Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider: crypto });
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const { Stripe } = await loadStripe();
    if (e instanceof Stripe.errors.StripeError) {
      console.error(`stripe: ${what} failed`, e.type, e.code, e.message);
      throw new DomainError(
        e.type === "StripeCardError" ? "card_declined" : "payment_provider_refused",
        e.message || "The payment provider refused the request",
      );
    }
    throw e;
  }
}

export function stripeProvider(secretKey: string, opts: { host?: string } = {}): BillingProvider {
  let client: Promise<Stripe> | undefined;
  const connect = () => (client ??= stripeClient(secretKey, opts));
  return {
    name: "stripe",
    createCustomer: ({ userId, phone, nickname }) =>
      call("customer", async () => {
        const stripe = await connect();
        const customer = await stripe.customers.create(
          { name: nickname, phone: phone ?? undefined, metadata: { userId } },
          // A double click never makes two customers for one person.
          { idempotencyKey: `customer-${userId}` },
        );
        return customer.id;
      }),
    createSubscription: ({ userId, customerId, priceId }) =>
      call("subscription", async () => {
        const stripe = await connect();
        const sub = await stripe.subscriptions.create({
          customer: customerId,
          items: [{ price: priceId }],
          payment_behavior: "default_incomplete",
          payment_settings: { save_default_payment_method: "on_subscription" },
          metadata: { userId },
          expand: ["latest_invoice.confirmation_secret"],
        });
        const invoice = sub.latest_invoice;
        const clientSecret = typeof invoice === "object" ? invoice?.confirmation_secret?.client_secret : undefined;
        if (!clientSecret) throw new DomainError("payment_session_missing", "The payment provider gave no payment session");
        return { object: sub, clientSecret };
      }),
    setCancelAtPeriodEnd: (id, cancel) =>
      call("cancel", async () => (await connect()).subscriptions.update(id, { cancel_at_period_end: cancel })),
    changePrice: (id, priceId, prorate) =>
      call("change price", async () => {
        const stripe = await connect();
        const sub = await stripe.subscriptions.retrieve(id);
        const item = sub.items.data[0];
        return stripe.subscriptions.update(id, {
          items: [{ id: item.id, price: priceId }],
          proration_behavior: prorate ? "always_invoice" : "none",
        });
      }),
  };
}
