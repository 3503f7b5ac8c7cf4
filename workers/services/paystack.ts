// Paystack adapter (docs/decisions/018-billing.md): the second BillingProvider, over fetch to
// https://api.paystack.co. Only this file talks to Paystack. It answers in the Stripe-shaped subscription
// objects the billing domain reads, and translates Paystack's webhook events into the same event shapes.
import { z } from "zod";
import type { BillingProvider } from "../billing/provider";
import { DomainError } from "../../core/domain-error";

export const PAYSTACK_API = "https://api.paystack.co";

const Envelope = z.object({ status: z.boolean(), message: z.string().optional(), data: z.unknown() });

async function paystack<T>(secretKey: string, method: "GET" | "POST", path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${PAYSTACK_API}${path}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    console.error("paystack: unreachable", path, e);
    throw new DomainError("payment_provider_unreachable", "The payment provider could not be reached");
  }
  const envelope = Envelope.safeParse(await res.json().catch(() => null));
  if (!res.ok || !envelope.success || !envelope.data.status) {
    const message = envelope.success ? envelope.data.message : undefined;
    console.error("paystack: refused", path, res.status, message);
    throw new DomainError("payment_provider_refused", message || "The payment provider refused the request");
  }
  const data = schema.safeParse(envelope.data.data);
  if (!data.success) throw new DomainError("payment_provider_unexpected", "The payment provider answered unexpectedly");
  return data.data;
}

const code = z.string().min(1);
const CustomerData = z.object({ customer_code: code, email: z.string() });
const InitializeData = z.object({ authorization_url: z.url(), access_code: code, reference: code });
const VerifyData = z.object({
  reference: code,
  status: z.string(),
  amount: z.number().int(),
  customer: z.object({ customer_code: code }),
  plan: z
    .union([z.string(), z.object({ plan_code: code }).transform((p) => p.plan_code)])
    .nullable()
    .optional(),
});
const SubscriptionData = z.object({
  subscription_code: code,
  email_token: z.string().optional(),
  status: z.string(),
  next_payment_date: z.string().nullable().optional(),
  plan: z.object({ plan_code: code }),
  customer: z.object({ customer_code: code }),
});
type SubscriptionData = z.infer<typeof SubscriptionData>;

/** Paystack needs an e-mail for every customer; LinkUp has phones, so each person gets a stable placeholder. */
export function customerEmail(userId: string): string {
  return `${userId}@customers.linkup.ng`;
}

const seconds = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : undefined);

// Paystack's statuses in Stripe's words: "non-renewing" still runs to the period's end; "complete",
// "cancelled" and "completed" are over; "attention" is a failed renewal.
const STATUS: Record<string, string> = {
  active: "active",
  "non-renewing": "active",
  attention: "past_due",
  complete: "canceled",
  completed: "canceled",
  cancelled: "canceled",
};

/** A Paystack subscription as the Stripe-shaped object `StripeSubscriptionSchema` reads. */
export function asStripeSubscription(s: SubscriptionData, cancelAtPeriodEnd = s.status === "non-renewing") {
  return {
    id: s.subscription_code,
    object: "subscription" as const,
    customer: s.customer.customer_code,
    status: STATUS[s.status] ?? "active",
    cancel_at_period_end: cancelAtPeriodEnd,
    metadata: {},
    items: { data: [{ price: { id: s.plan.plan_code }, current_period_end: seconds(s.next_payment_date) }] },
  };
}

export interface PaystackOptions {
  /** Naira amount of a plan code (Paystack charges the plan's own amount; ours is sent to match it). */
  amountOf(planCode: string): number | undefined;
  /** Where Paystack sends the person after paying. */
  callbackUrl: string;
}

export function paystackProvider(
  secretKey: string,
  opts: PaystackOptions,
): BillingProvider & {
  verifyTransaction(reference: string): Promise<z.infer<typeof VerifyData>>;
} {
  const api = <T>(method: "GET" | "POST", path: string, schema: z.ZodType<T>, body?: unknown) =>
    paystack(secretKey, method, path, schema, body);
  const fetchSubscription = (id: string) => api("GET", `/subscription/${encodeURIComponent(id)}`, SubscriptionData);
  return {
    name: "paystack",
    createCustomer: async ({ userId, phone, nickname }) =>
      (
        await api("POST", "/customer", CustomerData, {
          email: customerEmail(userId),
          first_name: nickname,
          phone: phone ?? undefined,
          metadata: { userId },
        })
      ).customer_code,
    // A transaction with a plan: paying it makes Paystack create the subscription (its webhook tells us).
    createSubscription: async ({ userId, customerId, priceId }) => {
      const amount = opts.amountOf(priceId);
      if (amount === undefined) throw new DomainError("unknown_price", "Unknown price");
      const tx = await api("POST", "/transaction/initialize", InitializeData, {
        email: customerEmail(userId),
        amount: String(amount * 100),
        currency: "NGN",
        plan: priceId,
        callback_url: opts.callbackUrl,
        metadata: JSON.stringify({ userId }),
      });
      const object = {
        id: tx.reference,
        object: "subscription" as const,
        customer: customerId,
        status: "incomplete",
        cancel_at_period_end: false,
        metadata: { userId },
        items: { data: [{ price: { id: priceId } }] },
      };
      return { object, clientSecret: tx.access_code, redirectUrl: tx.authorization_url };
    },
    // Paystack stops renewals with disable and restarts them with enable, both with the subscription's token.
    setCancelAtPeriodEnd: async (id, cancel) => {
      const sub = await fetchSubscription(id);
      await api("POST", cancel ? "/subscription/disable" : "/subscription/enable", z.unknown(), { code: id, token: sub.email_token });
      return asStripeSubscription({ ...sub, status: "active" }, cancel);
    },
    changePrice: async () => {
      throw new DomainError(
        "paystack_plan_change",
        "Plan changes are not available with Paystack: cancel, then subscribe to the other plan.",
      );
    },
    verifyTransaction: (reference) => api("GET", `/transaction/verify/${encodeURIComponent(reference)}`, VerifyData),
  };
}

/** Checks `x-paystack-signature`: the hex HMAC-SHA512 of the raw body under the secret key, compared in constant time. */
export async function verifyPaystackSignature(body: string, signature: string, secretKey: string): Promise<boolean> {
  if (!/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = await signPaystackPayload(body, secretKey);
  const given = signature.toLowerCase();
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}

export async function signPaystackPayload(body: string, secretKey: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secretKey), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return [...mac].map((x) => x.toString(16).padStart(2, "0")).join("");
}

const PaystackEvent = z.object({ event: z.string(), data: z.record(z.string(), z.unknown()) });
const ChargeData = z.object({
  reference: code,
  amount: z.number().int(),
  customer: z.object({ customer_code: code }),
  paid_at: z.string().nullable().optional(),
});
const InvoiceData = z.object({
  invoice_code: code,
  amount: z.number().int(),
  paid: z.boolean().optional(),
  subscription: z.object({ subscription_code: code, next_payment_date: z.string().nullable().optional() }),
  customer: z.object({ customer_code: code }),
});

/** The Stripe-shaped event a Paystack event means to the billing domain; null for events it does not use. */
export function translatePaystackEvent(raw: unknown): { type: string; object: Record<string, unknown> } | null | "malformed" {
  const event = PaystackEvent.safeParse(raw);
  if (!event.success) return "malformed";
  const { data } = event.data;
  switch (event.data.event) {
    case "subscription.create":
    case "subscription.enable":
    case "subscription.not_renew":
    case "subscription.disable": {
      const s = SubscriptionData.safeParse(data);
      if (!s.success) return "malformed";
      return { type: "customer.subscription.updated", object: asStripeSubscription(s.data) };
    }
    case "charge.success": {
      const c = ChargeData.safeParse(data);
      if (!c.success) return "malformed";
      return {
        type: "invoice.paid",
        object: {
          id: c.data.reference,
          object: "invoice",
          customer: c.data.customer.customer_code,
          amount_paid: c.data.amount,
          parent: null,
        },
      };
    }
    case "invoice.payment_failed":
    case "invoice.update": {
      const i = InvoiceData.safeParse(data);
      if (!i.success) return "malformed";
      if (event.data.event === "invoice.update" && !i.data.paid) return null;
      const parent = { subscription_details: { subscription: i.data.subscription.subscription_code } };
      const failed = event.data.event === "invoice.payment_failed";
      const end = seconds(i.data.subscription.next_payment_date);
      return {
        type: failed ? "invoice.payment_failed" : "invoice.paid",
        object: {
          id: i.data.invoice_code,
          object: "invoice",
          customer: i.data.customer.customer_code,
          ...(failed ? { amount_due: i.data.amount } : { amount_paid: 0 }),
          parent,
          ...(end && !failed ? { lines: { data: [{ period: { end } }] } } : {}),
        },
      };
    }
    default:
      return null;
  }
}
