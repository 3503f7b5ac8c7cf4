// Market prices people report (docs/decisions/068-market-prices-people-report.md): the report's shape and
// parsing, and the rule every channel quotes by — the median of the last PRICE_WINDOW_DAYS days' reports of one
// item, unit and market, outliers left out, and "no recent price" below MIN_PRICE_REPORTS.
import { z } from "zod";

/** Reports older than this are neither quoted nor kept (db/queries/retention.ts prunes them). */
export const PRICE_WINDOW_DAYS = 14;
export const PRICE_WINDOW_MS = PRICE_WINDOW_DAYS * 86_400_000;
/** Fewer reports than this (after outliers) is one or two people's word: no price is quoted. */
export const MIN_PRICE_REPORTS = 3;
/** A report further than this many (scaled) median absolute deviations from the median is an outlier. */
export const OUTLIER_MADS = 3;
/**
 * The least deviation counted as spread, as a share of the median: when most reports agree exactly the MAD is 0,
 * and a price 1% off would otherwise be an outlier.
 */
export const MIN_SPREAD_SHARE = 0.05;
/** 1.4826 × MAD estimates the standard deviation of normally spread prices. */
const MAD_SCALE = 1.4826;

/** Reports one person may make in a day, every channel together. */
export const PRICE_REPORTS_PER_DAY = 20;
/** The refusal past that limit (code price_limit; screens show errors.price_limit, docs/decisions/075-errors-as-codes.md). */
export const PRICE_LIMIT_MESSAGE = "You have reported the most prices for today. Try again tomorrow.";
/** The schema's refusals, by field, for the screens to translate. */
export const PRICE_REPORT_ERRORS = {
  item: ["Name the item", "The item name is too long"],
  unit: ["Give a unit such as 50kg, bag, tuber, basket or litre"],
  price: ["Give the price in naira", "Give the price in whole naira", "That price is too high"],
  market: ["Name the market or area", "The market name is too long"],
} as const;
/** Points for a report that is not an outlier, and how many of a person's reports a day earn them. */
export const PRICE_REPORT_POINTS = 10;
export const PRICE_REPORTS_REWARDED_PER_DAY = 5;

const words = (s: string) =>
  s
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}\s'&-]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The item as reports and questions match it: lower case, one space, a plural 's' dropped ('Onions' → 'onion'). */
export function itemKey(item: string): string {
  return words(item)
    .toLowerCase()
    .split(" ")
    .map((w) => (w.length > 4 && w.endsWith("oes") ? w.slice(0, -2) : w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w))
    .join(" ");
}

/**
 * Whether a reported item answers to a name asked for (both as `itemKey`s): the same name, or the name as whole
 * words of it, so an item is found by its everyday name: 'rice' finds 'ofada rice' and 'rice', 'palm oil' finds
 * 'red palm oil'; 'ice' finds neither, and 'ofada rice' does not find plain 'rice'.
 */
export function itemAnswersTo(reportedKey: string, askedKey: string): boolean {
  return askedKey.length > 0 && ` ${reportedKey} `.includes(` ${askedKey} `);
}

const UNIT_WORDS =
  "kg|g|litre|liter|l|ml|cl|bag|sack|basket|crate|tuber|piece|pcs|tin|paint|mudu|derica|bunch|heap|dozen|carton|bottle|pack|loaf|tray|bowl|cup|keg|jerrycan|gallon|ton|tonne";
const UNIT_RE = new RegExp(`^(\\d+(?:\\.\\d+)?)?\\s*(${UNIT_WORDS})s?$`, "i");

/** The unit as reports and questions match it: '50kg', '50 KG' → '50 kg'; 'Bags' → 'bag'; null when not a unit. */
export function unitKey(unit: string): string | null {
  const m = UNIT_RE.exec(
    words(unit)
      .toLowerCase()
      .replace(/^per\s+/, ""),
  );
  if (!m) return null;
  const name = ({ liter: "litre", l: "litre", pcs: "piece", sack: "bag", tonne: "ton" } as Record<string, string>)[m[2]] ?? m[2];
  return m[1] ? `${Number(m[1])} ${name}` : name;
}

/** The market as reports and questions match it: lower case, without a trailing 'market' ('Mile 12 Market' → 'mile 12'). */
export function marketKey(market: string): string {
  return words(market)
    .toLowerCase()
    .replace(/\s+(market|mkt)$/, "")
    .trim();
}

/** One report as every channel sends it: checked here, at the boundary (web form, WhatsApp, USSD). */
export const PriceReportSchema = z.object({
  item: z.string().transform(words).pipe(z.string().min(2, "Name the item").max(40, "The item name is too long")),
  unit: z
    .string()
    .trim()
    .transform((u, ctx) => {
      const key = unitKey(u);
      if (!key) ctx.addIssue({ code: "custom", message: "Give a unit such as 50kg, bag, tuber, basket or litre" });
      return key ?? "";
    }),
  priceNgn: z.coerce
    .number({ message: "Give the price in naira" })
    .int("Give the price in whole naira")
    .min(1, "Give the price in naira")
    .max(100_000_000, "That price is too high"),
  market: z.string().transform(words).pipe(z.string().min(2, "Name the market or area").max(60, "The market name is too long")),
});
export type PriceReportInput = z.input<typeof PriceReportSchema>;
export type PriceReport = z.output<typeof PriceReportSchema>;

const PRICE_TOKEN = /^(?:₦|n|ngn)?(\d{1,3}(?:,\d{3})+|\d+)(k)?$/i;

/**
 * 'rice 50kg 78000 Mile 12' (item, unit, price, market; the unit may follow the price, 'at'/'in' may come before
 * the market, '50 kg', '₦78,000' and '78k' are read too) as the fields of a report; null when a part is missing.
 */
export function parsePriceReportText(text: string): PriceReportInput | null {
  const raw = text.replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
  // '50 kg' is one unit.
  const tokens: string[] = [];
  for (const t of raw) {
    const prev = tokens[tokens.length - 1];
    if (prev && /^\d+(\.\d+)?$/.test(prev) && new RegExp(`^(${UNIT_WORDS})s?$`, "i").test(t)) tokens[tokens.length - 1] = `${prev}${t}`;
    else tokens.push(t);
  }
  const unitAt = tokens.findIndex((t) => unitKey(t) !== null);
  const priceAt = tokens.findIndex((t, i) => i !== unitAt && PRICE_TOKEN.test(t));
  if (unitAt < 1 || priceAt < 1) return null;
  const first = Math.min(unitAt, priceAt);
  const last = Math.max(unitAt, priceAt);
  // Only 'per' may sit between the two ('78000 per bag').
  const between = tokens.slice(first + 1, last);
  if (between.some((t) => !/^(per|\/|for|a)$/i.test(t))) return null;
  const m = PRICE_TOKEN.exec(tokens[priceAt]);
  if (!m) return null;
  const priceNgn = Number(m[1].replace(/,/g, "")) * (m[2] ? 1000 : 1);
  const market = tokens
    .slice(last + 1)
    .join(" ")
    .replace(/^(at|in|for|@)\s+/i, "");
  return { item: tokens.slice(0, first).join(" "), unit: tokens[unitAt], priceNgn, market };
}

/** The median of a list of numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The reports that count and those left out: a price further from the median than OUTLIER_MADS times the scaled
 * median absolute deviation (at least MIN_SPREAD_SHARE of the median) is an outlier. With fewer than
 * MIN_PRICE_REPORTS reports nothing can be told apart, so nothing is an outlier yet.
 */
export function splitOutliers<T extends { priceNgn: number }>(reports: readonly T[]): { kept: T[]; outliers: T[] } {
  if (reports.length < MIN_PRICE_REPORTS) return { kept: [...reports], outliers: [] };
  const m = median(reports.map((r) => r.priceNgn));
  const mad = median(reports.map((r) => Math.abs(r.priceNgn - m)));
  const bound = OUTLIER_MADS * Math.max(MAD_SCALE * mad, MIN_SPREAD_SHARE * m);
  const kept: T[] = [];
  const outliers: T[] = [];
  for (const r of reports) (Math.abs(r.priceNgn - m) > bound ? outliers : kept).push(r);
  return { kept, outliers };
}

export interface ReportedPrice {
  priceNgn: number;
  reportedAt: Date;
}

export type PriceQuote =
  | { kind: "price"; medianNgn: number; count: number; first: Date; last: Date; outliers: number }
  | { kind: "none"; count: number };

/** The figure to quote for one item, unit and market from its reports of the window (one per person). */
export function quotePrice(reports: readonly ReportedPrice[], now = new Date()): PriceQuote {
  const recent = reports.filter((r) => now.getTime() - r.reportedAt.getTime() <= PRICE_WINDOW_MS && r.reportedAt <= now);
  const { kept, outliers } = splitOutliers(recent);
  if (kept.length < MIN_PRICE_REPORTS) return { kind: "none", count: kept.length };
  const times = kept.map((r) => r.reportedAt.getTime());
  return {
    kind: "price",
    medianNgn: Math.round(median(kept.map((r) => r.priceNgn))),
    count: kept.length,
    first: new Date(Math.min(...times)),
    last: new Date(Math.max(...times)),
    outliers: outliers.length,
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** '12–26 Nov', '28 Oct–3 Nov', or '26 Nov' (UTC days): when the quoted reports were made. */
export function dayRange(first: Date, last: Date, dash = "–"): string {
  const day = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  if (first.toISOString().slice(0, 10) === last.toISOString().slice(0, 10)) return day(last);
  if (first.getUTCMonth() === last.getUTCMonth() && first.getUTCFullYear() === last.getUTCFullYear()) {
    return `${first.getUTCDate()}${dash}${day(last)}`;
  }
  return `${day(first)}${dash}${day(last)}`;
}

/** Whole naira with thousands separators; `symbol` 'N' for GSM screens (USSD has no ₦). */
export function nairaText(n: number, symbol = "₦"): string {
  return `${symbol}${Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}

export interface QuotedGroup {
  item: string;
  unit: string;
  market: string;
  quote: PriceQuote;
}

/** One line of an answer: '₦78,000 for 50 kg rice at Mile 12, median of 6 reports, 12–26 Nov'. */
export function quoteLine(g: QuotedGroup, symbol = "₦", dash = "–"): string {
  const what = `${g.unit} ${g.item}`;
  if (g.quote.kind === "none") {
    const n = g.quote.count;
    return `${what} at ${g.market}: no recent price (${n} report${n === 1 ? "" : "s"} in ${PRICE_WINDOW_DAYS} days, ${MIN_PRICE_REPORTS} needed)`;
  }
  const q = g.quote;
  return `${nairaText(q.medianNgn, symbol)} for ${what} at ${g.market}, median of ${q.count} reports, ${dayRange(q.first, q.last, dash)}`;
}

/** Only the web's JSON answer and screen carry this shape. */
export const PriceReportQuerySchema = z.object({
  item: z.string().trim().max(40).optional(),
  market: z.string().trim().max(60).optional(),
});

/** A quote in a phone channel's words (core/ussd-texts.ts `priceQuote` / `priceNoRecent`); ₦ as N for GSM screens. */
export function quoteText(t: { priceQuote: string; priceNoRecent: string }, g: QuotedGroup, symbol = "₦", dash = "–"): string {
  const q = g.quote;
  const fill = (template: string, v: Record<string, string | number>) =>
    template.replace(/\{(\w+)\}/g, (m, k: string) => String(v[k] ?? m));
  if (q.kind === "none") {
    return fill(t.priceNoRecent, {
      unit: g.unit,
      item: g.item,
      market: g.market,
      count: q.count,
      min: MIN_PRICE_REPORTS,
      days: PRICE_WINDOW_DAYS,
    });
  }
  return fill(t.priceQuote, {
    price: nairaText(q.medianNgn, symbol),
    unit: g.unit,
    item: g.item,
    market: g.market,
    count: q.count,
    days: dayRange(q.first, q.last, dash),
  });
}
