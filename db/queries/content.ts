import { and, asc, desc, eq, like, ne, or } from "drizzle-orm";
import { EXAMPLE_PRICE_SOURCE } from "../../core/admin-schemas";
import type { Db } from "../index";
import { blogArticles, faqEntries, marketPrices } from "../schema";

export async function listBlogArticles(db: Db) {
  return db.select().from(blogArticles).orderBy(desc(blogArticles.date)).all();
}

export async function listFaq(db: Db) {
  return db.select().from(faqEntries).orderBy(asc(faqEntries.id)).all();
}

/**
 * Market prices, optionally narrowed by commodity and place (either matched loosely). The seeded example figures
 * only with `examples` (development): production never quotes them (docs/decisions/060-every-claim-true.md).
 */
export async function findMarketPrices(db: Db, opts: { commodity?: string; place?: string; limit?: number; examples?: boolean } = {}) {
  const where = [];
  if (!opts.examples) where.push(ne(marketPrices.source, EXAMPLE_PRICE_SOURCE));
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

export async function listCommodities(db: Db, opts: { examples?: boolean } = {}) {
  const rows = await db
    .selectDistinct({ commodity: marketPrices.commodity })
    .from(marketPrices)
    .where(opts.examples ? undefined : ne(marketPrices.source, EXAMPLE_PRICE_SOURCE))
    .orderBy(asc(marketPrices.commodity))
    .all();
  return rows.map((r) => r.commodity);
}

export type MarketPriceRow = typeof marketPrices.$inferSelect;
type MarketPriceValues = Omit<typeof marketPrices.$inferInsert, "id">;

/** The one price of a commodity at a market, if any. */
export function findMarketPrice(db: Db, commodity: string, market: string): Promise<MarketPriceRow | undefined> {
  return db
    .select()
    .from(marketPrices)
    .where(and(eq(marketPrices.commodity, commodity), eq(marketPrices.market, market)))
    .get();
}

export async function insertMarketPrice(db: Db, id: string, values: MarketPriceValues): Promise<MarketPriceRow> {
  const [row] = await db
    .insert(marketPrices)
    .values({ id, ...values })
    .returning();
  return row;
}

export async function updateMarketPrice(db: Db, id: string, values: MarketPriceValues): Promise<MarketPriceRow> {
  const [row] = await db.update(marketPrices).set(values).where(eq(marketPrices.id, id)).returning();
  return row;
}

/** Deletes one price; the row deleted, or undefined when there was none. */
export async function deleteMarketPriceRow(db: Db, id: string): Promise<MarketPriceRow | undefined> {
  const [gone] = await db.delete(marketPrices).where(eq(marketPrices.id, id)).returning();
  return gone;
}

/** Every price by commodity then city (the staff table). */
export function listAllMarketPrices(db: Db, limit = 1000): Promise<MarketPriceRow[]> {
  return db.select().from(marketPrices).orderBy(marketPrices.commodity, marketPrices.city).limit(limit);
}
