// Market prices people report (docs/decisions/068-market-prices-people-report.md). One module for every channel:
// the web form and API, WhatsApp's PRICE command and the USSD menu report through `reportPrice`; the assistant,
// USSD and the price screen quote through `quoteReports`: the median of the last 14 days' reports of one item,
// unit and market, each person's newest report counted once, outliers left out (core/price-reports.ts).
import { DomainError } from "../../core/domain-error";
import { placeFromText } from "../../core/places";
import {
  dayRange,
  itemAnswersTo,
  itemKey,
  marketKey,
  MIN_PRICE_REPORTS,
  nairaText,
  PRICE_LIMIT_MESSAGE,
  PRICE_REPORT_POINTS,
  PRICE_REPORTS_PER_DAY,
  PRICE_REPORTS_REWARDED_PER_DAY,
  PRICE_WINDOW_DAYS,
  PRICE_WINDOW_MS,
  type PriceReportInput,
  PriceReportSchema,
  type QuotedGroup,
  quotePrice,
  splitOutliers,
} from "../../core/price-reports";
import { serverDay } from "../../core/rewards";
import type { Db } from "../../db";
import {
  findPriceReports,
  groupReports,
  insertPriceReportWithinLimit,
  markSettled,
  oldestReportSince,
  type PriceReportRow,
  reportedItems,
} from "../../db/queries/price-reports";
import { countEventsOn, recordPoints } from "../../db/queries/rewards";
import type { ReportedWords } from "../assistant/wording";
import { parseWith } from "../errors";

const DAY_MS = 86_400_000;

export interface ReportOutcome {
  report: PriceReportRow;
  /** What the report's item, unit and market are quoted at now, this report included. */
  quote: QuotedGroup;
  /** Points this report earned now (0 until it can be told from an outlier, or over the day's cap). */
  points: number;
}

/** Each person's newest report of a group: one person's repeated reports count once. */
function newestPerPerson(rows: readonly PriceReportRow[]): PriceReportRow[] {
  const seen = new Set<string>();
  return [...rows]
    .sort((a, b) => b.reportedAt.getTime() - a.reportedAt.getTime())
    .filter((r) => {
      if (seen.has(r.userId)) return false;
      seen.add(r.userId);
      return true;
    });
}

/** The way most reports write it ('Mile 12' over one 'Mile 12 market'); the earlier on a tie. */
function usual(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

function groupOf(rows: PriceReportRow[], now: Date): QuotedGroup {
  const oldestFirst = [...rows].sort((a, b) => a.reportedAt.getTime() - b.reportedAt.getTime());
  return {
    item: usual(oldestFirst.map((r) => r.item.toLowerCase())),
    unit: rows[0].unit,
    market: usual(oldestFirst.map((r) => r.market)),
    quote: quotePrice(newestPerPerson(rows), now),
  };
}

/**
 * A person reports a price: validated, taken within PRICE_REPORTS_PER_DAY a day in the insert itself, and the
 * group's reports settled: each counted report that is no outlier earns its reporter PRICE_REPORT_POINTS, at most
 * PRICE_REPORTS_REWARDED_PER_DAY of their reports a day. A report made while too few others exist to judge it
 * earns when later reports show it is no outlier.
 */
export async function reportPrice(
  db: Db,
  who: { userId: string; channel: "web" | "whatsapp" | "ussd" },
  raw: PriceReportInput | Record<string, unknown>,
  now = new Date(),
): Promise<ReportOutcome> {
  const input = parseWith(PriceReportSchema, raw);
  const since = new Date(now.getTime() - DAY_MS);
  const report = await insertPriceReportWithinLimit(
    db,
    {
      userId: who.userId,
      item: input.item,
      itemKey: itemKey(input.item),
      unit: input.unit,
      priceNgn: input.priceNgn,
      market: input.market,
      marketKey: marketKey(input.market),
      town: placeFromText(input.market)?.name ?? null,
      channel: who.channel,
    },
    { since, perDay: PRICE_REPORTS_PER_DAY },
    now,
  );
  if (!report) {
    const oldest = (await oldestReportSince(db, who.userId, since)) ?? now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - now.getTime()) / 1000));
    throw new DomainError("price_limit", PRICE_LIMIT_MESSAGE, {
      retryAfterSeconds,
    });
  }
  const rows = await groupReports(db, report, new Date(now.getTime() - PRICE_WINDOW_MS));
  const awarded = await settle(db, rows);
  return { report, quote: groupOf(rows, now), points: awarded.get(report.id) ?? 0 };
}

/** Points for the group's counted reports that are no outliers and not settled yet; the points per report id. */
async function settle(db: Db, rows: PriceReportRow[]): Promise<Map<string, number>> {
  const awarded = new Map<string, number>();
  const counted = newestPerPerson(rows);
  // Below the minimum nothing can be told from an outlier: the reports wait for the next one.
  if (counted.length < MIN_PRICE_REPORTS) return awarded;
  const { kept } = splitOutliers(counted);
  const due = kept.filter((r) => !r.settled);
  for (const r of due) {
    // The cap counts by the day the report was made, whenever it is settled.
    const day = serverDay(r.reportedAt);
    if ((await countEventsOn(db, r.userId, "price_report", day)) >= PRICE_REPORTS_REWARDED_PER_DAY) continue;
    if (await recordPoints(db, { userId: r.userId, kind: "price_report", ref: r.id, points: PRICE_REPORT_POINTS, day })) {
      awarded.set(r.id, PRICE_REPORT_POINTS);
    }
  }
  await markSettled(
    db,
    due.map((r) => r.id),
  );
  return awarded;
}

/** Groups of the reports found, the most reported first. */
function groups(rows: PriceReportRow[], now: Date): QuotedGroup[] {
  const by = new Map<string, PriceReportRow[]>();
  for (const r of rows) {
    const key = `${r.itemKey}\u0000${r.unit}\u0000${r.marketKey}`;
    by.set(key, [...(by.get(key) ?? []), r]);
  }
  return [...by.values()]
    .map((g) => groupOf(g, now))
    .sort(
      (a, b) =>
        Number(b.quote.kind === "price") - Number(a.quote.kind === "price") ||
        b.quote.count - a.quote.count ||
        a.market.localeCompare(b.market),
    );
}

/**
 * The quotes for items (keys, or an everyday name that every item it is a word of answers to: 'rice' → 'ofada
 * rice') and a place (market or town), in one query.
 */
export async function quoteReports(
  db: Db,
  q: { itemKeys?: string[]; itemNamed?: string; place?: string },
  now = new Date(),
): Promise<QuotedGroup[]> {
  const place = q.place ? marketKey(q.place) : undefined;
  const itemNamed = q.itemNamed ? itemKey(q.itemNamed) : undefined;
  const rows = await findPriceReports(db, { ...q, itemNamed, place, since: new Date(now.getTime() - PRICE_WINDOW_MS) });
  return groups(rows, now);
}

/** The items reported in the window, for menus and for reading a question. */
export async function recentItems(db: Db, now = new Date()): Promise<{ itemKey: string; item: string }[]> {
  return reportedItems(db, new Date(now.getTime() - PRICE_WINDOW_MS));
}

/**
 * Which reported items a question's words name, and the words left for the place: 'rice mile 12' → rice, 'mile 12'.
 * Word keys are compared the way reports are stored (core/price-reports.ts `itemKey`). A reported item's whole
 * name is taken first, longest first ('palm oil' before 'oil'), with the items it is a word of; then each word left
 * of three letters or more finds the items it is a word of (`itemAnswersTo`: 'rice' finds 'ofada rice'), so an
 * everyday name finds the reported items.
 */
export function itemsInQuestion(query: string, items: { itemKey: string }[]): { itemKeys: string[]; place: string } {
  let rest = ` ${itemKey(query)} `;
  const found = new Set<string>();
  const named = (asked: string) => items.filter((i) => itemAnswersTo(i.itemKey, asked)).map((i) => i.itemKey);
  for (const { itemKey: key } of [...items].sort((a, b) => b.itemKey.length - a.itemKey.length)) {
    if (rest.includes(` ${key} `)) {
      for (const k of named(key)) found.add(k);
      rest = rest.replace(` ${key} `, " ");
    }
  }
  const left: string[] = [];
  for (const word of rest.trim().split(" ").filter(Boolean)) {
    const keys = /\p{L}{3}/u.test(word) ? named(word) : [];
    for (const k of keys) found.add(k);
    if (keys.length === 0) left.push(word);
  }
  return { itemKeys: [...found], place: left.join(" ") };
}

/** How many quotes an answer lists at most. */
export const QUOTES_SHOWN = 5;

/** One quote in the asker's words (workers/assistant/wording.ts); the figures, item, unit and market as reported. */
function quoteIn(words: ReportedWords, g: QuotedGroup): string {
  const q = g.quote;
  const what = { unit: g.unit, item: g.item, market: g.market };
  if (q.kind === "none") return words.none({ ...what, count: q.count, min: MIN_PRICE_REPORTS, days: PRICE_WINDOW_DAYS });
  return words.quote({ ...what, price: nairaText(q.medianNgn), count: q.count, days: dayRange(q.first, q.last) });
}

/**
 * The assistant's answer from reports, in the asker's words, or null when no reported item is named or none is
 * reported at the place named (the caller then answers from staff figures, docs/decisions/026-market-prices.md).
 */
export async function reportedPriceAnswer(
  db: Db,
  query: string,
  now: Date,
  // The asker's words (workers/assistant/wording.ts, every language's): passed in, so prices does not load them.
  words: ReportedWords,
): Promise<string | null> {
  const items = await recentItems(db, now);
  if (items.length === 0) return null;
  const { itemKeys, place } = itemsInQuestion(query, items);
  if (itemKeys.length === 0) return null;
  const found = await quoteReports(db, { itemKeys, place: place || undefined }, now);
  if (found.length === 0) return null;
  const lines = found.slice(0, QUOTES_SHOWN).map((g) => `• ${quoteIn(words, g)}`);
  const more = found.length > QUOTES_SHOWN ? `\n${words.more(found.length - QUOTES_SHOWN)}` : "";
  return `${words.heading(PRICE_WINDOW_DAYS)}\n${lines.join("\n")}${more}`;
}
