// Market prices people report (docs/decisions/068-market-prices-people-report.md): verified people report, anyone
// reads the medians. Thin: the rules are in workers/prices.
import { Hono } from "hono";
import { MIN_PRICE_REPORTS, PRICE_WINDOW_DAYS, PriceReportQuerySchema, type QuotedGroup } from "../../../core/price-reports";
import { requireStaff, requireVerified } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseWith } from "../../errors";
import { quoteReports, reportPrice } from "../../prices";
import { removePriceReport, staffPriceReports } from "../../prices/staff";

/** A quote as JSON: the days as ISO strings. */
export function quoteJson(g: QuotedGroup) {
  const q = g.quote;
  return {
    item: g.item,
    unit: g.unit,
    market: g.market,
    ...(q.kind === "price"
      ? { kind: q.kind, medianNgn: q.medianNgn, count: q.count, first: q.first.toISOString(), last: q.last.toISOString() }
      : { kind: q.kind, count: q.count }),
  };
}

export const pricesApi = new Hono<AppBindings>()
  .get("/market/reports", async (c) => {
    const q = parseWith(PriceReportQuerySchema, c.req.query());
    const quotes = await quoteReports(c.var.db, { itemNamed: q.item || undefined, place: q.market || undefined });
    return c.json({ windowDays: PRICE_WINDOW_DAYS, minReports: MIN_PRICE_REPORTS, quotes: quotes.slice(0, 50).map(quoteJson) });
  })
  .post("/market/reports", async (c) => {
    const user = requireVerified(c);
    const done = await reportPrice(c.var.db, { userId: user.id, channel: "web" }, await c.req.json().catch(() => ({})));
    return c.json({ id: done.report.id, points: done.points, quote: quoteJson(done.quote) }, 201);
  })
  // Staff: outliers first, and removal (docs/decisions/068-market-prices-people-report.md).
  .get("/admin/price-reports", async (c) => {
    requireStaff(c);
    return c.json({ reports: await staffPriceReports(c.var.db) });
  })
  .delete("/admin/price-reports/:id", async (c) => c.json(await removePriceReport(c.var.db, requireStaff(c), c.req.param("id"))));
