// '@ai market [commodity] [place]': prices from market_prices (dated, never live quotes; the seeded examples only
// in development, docs/decisions/060-every-claim-true.md).
import { findMarketPrices, listCommodities } from "../../db/queries/content";
import { distanceMetres } from "../../core/geohash";
import type { Db } from "../../db";
import { placeFromText } from "../../core/places";
import { isRecentPrice, RECENT_PRICE_DAYS } from "../../core/admin-schemas";
import { type MarketWords, marketWords, originIn } from "./wording";
import { parsePriceReportText } from "../../core/price-reports";
import { reportedPriceAnswer } from "../prices";

const naira = (n: number) => `₦${n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
const stem = (w: string) =>
  w
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/(es|s)$/, "");
const MAX_LINES = 8;

/** Splits the words after 'market' into the commodities they name and the place that remains. */
export function matchCommodities(query: string, commodities: string[]): { commodities: string[]; place: string } {
  const words = query.split(/\s+/).filter(Boolean);
  const used = new Set<number>();
  const matched: string[] = [];
  for (const c of commodities) {
    const key = stem(c.split(/[\s(]/)[0] ?? "");
    const i = words.findIndex((w) => key.length >= 3 && stem(w) === key);
    if (i >= 0) {
      matched.push(c);
      used.add(i);
      // 'palm oil': the second word belongs to the commodity too.
      const second = c.toLowerCase().split(/\s+/)[1];
      if (second && !second.startsWith("(") && words[i + 1]?.toLowerCase() === second) used.add(i + 1);
    }
  }
  const place = words.filter((_, i) => !used.has(i)).join(" ");
  return { commodities: matched, place };
}

/** Where the asker is: a position and a readable name (their town, or the nearest known one). */
export interface Area {
  name: string;
  latitude: number;
  longitude: number;
}

/** Market cities ordered by distance from a point; cities missing from the gazetteer go last. */
function byDistance(cities: string[], from: { latitude: number; longitude: number }): string[] {
  const distance = (city: string) => {
    const p = placeFromText(city);
    return p ? distanceMetres(from, { latitude: p.lat, longitude: p.lon }) : Number.POSITIVE_INFINITY;
  };
  return [...cities].sort((a, b) => distance(a) - distance(b));
}

/**
 * Prices for the commodities and place named in `query`, at most `maxLines` lines. With no place named, the
 * asker's own area decides: the nearest market city's prices come first (docs/product/assistant.md).
 */
export async function marketAnswer(
  db: Db,
  query: string,
  area: Area | null = null,
  maxLines = MAX_LINES,
  now = new Date(),
  examples = false,
  // The words around the figures, in the asker's language (workers/assistant/wording.ts).
  words: MarketWords = marketWords(),
): Promise<string> {
  const priceOrigin = (r: { source: string; updatedAt: Date }) => originIn(words, r);
  // '@ai price rice 50kg 78000 Mile 12' in a chat is a report, which the assistant does not take: say where it goes.
  if (parsePriceReportText(query)) {
    return words.reported.reportIt;
  }
  // Prices people reported come first: the median of the last 14 days (docs/decisions/068-market-prices-people-report.md).
  const reported = await reportedPriceAnswer(db, query, now, words.reported);
  if (reported) return reported;
  const all = await listCommodities(db, { examples });
  // Production starts with no prices: the seeded figures are examples, quoted only in development.
  if (all.length === 0) return words.noneYet;
  const { commodities, place: rest } = matchCommodities(query, all);
  const known = await findMarketPrices(db, { limit: 500, examples });
  const places = [...new Set(known.map((p) => p.city))];
  // 'in lagos please' or 'mile 12 market': pick out a known city or market; a town of the gazetteer without
  // a market of its own stands for its nearest market city ('ikeja' → Lagos).
  const lower = rest.toLowerCase();
  let place =
    places.find((c) => lower.includes(c.toLowerCase())) ??
    known.map((p) => p.market).find((m) => lower.includes(m.toLowerCase().replace(/ market$/, ""))) ??
    "";
  let near = area;
  if (!place && rest) {
    const town = placeFromText(rest);
    if (!town) {
      if (commodities.length) return words.noneFor(commodities.join(", "), words.inPlace(rest), places.join(", "));
      return words.noneNamed(rest, all.join(", "), places.join(", "));
    }
    near = { name: town.name, latitude: town.lat, longitude: town.lon };
  }
  let intro = "";
  if (!place && near) {
    const nearest = byDistance(places, near)[0];
    // Without a commodity one city's list is the answer; with one, every city is listed nearest first.
    if (!commodities.length && nearest) place = nearest;
    intro = nearest && nearest.toLowerCase() !== near.name.toLowerCase() ? words.nearest(near.name, nearest) : "";
  }
  if (commodities.length === 0 && !place) {
    return words.askFor(all.join(", "), places.join(", "));
  }
  let rows = (
    await Promise.all(
      (commodities.length ? commodities : [undefined]).map((commodity) =>
        findMarketPrices(db, { commodity, place: place || undefined, limit: 50, examples }),
      ),
    )
  ).flat();
  // Exact commodity names: 'rice' matched 'Rice (local)', so filter the LIKE matches back to those.
  if (commodities.length) rows = rows.filter((r) => commodities.includes(r.commodity));
  if (!place && near) {
    const order = byDistance(places, near);
    rows = [...rows].sort((a, b) => order.indexOf(a.city) - order.indexOf(b.city));
  }
  const what = commodities.length ? commodities.join(", ") : words.that;
  const where = place ? words.inPlace(place) : "";
  if (rows.length === 0) return words.noneFor(what, where, places.join(", "));
  // A stale figure is not quoted as a price (docs/decisions/026-market-prices.md): say how old the last one is.
  const recent = rows.filter((r) => isRecentPrice(r, now));
  if (recent.length === 0) {
    const last = rows.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
    return words.noneRecent(what, where, priceOrigin(last), RECENT_PRICE_DAYS);
  }
  const shown = recent.slice(0, maxLines);
  // One source and day for all: said once in the heading; otherwise next to each price.
  const origins = new Set(shown.map(priceOrigin));
  const one = origins.size === 1;
  const lines = shown.map(
    (r) => `• ${r.commodity}, ${r.market} (${r.city}): ${words.perUnit(naira(r.priceNgn), r.unit)}${one ? "" : ` (${priceOrigin(r)})`}`,
  );
  const more = recent.length > maxLines ? `\n${words.more(recent.length - maxLines)}` : "";
  const heading = one ? words.oneSource([...origins][0]) : words.eachLine;
  return `${words.heading(intro, heading)}\n${lines.join("\n")}${more}`;
}
