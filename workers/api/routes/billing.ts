// Billing API (POST /api/create-subscription, the subscription status; docs/product/plans-and-limits.md). Thin: who is
// asking, the parsed body, one domain call.
import { Hono } from "hono";
import { ChangePlanSchema, CreateSubscriptionSchema, GrantComplimentarySchema, LocalConfirmSchema } from "../../../core/billing-schemas";
import { findUserById } from "../../../db/queries/users";
import { requireStaff, requireUser, requireVerified } from "../../auth/session";
import {
  billingMode,
  changePlan,
  confirmLocalPayment,
  createSubscription,
  endComplimentary,
  grantComplimentary,
  priceCatalog,
  setCancelAtPeriodEnd,
  startTrial,
  subscriptionStatus,
} from "../../billing";
import type { AppBindings } from "../../env";
import { requireCheckoutAllowed } from "../../limits";
import { errorBody, parseJson } from "../../errors";
import { DomainError } from "../../../core/domain-error";

export const billing = new Hono<AppBindings>()
  .get("/subscription/plans", (c) => c.json({ provider: billingMode(c.env), plans: priceCatalog(c.env) }))
  .post("/create-subscription", async (c) => {
    const user = requireVerified(c);
    const { priceId } = await parseJson(c, CreateSubscriptionSchema);
    await requireCheckoutAllowed(c, user.id);
    return c.json(await createSubscription(c.env, c.var.db, user, priceId));
  })
  .get("/subscription/status", async (c) => c.json(await subscriptionStatus(c.env, c.var.db, requireUser(c))))
  .post("/subscription/trial", async (c) => c.json(await startTrial(c.env, c.var.db, requireVerified(c))))
  .post("/subscription/cancel", async (c) => c.json(await setCancelAtPeriodEnd(c.env, c.var.db, requireVerified(c), true)))
  .post("/subscription/resume", async (c) => c.json(await setCancelAtPeriodEnd(c.env, c.var.db, requireVerified(c), false)))
  .post("/subscription/change", async (c) => {
    const user = requireVerified(c);
    const { tier, interval } = await parseJson(c, ChangePlanSchema);
    return c.json(await changePlan(c.env, c.var.db, user, tier, interval));
  })
  // The local payment stand-in's confirm; absent unless it is the provider (development without Stripe).
  .post("/dev/payments/confirm", async (c) => {
    if (billingMode(c.env) !== "local") throw new DomainError("not_found", "Not found");
    const user = requireVerified(c);
    const body = await parseJson(c, LocalConfirmSchema);
    const result = await confirmLocalPayment(c.env, c.var.db, { userId: user.id, ...body });
    return result.ok ? c.json({ ok: true }) : c.json(errorBody("card_declined", result.message), 402);
  })
  .post("/admin/subscriptions/complimentary", async (c) => {
    // "Premium activated by phoning support": the support desk grants it (staff or admin).
    const staff = requireStaff(c);
    const body = await parseJson(c, GrantComplimentarySchema);
    const user = await findUserById(c.var.db, body.userId);
    if (!user) throw new DomainError("user_not_found", "User not found");
    const grant = await grantComplimentary(c.env, c.var.db, staff, {
      user,
      tier: body.tier,
      endsAt: new Date(body.endsAt),
      reason: body.reason,
    });
    return c.json({ grant }, 201);
  })
  .post("/admin/subscriptions/complimentary/:userId/end", async (c) => {
    const staff = requireStaff(c);
    const user = await findUserById(c.var.db, c.req.param("userId"));
    if (!user) throw new DomainError("user_not_found", "User not found");
    return c.json(await endComplimentary(c.env, c.var.db, staff, user));
  });
