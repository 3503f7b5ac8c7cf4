// /subscribe's loader and action: everything goes through the billing API in-process, so the server decides
// who may pay, which prices exist and when someone is Premium.
import { data, redirect } from "react-router";
import type { Me } from "../../../../core/api-types";
import { type BillingInterval, type PaidTier, parseInterval, parsePlan, type SubscriptionStatus } from "../../../../core/billing";
import { apiGet, apiSend, publicEnvOf } from "../../lib/api.server";
import { type Refusal, refusalOf, refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiSend>[0];

export interface PlanPriceView {
  priceId: string;
  tier: PaidTier;
  interval: BillingInterval;
  amountNgn: number;
}

export async function subscribeLoader(request: Request, context: Ctx) {
  const url = new URL(request.url);
  const plan = parsePlan(url.searchParams.get("plan"));
  const interval = parseInterval(url.searchParams.get("billing"));
  const [me, catalog] = await Promise.all([
    apiGet<{ user: Me }>(context, "/api/me"),
    apiGet<{ provider: "stripe" | "paystack" | "local" | "unconfigured"; plans: PlanPriceView[] }>(context, "/api/subscription/plans"),
  ]);
  const status = me ? await apiGet<SubscriptionStatus>(context, "/api/subscription/status") : null;
  const price = catalog?.plans.find((p) => p.tier === plan && p.interval === interval) ?? null;
  return {
    plan,
    interval,
    price,
    provider: catalog?.provider ?? "unconfigured",
    publishableKey: publicEnvOf(context).STRIPE_PUBLISHABLE_KEY,
    user: me ? { verified: me.user.authMode === "verified", tier: me.user.tier } : null,
    status,
  };
}

export type SessionResult = {
  priceId?: string;
  clientSecret?: string;
  provider?: string;
  paymentError?: Refusal;
  error?: { title: Refusal; description?: Refusal; reason?: Refusal };
};

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

export async function subscribeAction(request: Request, context: Ctx) {
  const form = await request.formData();
  const priceId = text(form, "priceId");
  switch (form.get("intent")) {
    case "start": {
      const res = await apiSend<{ clientSecret: string; provider: string; redirectUrl?: string }>(
        context,
        "POST",
        "/api/create-subscription",
        {
          priceId,
        },
      );
      if (res.status === 401) throw redirect("/signup-verification");
      if (!res.ok || !res.json) {
        // The setup failure toast (docs/product/plans-and-limits.md); the server's reason is shown beside it on the page.
        return data<SessionResult>(
          {
            priceId,
            error: {
              title: { key: "pay.initErrorTitle" },
              description: { key: "pay.initErrorBody" },
              reason: refusalOf(res.json) ?? undefined,
            },
          },
          { status: res.status },
        );
      }
      // Paystack takes the payment on its own checkout page and sends the person back to /chat?subscription=success.
      if (res.json.redirectUrl) throw redirect(res.json.redirectUrl);
      return data<SessionResult>({ priceId, clientSecret: res.json.clientSecret, provider: res.json.provider });
    }
    case "pay": {
      const clientSecret = text(form, "clientSecret");
      const res = await apiSend(context, "POST", "/api/dev/payments/confirm", { clientSecret, cardNumber: text(form, "cardNumber") });
      if (res.ok) throw redirect("/chat?subscription=success");
      // The session stays usable after a decline: the person can try another card.
      return data<SessionResult>(
        { priceId, clientSecret, provider: "local", paymentError: refusalOr(res.json, "pay.initErrorBody") },
        { status: res.status },
      );
    }
    case "trial": {
      const res = await apiSend(context, "POST", "/api/subscription/trial");
      if (res.ok) throw redirect("/chat?subscription=trial");
      return data<SessionResult>(
        { error: { title: { key: "subs.trialNotStarted" }, description: refusalOf(res.json) ?? undefined } },
        { status: res.status },
      );
    }
    default:
      return data<SessionResult>({ error: { title: "Unknown action" } }, { status: 400 });
  }
}
