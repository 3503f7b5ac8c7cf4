// Where a user's area room is when the browser gives no position: the profile's location text is matched
// against a small gazetteer of towns and cities (Nigeria first, then other African cities the product serves)
// and the town's centre gives the geohash. No outside geocoder is called, so nothing leaves the Worker and the
// answer is the same every time. Text that names no known place gives no area room: the user is asked to share
// their position instead.
import { distanceMetres, encodeGeohash } from "../../core/geohash";

export interface Place {
  name: string;
  lat: number;
  lon: number;
  aliases?: string[];
}

export const PLACES: Place[] = [
  { name: "Lagos", lat: 6.5244, lon: 3.3792, aliases: ["lagos island", "eko"] },
  { name: "Ikeja", lat: 6.6018, lon: 3.3515 },
  { name: "Lekki", lat: 6.4698, lon: 3.5852 },
  { name: "Victoria Island", lat: 6.4281, lon: 3.4219, aliases: ["v.i", "vi lagos"] },
  { name: "Surulere", lat: 6.5, lon: 3.35 },
  { name: "Yaba", lat: 6.5095, lon: 3.3711 },
  { name: "Ikorodu", lat: 6.6194, lon: 3.5105 },
  { name: "Abuja", lat: 9.0765, lon: 7.3986, aliases: ["fct"] },
  { name: "Kano", lat: 12.0022, lon: 8.592 },
  { name: "Ibadan", lat: 7.3775, lon: 3.947 },
  { name: "Port Harcourt", lat: 4.8156, lon: 7.0498, aliases: ["ph", "portharcourt"] },
  { name: "Benin City", lat: 6.335, lon: 5.6037 },
  { name: "Kaduna", lat: 10.5105, lon: 7.4165 },
  { name: "Enugu", lat: 6.4584, lon: 7.5464 },
  { name: "Onitsha", lat: 6.1498, lon: 6.7857 },
  { name: "Aba", lat: 5.1066, lon: 7.3667 },
  { name: "Jos", lat: 9.8965, lon: 8.8583 },
  { name: "Ilorin", lat: 8.4966, lon: 4.5426 },
  { name: "Owerri", lat: 5.484, lon: 7.0351 },
  { name: "Calabar", lat: 4.9757, lon: 8.3417 },
  { name: "Uyo", lat: 5.0377, lon: 7.9128 },
  { name: "Abeokuta", lat: 7.1475, lon: 3.3619 },
  { name: "Akure", lat: 7.2571, lon: 5.2058 },
  { name: "Maiduguri", lat: 11.8311, lon: 13.151 },
  { name: "Sokoto", lat: 13.0059, lon: 5.2476 },
  { name: "Zaria", lat: 11.0855, lon: 7.7199 },
  { name: "Warri", lat: 5.5167, lon: 5.75 },
  { name: "Osogbo", lat: 7.7827, lon: 4.5418 },
  { name: "Makurdi", lat: 7.7322, lon: 8.5391 },
  { name: "Yola", lat: 9.2035, lon: 12.4954 },
  { name: "Bauchi", lat: 10.3158, lon: 9.8442 },
  { name: "Asaba", lat: 6.1985, lon: 6.7319 },
  { name: "Lokoja", lat: 7.8023, lon: 6.7333 },
  { name: "Minna", lat: 9.6139, lon: 6.5569 },
  { name: "Ado-Ekiti", lat: 7.6211, lon: 5.2214, aliases: ["ado ekiti"] },
  { name: "Katsina", lat: 12.9908, lon: 7.6018 },
  { name: "Gombe", lat: 10.2897, lon: 11.1673 },
  { name: "Accra", lat: 5.6037, lon: -0.187 },
  { name: "Kumasi", lat: 6.6885, lon: -1.6244 },
  { name: "Nairobi", lat: -1.2921, lon: 36.8219 },
  { name: "Mombasa", lat: -4.0435, lon: 39.6682 },
  { name: "Kampala", lat: 0.3476, lon: 32.5825 },
  { name: "Dar es Salaam", lat: -6.7924, lon: 39.2083 },
  { name: "Kigali", lat: -1.9441, lon: 30.0619 },
  { name: "Addis Ababa", lat: 9.0054, lon: 38.7636 },
  { name: "Johannesburg", lat: -26.2041, lon: 28.0473 },
  { name: "Cape Town", lat: -33.9249, lon: 18.4241 },
  { name: "Dakar", lat: 14.7167, lon: -17.4677 },
  { name: "Abidjan", lat: 5.36, lon: -4.0083 },
  { name: "Douala", lat: 4.0511, lon: 9.7679 },
  { name: "Cotonou", lat: 6.3703, lon: 2.3912 },
  { name: "Lomé", lat: 6.1319, lon: 1.2228, aliases: ["lome"] },
  { name: "Kinshasa", lat: -4.4419, lon: 15.2663 },
  { name: "Lusaka", lat: -15.3875, lon: 28.3228 },
  { name: "Harare", lat: -17.8252, lon: 31.0335 },
  { name: "Cairo", lat: 30.0444, lon: 31.2357 },
];

function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

/** The place a location text names; the longest matching name wins ('Victoria Island, Lagos' → Victoria Island). */
export function placeFromText(text: string | null | undefined): Place | null {
  if (!text?.trim()) return null;
  const hay = normalise(text);
  let best: { place: Place; length: number } | null = null;
  for (const place of PLACES) {
    for (const name of [place.name, ...(place.aliases ?? [])]) {
      const needle = normalise(name);
      if (needle.trim() && hay.includes(needle) && (!best || needle.length > best.length)) best = { place, length: needle.length };
    }
  }
  return best?.place ?? null;
}

/** The nearest known place within 30 km of a position, to name an area room. */
export function nearestPlace(lat: number, lon: number, withinMetres = 30_000): Place | null {
  let best: { place: Place; d: number } | null = null;
  for (const place of PLACES) {
    const d = distanceMetres({ latitude: lat, longitude: lon }, { latitude: place.lat, longitude: place.lon });
    if (d <= withinMetres && (!best || d < best.d)) best = { place, d };
  }
  return best?.place ?? null;
}

/** Area of a position: geohash-5 cell and a readable name. */
export function areaFromPosition(lat: number, lon: number): { geohash: string; name: string } {
  const geohash = encodeGeohash(lat, lon, 5);
  const place = nearestPlace(lat, lon);
  return { geohash, name: place ? `${place.name} area` : `Area ${geohash}` };
}

/** Geohash-5 cell of a place's centre. */
export function encodeArea(place: Place): string {
  return encodeGeohash(place.lat, place.lon, 5);
}
