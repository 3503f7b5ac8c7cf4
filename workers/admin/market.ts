// Staff keep the market price table (docs/decisions/026-market-prices.md): each price has a source and the
// day it was seen, which the assistant, USSD and WhatsApp say next to it. Every change is audited.
import { and, eq } from "drizzle-orm";
import type { MarketPriceInput } from "../../core/admin-schemas";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import { marketPrices, type User } from "../../db/schema";
import { DomainError } from "../../core/domain-error";
import { auditAction } from ".";

type PriceRow = typeof marketPrices.$inferSelect;

const shown = (r: PriceRow) => ({
  id: r.id,
  commodity: r.commodity,
  market: r.market,
  city: r.city,
  unit: r.unit,
  priceNgn: r.priceNgn,
  source: r.source,
  date: r.updatedAt.toISOString().slice(0, 10),
});

/** One price per commodity and market: setting it again replaces the old figure (the audit keeps it). */
export async function setMarketPrice(db: Db, staff: User, input: MarketPriceInput) {
  const before = await db
    .select()
    .from(marketPrices)
    .where(and(eq(marketPrices.commodity, input.commodity), eq(marketPrices.market, input.market)))
    .get();
  const values = {
    commodity: input.commodity,
    market: input.market,
    city: input.city,
    unit: input.unit,
    priceNgn: input.priceNgn,
    source: input.source,
    updatedAt: new Date(`${input.date}T12:00:00Z`),
  };
  const [row] = before
    ? await db.update(marketPrices).set(values).where(eq(marketPrices.id, before.id)).returning()
    : await db
        .insert(marketPrices)
        .values({ id: newId(), ...values })
        .returning();
  await auditAction(db, staff, "market.price_set", row.id, before ? shown(before) : null, shown(row));
  return shown(row);
}

export async function deleteMarketPrice(db: Db, staff: User, id: string) {
  const [gone] = await db.delete(marketPrices).where(eq(marketPrices.id, id)).returning();
  if (!gone) throw new DomainError("not_found", "Price not found");
  await auditAction(db, staff, "market.price_deleted", id, shown(gone), null);
  return { id, deleted: true };
}

export async function listMarketPrices(db: Db) {
  const rows = await db.select().from(marketPrices).orderBy(marketPrices.commodity, marketPrices.city).limit(1000);
  return rows.map(shown);
}
