// The one gazetteer of LinkUp (docs/decisions/009-one-place-one-room.md): towns and districts people name, with
// the coordinates of their centre. Rooms, SOS, USSD and WhatsApp all resolve a place through `resolveArea`, so
// the same town lands in the same area room whatever the channel. No outside geocoder is called: nothing leaves
// the Worker and the answer is the same every time. Approximate to about 1 km.
import { distanceMetres, encodeGeohash } from "./geohash";

/** What the server answers (409) when neither a position nor a known town gives an area room. */
export const NO_AREA_MESSAGE = "Share your location or set your town in Settings to join your area room.";

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
  { name: "Benin City", lat: 6.335, lon: 5.6037, aliases: ["benin"] },
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
  { name: "Ajah", lat: 6.4672, lon: 3.5717 },
  { name: "Oshodi", lat: 6.5568, lon: 3.3436 },
  { name: "Mushin", lat: 6.5273, lon: 3.3414 },
  { name: "Apapa", lat: 6.4489, lon: 3.3592 },
  { name: "Agege", lat: 6.6194, lon: 3.3209 },
  { name: "Festac", lat: 6.4667, lon: 3.2833 },
  { name: "Badagry", lat: 6.4157, lon: 2.8813 },
  { name: "Ota", lat: 6.6804, lon: 3.2356 },
  { name: "Sagamu", lat: 6.8322, lon: 3.6319 },
  { name: "Oyo", lat: 7.8526, lon: 3.9312 },
  { name: "Ogbomoso", lat: 8.1337, lon: 4.2407 },
  { name: "Ile-Ife", lat: 7.4905, lon: 4.5521 },
  { name: "Garki", lat: 9.0333, lon: 7.4893 },
  { name: "Wuse", lat: 9.0699, lon: 7.4796 },
  { name: "Maitama", lat: 9.0882, lon: 7.4934 },
  { name: "Kubwa", lat: 9.1548, lon: 7.3226 },
  { name: "Nyanya", lat: 9.0167, lon: 7.5667 },
  { name: "Birnin Kebbi", lat: 12.4539, lon: 4.1975 },
  { name: "Gusau", lat: 12.1628, lon: 6.6614 },
  { name: "Dutse", lat: 11.7564, lon: 9.3389 },
  { name: "Damaturu", lat: 11.747, lon: 11.9608 },
  { name: "Jalingo", lat: 8.8937, lon: 11.3596 },
  { name: "Lafia", lat: 8.4939, lon: 8.5153 },
  { name: "Nsukka", lat: 6.8567, lon: 7.3958 },
  { name: "Awka", lat: 6.2104, lon: 7.0741 },
  { name: "Nnewi", lat: 6.0199, lon: 6.9172 },
  { name: "Abakaliki", lat: 6.3249, lon: 8.1137 },
  { name: "Umuahia", lat: 5.532, lon: 7.486 },
  { name: "Yenagoa", lat: 4.9267, lon: 6.2676 },
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

/** The place a text names; the longest matching name wins ('Victoria Island, Lagos' → Victoria Island). */
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

/** Known places whose name starts with what a person has typed so far (for a town field's suggestions). */
export function suggestPlaces(prefix: string, limit = 6): string[] {
  const p = normalise(prefix).trim();
  if (!p) return [];
  return PLACES.filter((place) => [place.name, ...(place.aliases ?? [])].some((n) => normalise(n).trim().startsWith(p)))
    .map((place) => place.name)
    .slice(0, limit);
}

/** The nearest known place within 30 km of a position, to name an area. */
export function nearestPlace(lat: number, lon: number, withinMetres = 30_000): Place | null {
  let best: { place: Place; d: number } | null = null;
  for (const place of PLACES) {
    const d = distanceMetres({ latitude: lat, longitude: lon }, { latitude: place.lat, longitude: place.lon });
    if (d <= withinMetres && (!best || d < best.d)) best = { place, d };
  }
  return best?.place ?? null;
}

export interface Area {
  /** Geohash-5 cell (about 5 km): the area room is `nearby:<geohash>`. */
  geohash: string;
  name: string;
  source: "position" | "location-text";
}

/** Area of a position: its geohash-5 cell, named after the nearest known place. */
export function areaFromPosition(lat: number, lon: number): Area {
  const geohash = encodeGeohash(lat, lon, 5);
  const place = nearestPlace(lat, lon);
  return { geohash, name: place ? `${place.name} area` : `Area ${geohash}`, source: "position" };
}

/** Geohash-5 cell of a place's centre. */
export function encodeArea(place: Place): string {
  return encodeGeohash(place.lat, place.lon, 5);
}

export interface AreaInput {
  latitude?: number | null;
  longitude?: number | null;
  /** A geohash already stored for a position (no coordinates kept). */
  geohash?: string | null;
  locationText?: string | null;
}

/**
 * The area for whatever is known of a person's whereabouts, by one precedence for every channel: a position
 * first, then a stored geohash, then a town or district named in text. Null when none of them gives an area.
 */
export function resolveArea(input: AreaInput): Area | null {
  if (input.latitude != null && input.longitude != null) return areaFromPosition(input.latitude, input.longitude);
  const place = placeFromText(input.locationText);
  if (input.geohash) {
    const geohash = input.geohash.slice(0, 5);
    // A cell stored for the named town keeps the town's name.
    if (place && encodeArea(place) === geohash) return { geohash, name: `${place.name} area`, source: "location-text" };
    return { geohash, name: `Area ${geohash}`, source: "position" };
  }
  if (!place) return null;
  return { geohash: encodeArea(place), name: `${place.name} area`, source: "location-text" };
}
