// Staff keep the market price table (docs/decisions/026-market-prices.md): each price has a source and the
// day it was seen, which the assistant, USSD and WhatsApp say next to it. Every change is audited.
import type { MarketPriceInput } from "../../core/admin-schemas";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import {
  deleteMarketPriceRow,
  findMarketPrice,
  insertMarketPrice,
  listAllMarketPrices,
  type MarketPriceRow,
  updateMarketPrice,
} from "../../db/queries/content";
import type { User } from "../../db/schema";
import { DomainError } from "../../core/domain-error";
import { auditAction } from ".";

const shown = (r: MarketPriceRow) => ({
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
  const before = await findMarketPrice(db, input.commodity, input.market);
  const values = {
    commodity: input.commodity,
    market: input.market,
    city: input.city,
    unit: input.unit,
    priceNgn: input.priceNgn,
    source: input.source,
    updatedAt: new Date(`${input.date}T12:00:00Z`),
  };
  const row = before ? await updateMarketPrice(db, before.id, values) : await insertMarketPrice(db, newId(), values);
  await auditAction(db, staff, "market.price_set", row.id, before ? shown(before) : null, shown(row));
  return shown(row);
}

export async function deleteMarketPrice(db: Db, staff: User, id: string) {
  const gone = await deleteMarketPriceRow(db, id);
  if (!gone) throw new DomainError("price_not_found", "Price not found");
  await auditAction(db, staff, "market.price_deleted", id, shown(gone), null);
  return { id, deleted: true };
}

export async function listMarketPrices(db: Db) {
  const rows = await listAllMarketPrices(db, 1000);
  return rows.map(shown);
}
