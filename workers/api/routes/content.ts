import { Hono } from "hono";
import { MarketQuerySchema } from "../../../core/schemas";
import { findMarketPrices, listBlogArticles, listFaq } from "../../../db/queries/content";
import { assistantUsage, publicStats } from "../../../db/queries/stats";
import { edgeCached } from "../../admin/edge-cache";
import { localizeFaq } from "../../content/faq";
import { type AppBindings, isDevelopment } from "../../env";
import { parseWith } from "../../errors";

export const content = new Hono<AppBindings>()
  // Live figures, counted at most once a minute per location rather than on every landing page load.
  .get("/stats/public", async (c) => c.json(await edgeCached("https://linkup.internal/public-stats", 60, () => publicStats(c.var.db))))
  .get("/stats/assistant", async (c) => c.json(await assistantUsage(c.var.db)))
  .get("/content/faq", async (c) =>
    c.json({ items: await localizeFaq(await listFaq(c.var.db), c.var.user?.language, c.req.header("accept-language")) }),
  )
  .get("/content/blog", async (c) => c.json({ articles: await listBlogArticles(c.var.db) }))
  .get("/market/prices", async (c) => {
    const q = parseWith(MarketQuerySchema, c.req.query());
    const prices = await findMarketPrices(c.var.db, { ...q, examples: isDevelopment(c.env) });
    return c.json({ prices: prices.map((p) => ({ ...p, updatedAt: p.updatedAt.toISOString() })) });
  });
