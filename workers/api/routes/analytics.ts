// /api/analytics: admins' figures from recorded events and live tables, and a Premium person's own activity
// (docs/decisions/027-analytics.md, docs/decisions/037-hourly-and-personal-analytics.md).
import { Hono } from "hono";
import { AnalyticsQuerySchema } from "../../../core/admin-schemas";
import { aiUsage, metrics, personalMetrics } from "../../analytics";
import { requireAdmin, requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseWith } from "../../errors";
import { DomainError } from "../../../core/domain-error";
import { ANALYTICS_PREMIUM_REQUIRED } from "../../../core/constants";

export const analyticsApi = new Hono<AppBindings>()
  .get("/metrics", async (c) => {
    const { range, scope } = parseWith(AnalyticsQuerySchema, c.req.query());
    if (scope === "me") {
      const user = requireUser(c);
      // The plans' limits (docs/product/plans-and-limits.md): analytics are a Premium feature, refused here whatever the screen shows.
      if (user.subscriptionTier === "free") throw new DomainError("premium_required", ANALYTICS_PREMIUM_REQUIRED, { upgrade: "/pricing" });
      return c.json(await personalMetrics(c.var.db, user.id, range));
    }
    requireAdmin(c);
    return c.json(await metrics(c.var.db, range));
  })
  .get("/ai-usage", async (c) => {
    requireAdmin(c);
    const { range } = parseWith(AnalyticsQuerySchema, c.req.query());
    return c.json(await aiUsage(c.var.db, range));
  });
