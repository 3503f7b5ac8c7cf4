// '@ai market [commodity] [place]': reference prices from market_prices (dated, never live quotes).
import { findMarketPrices, listCommodities } from "../../db/queries/content";
import type { Db } from "../../db";

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

/** Prices for the commodities and place named in `query`, at most `maxLines` lines. */
export async function marketAnswer(db: Db, query: string, maxLines = MAX_LINES): Promise<string> {
  const all = await listCommodities(db);
  if (all.length === 0) return "I have no market prices stored yet.";
  const { commodities, place: rest } = matchCommodities(query, all);
  const known = await findMarketPrices(db, { limit: 500 });
  const places = [...new Set(known.map((p) => p.city))];
  // 'in lagos please' or 'mile 12 market': pick out a known city or market; otherwise keep what was typed.
  const lower = rest.toLowerCase();
  const place =
    places.find((c) => lower.includes(c.toLowerCase())) ??
    known.map((p) => p.market).find((m) => lower.includes(m.toLowerCase().replace(/ market$/, ""))) ??
    rest.replace(/^(in|at|for)\s+/i, "");
  if (commodities.length === 0 && !place) {
    return `Ask for a commodity and a place, e.g. '@ai market rice lagos'. I have reference prices for ${all.join(", ")} in ${places.join(", ")}.`;
  }
  let rows = (
    await Promise.all(
      (commodities.length ? commodities : [undefined]).map((commodity) =>
        findMarketPrices(db, { commodity, place: place || undefined, limit: 50 }),
      ),
    )
  ).flat();
  // Exact commodity names: 'rice' matched 'Rice (local)', so filter the LIKE matches back to those.
  if (commodities.length) rows = rows.filter((r) => commodities.includes(r.commodity));
  if (rows.length === 0) {
    const what = commodities.length ? commodities.join(", ") : "that";
    return `I have no prices for ${what}${place ? ` in ${place}` : ""}. I have reference prices for ${places.join(", ")}.`;
  }
  const lines = rows.slice(0, maxLines).map((r) => `• ${r.commodity}, ${r.market} (${r.city}): ${naira(r.priceNgn)} per ${r.unit}`);
  const newest = new Date(Math.max(...rows.map((r) => r.updatedAt.getTime())));
  const more = rows.length > maxLines ? `\n…and ${rows.length - maxLines} more; add a place to narrow it down.` : "";
  return `📊 Market prices (reference prices, updated ${newest.toISOString().slice(0, 10)}):\n${lines.join("\n")}${more}`;
}
