// '@ai market [commodity] [place]': reference prices from market_prices (dated, never live quotes).
import { findMarketPrices, listCommodities } from "../../db/queries/content";
import { distanceMetres } from "../../core/geohash";
import type { Db } from "../../db";
import { placeFromText } from "../../core/places";

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
 * asker's own area decides: the nearest market city's prices come first (spec: prices for where you are).
 */
export async function marketAnswer(db: Db, query: string, area: Area | null = null, maxLines = MAX_LINES): Promise<string> {
  const all = await listCommodities(db);
  if (all.length === 0) return "I have no market prices stored yet.";
  const { commodities, place: rest } = matchCommodities(query, all);
  const known = await findMarketPrices(db, { limit: 500 });
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
      if (commodities.length)
        return `I have no prices for ${commodities.join(", ")} in ${rest}. I have reference prices for ${places.join(", ")}.`;
      return `I have no prices for "${rest}". I have reference prices for ${all.join(", ")} in ${places.join(", ")}.`;
    }
    near = { name: town.name, latitude: town.lat, longitude: town.lon };
  }
  let intro = "";
  if (!place && near) {
    const nearest = byDistance(places, near)[0];
    // Without a commodity one city's list is the answer; with one, every city is listed nearest first.
    if (!commodities.length && nearest) place = nearest;
    intro = nearest && nearest.toLowerCase() !== near.name.toLowerCase() ? ` (nearest market to ${near.name}: ${nearest})` : "";
  }
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
  if (!place && near) {
    const order = byDistance(places, near);
    rows = [...rows].sort((a, b) => order.indexOf(a.city) - order.indexOf(b.city));
  }
  if (rows.length === 0) {
    const what = commodities.length ? commodities.join(", ") : "that";
    return `I have no prices for ${what}${place ? ` in ${place}` : ""}. I have reference prices for ${places.join(", ")}.`;
  }
  const lines = rows.slice(0, maxLines).map((r) => `• ${r.commodity}, ${r.market} (${r.city}): ${naira(r.priceNgn)} per ${r.unit}`);
  const newest = new Date(Math.max(...rows.map((r) => r.updatedAt.getTime())));
  const more = rows.length > maxLines ? `\n…and ${rows.length - maxLines} more; add a place to narrow it down.` : "";
  return `📊 Market prices${intro} (reference prices, updated ${newest.toISOString().slice(0, 10)}):\n${lines.join("\n")}${more}`;
}
