import { and, asc, desc, like, or } from "drizzle-orm";
import type { Db } from "../index";
import { blogArticles, faqEntries, marketPrices } from "../schema";

export async function listBlogArticles(db: Db) {
  return db.select().from(blogArticles).orderBy(desc(blogArticles.date)).all();
}

export async function listFaq(db: Db) {
  return db.select().from(faqEntries).orderBy(asc(faqEntries.id)).all();
}

/** Market prices, optionally narrowed by commodity and place (either matched loosely). */
export async function findMarketPrices(db: Db, opts: { commodity?: string; place?: string; limit?: number } = {}) {
  const where = [];
  if (opts.commodity) where.push(like(marketPrices.commodity, `%${opts.commodity}%`));
  if (opts.place) where.push(or(like(marketPrices.city, `%${opts.place}%`), like(marketPrices.market, `%${opts.place}%`)));
  return db
    .select()
    .from(marketPrices)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(marketPrices.commodity), asc(marketPrices.city))
    .limit(opts.limit ?? 50)
    .all();
}

export async function listCommodities(db: Db) {
  const rows = await db.selectDistinct({ commodity: marketPrices.commodity }).from(marketPrices).orderBy(asc(marketPrices.commodity)).all();
  return rows.map((r) => r.commodity);
}
