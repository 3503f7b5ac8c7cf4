// '@ai weather [place]': a public forecast (Open-Meteo, no key) when online; offline it says it needs a connection.
import { z } from "zod";
import { withTimeout } from "./provider";
import { type WeatherWords, weatherWords } from "./wording";

const GeoAnswer = z.object({
  results: z.array(z.object({ name: z.string(), latitude: z.number(), longitude: z.number(), country: z.string().optional() })).optional(),
});
const ForecastAnswer = z.object({
  daily: z.object({
    time: z.array(z.string()).min(1),
    temperature_2m_max: z.array(z.number()).min(1),
    temperature_2m_min: z.array(z.number()).min(1),
    precipitation_probability_max: z.array(z.number().nullable()).min(1),
  }),
});

export const WEATHER_API = {
  geocode: "https://geocoding-api.open-meteo.com/v1/search",
  forecast: "https://api.open-meteo.com/v1/forecast",
};

/** Today's or tomorrow's forecast for a place (or the asker's area); throws when the service cannot answer. */
export async function forecast(
  place: string,
  fallback: { name?: string; latitude: number; longitude: number } | null,
  timeoutMs: number,
  day: "today" | "tomorrow" = "today",
  // The words around the figures, in the asker's language (workers/assistant/wording.ts).
  words: WeatherWords = weatherWords(),
): Promise<string> {
  let where: { name: string; latitude: number; longitude: number } | null = null;
  if (place) {
    const url = `${WEATHER_API.geocode}?count=1&name=${encodeURIComponent(place)}`;
    const geo = GeoAnswer.parse(await (await withTimeout(fetch(url), timeoutMs)).json());
    const hit = geo.results?.[0];
    if (!hit) return words.notFound(place);
    where = hit;
  } else if (fallback) {
    where = { ...fallback, name: fallback.name ?? words.yourArea };
  } else {
    return words.tellPlace;
  }
  const url = `${WEATHER_API.forecast}?latitude=${where.latitude}&longitude=${where.longitude}&daily=temperature_2m_max,temperature_2m_min,precipitation_probability_max&timezone=auto&forecast_days=${day === "tomorrow" ? 2 : 1}`;
  const res = await withTimeout(fetch(url), timeoutMs);
  if (!res.ok) throw new Error(`forecast service answered ${res.status}`);
  const d = ForecastAnswer.parse(await res.json()).daily;
  const i = day === "tomorrow" && d.time.length > 1 ? 1 : 0;
  const rain = d.precipitation_probability_max[i] ?? null;
  return words.forecast(
    where.name,
    i > 0,
    d.time[i],
    Math.round(d.temperature_2m_min[i] ?? 0),
    Math.round(d.temperature_2m_max[i] ?? 0),
    rain,
  );
}
