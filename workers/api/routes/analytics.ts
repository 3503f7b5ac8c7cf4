// /api/analytics: admins' figures from recorded events and live tables (docs/decisions/027-analytics.md).
import { Hono } from "hono";
import { AnalyticsQuerySchema } from "../../../core/admin-schemas";
import { aiUsage, metrics } from "../../analytics";
import { requireAdmin } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseWith } from "../../errors";

export const analyticsApi = new Hono<AppBindings>()
  .get("/metrics", async (c) => {
    requireAdmin(c);
    const { range } = parseWith(AnalyticsQuerySchema, c.req.query());
    return c.json(await metrics(c.var.db, range));
  })
  .get("/ai-usage", async (c) => {
    requireAdmin(c);
    const { range } = parseWith(AnalyticsQuerySchema, c.req.query());
    return c.json(await aiUsage(c.var.db, range));
  });
