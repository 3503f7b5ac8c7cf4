// One provider interface for billing (docs/decisions/018-billing.md). Stripe, Paystack and the local stand-in
// all speak in Stripe-shaped subscription objects; the domain reads them through the zod schemas in core.

export interface ProviderSubscription {
  /** The provider's subscription object, as Stripe returns it; parsed by `StripeSubscriptionSchema`. */
  object: unknown;
}

export interface BillingProvider {
  readonly name: "stripe" | "paystack" | "local";
  /** A customer whose metadata holds our user id. */
  createCustomer(input: { userId: string; phone: string | null; nickname: string }): Promise<string>;
  /** An incomplete subscription waiting for its first payment, and the secret the payment form confirms. */
  createSubscription(input: {
    userId: string;
    customerId: string;
    priceId: string;
  }): Promise<{ object: unknown; clientSecret: string; redirectUrl?: string }>;
  /** Cancel at the period's end (true) or resume (false). */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<unknown>;
  /** Moves the subscription to another price; `prorate` charges the difference at once (upgrades). */
  changePrice(subscriptionId: string, priceId: string, prorate: boolean): Promise<unknown>;
}
