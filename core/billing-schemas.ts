// zod schemas for billing requests and for the parts of Stripe's webhook events LinkUp reads. Stripe's
// objects carry far more; unknown fields are ignored, missing ones we need make the event a 400.
import { z } from "zod";
import { INTERVALS, PAID_TIERS } from "./billing";

export const CreateSubscriptionSchema = z.object({ priceId: z.string().trim().min(1).max(100) });

export const ChangePlanSchema = z.object({ tier: z.enum(PAID_TIERS), interval: z.enum(INTERVALS).default("monthly") });

export const GrantComplimentarySchema = z.object({
  userId: z.string().min(1).max(64),
  tier: z.enum(PAID_TIERS),
  endsAt: z.iso.datetime({ offset: true }).refine((v) => Date.parse(v) > Date.now(), "must be in the future"),
  reason: z.string().trim().min(1).max(300),
});

export const LocalConfirmSchema = z.object({
  clientSecret: z.string().min(1).max(200),
  cardNumber: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "Enter a card number")),
});

const id = z.string().min(1);
const ref = z.union([id, z.object({ id }).transform((o) => o.id)]);
const seconds = z.number().int().nonnegative();

export const StripeSubscriptionSchema = z.object({
  id,
  object: z.literal("subscription"),
  customer: ref,
  status: z.string(),
  cancel_at_period_end: z.boolean().default(false),
  trial_end: seconds.nullable().optional(),
  metadata: z.record(z.string(), z.string()).default({}),
  items: z.object({
    data: z.array(z.object({ price: z.object({ id }), current_period_end: seconds.optional() })).min(1),
  }),
});
export type StripeSubscription = z.infer<typeof StripeSubscriptionSchema>;

export const StripeInvoiceSchema = z.object({
  id,
  object: z.literal("invoice"),
  customer: ref,
  amount_paid: z.number().int().default(0),
  amount_due: z.number().int().default(0),
  currency: z.string().default("ngn"),
  hosted_invoice_url: z.string().nullable().optional(),
  parent: z
    .object({ subscription_details: z.object({ subscription: ref }).nullable().optional() })
    .nullable()
    .optional(),
  lines: z.object({ data: z.array(z.object({ period: z.object({ end: seconds }).optional() })) }).optional(),
  last_finalization_error: z.object({ message: z.string().optional() }).nullable().optional(),
});
export type StripeInvoice = z.infer<typeof StripeInvoiceSchema>;

export const StripeEventSchema = z.object({
  id,
  type: z.string(),
  created: seconds,
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type StripeEventInput = z.infer<typeof StripeEventSchema>;
