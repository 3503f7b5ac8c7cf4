// Prices people report (docs/decisions/068-market-prices-people-report.md): the insert that takes the person's
// daily limit in the same statement (docs/decisions/047-limits-taken-atomically.md), and the window's reads.
import { and, asc, desc, eq, gte, inArray, like, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { priceReports } from "../schema";

export type PriceReportRow = typeof priceReports.$inferSelect;
export type NewPriceReport = Omit<typeof priceReports.$inferInsert, "id" | "reportedAt" | "settled">;

/**
 * Inserts the report only while the person made fewer than `perDay` since `since`, in one statement, so parallel
 * reports cannot pass the limit. The row, or null when refused.
 */
export async function insertPriceReportWithinLimit(
  db: Db,
  v: NewPriceReport,
  limit: { since: Date; perDay: number },
  now = new Date(),
): Promise<PriceReportRow | null> {
  const id = newId();
  await db.run(sql`
    insert into price_reports (id, user_id, item, item_key, unit, price_ngn, market, market_key, town, channel, settled, reported_at)
    select ${id}, ${v.userId}, ${v.item}, ${v.itemKey}, ${v.unit}, ${v.priceNgn}, ${v.market}, ${v.marketKey}, ${v.town ?? null},
      ${v.channel}, 0, ${now.getTime()}
    where (select count(*) from price_reports where user_id = ${v.userId} and reported_at >= ${limit.since.getTime()}) < ${limit.perDay}`);
  return (await db.select().from(priceReports).where(eq(priceReports.id, id)).get()) ?? null;
}

/** When the oldest of the person's reports since `since` was made (the limit frees a place a day after it). */
export async function oldestReportSince(db: Db, userId: string, since: Date): Promise<Date | null> {
  const row = await db
    .select({ at: sql<number | null>`min(${priceReports.reportedAt})` })
    .from(priceReports)
    .where(and(eq(priceReports.userId, userId), gte(priceReports.reportedAt, since)))
    .get();
  return row?.at == null ? null : new Date(Number(row.at));
}

/** The reports of one item, unit and market since `since`, newest first (one group of the median). */
export function groupReports(db: Db, g: { itemKey: string; unit: string; marketKey: string }, since: Date, limit = 500) {
  return db
    .select()
    .from(priceReports)
    .where(
      and(
        eq(priceReports.itemKey, g.itemKey),
        eq(priceReports.unit, g.unit),
        eq(priceReports.marketKey, g.marketKey),
        gte(priceReports.reportedAt, since),
      ),
    )
    .orderBy(desc(priceReports.reportedAt))
    .limit(limit)
    .all();
}

/**
 * Reports since `since`, narrowed by item keys or an item's everyday name, and a place (a market whose key contains it, or its town), newest
 * first: every group an answer may quote, in one query.
 */
export function findPriceReports(db: Db, q: { itemKeys?: string[]; itemNamed?: string; place?: string; since: Date; limit?: number }) {
  const place = q.place?.trim().toLowerCase();
  return db
    .select()
    .from(priceReports)
    .where(
      and(
        gte(priceReports.reportedAt, q.since),
        q.itemKeys?.length ? inArray(priceReports.itemKey, q.itemKeys) : undefined,
        // A name asked for as whole words of the item key (core/price-reports.ts `itemAnswersTo`); a key holds no % or _.
        q.itemNamed ? sql`(' ' || ${priceReports.itemKey} || ' ') like ${`% ${q.itemNamed} %`}` : undefined,
        place ? or(like(priceReports.marketKey, `%${place}%`), sql`lower(${priceReports.town}) = ${place}`) : undefined,
      ),
    )
    .orderBy(desc(priceReports.reportedAt))
    .limit(q.limit ?? 1000)
    .all();
}

/** The items reported since `since` (what a question may name), alphabetically. */
export async function reportedItems(db: Db, since: Date, limit = 200): Promise<{ itemKey: string; item: string }[]> {
  return db
    .select({ itemKey: priceReports.itemKey, item: sql<string>`max(${priceReports.item})` })
    .from(priceReports)
    .where(gte(priceReports.reportedAt, since))
    .groupBy(priceReports.itemKey)
    .orderBy(asc(priceReports.itemKey))
    .limit(limit)
    .all();
}

export async function markSettled(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.update(priceReports).set({ settled: true }).where(inArray(priceReports.id, ids));
}

/** A staff removal: the row deleted, or undefined. */
export async function deletePriceReport(db: Db, id: string): Promise<PriceReportRow | undefined> {
  const [gone] = await db.delete(priceReports).where(eq(priceReports.id, id)).returning();
  return gone;
}
