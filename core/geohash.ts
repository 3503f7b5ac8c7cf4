const BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

/** Standard geohash; precision 5 is a cell of about 5 km, the size of a nearby room (docs/architecture.md §5). */
export function encodeGeohash(latitude: number, longitude: number, precision = 5): string {
  let latMin = -90,
    latMax = 90,
    lonMin = -180,
    lonMax = 180;
  let hash = "",
    bit = 0,
    ch = 0,
    even = true;
  while (hash.length < precision) {
    if (even) {
      const mid = (lonMin + lonMax) / 2;
      if (longitude >= mid) {
        ch = (ch << 1) | 1;
        lonMin = mid;
      } else {
        ch <<= 1;
        lonMax = mid;
      }
    } else {
      const mid = (latMin + latMax) / 2;
      if (latitude >= mid) {
        ch = (ch << 1) | 1;
        latMin = mid;
      } else {
        ch <<= 1;
        latMax = mid;
      }
    }
    even = !even;
    if (++bit === 5) {
      hash += BASE32[ch];
      bit = 0;
      ch = 0;
    }
  }
  return hash;
}

/** Great-circle distance in metres. */
export function distanceMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const R = 6_371_000,
    rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad,
    dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

// Height and width in degrees of a precision-5 cell (2^12 latitude and 2^13 longitude divisions).
const CELL5_LAT = 180 / 2 ** 12;
const CELL5_LON = 360 / 2 ** 13;

/**
 * The precision-5 cells within two cells of a point's own (5 × 5 cells, about 25 km across), so everyone
 * within about 10 km is included wherever the point sits in its cell (Premium's extended range).
 */
export function neighbourhoodCells(latitude: number, longitude: number): string[] {
  const cells = new Set<string>();
  for (const dLat of [-2, -1, 0, 1, 2]) {
    for (const dLon of [-2, -1, 0, 1, 2]) {
      const lat = Math.max(-90, Math.min(89.999999, latitude + dLat * CELL5_LAT));
      const lon = ((longitude + dLon * CELL5_LON + 540) % 360) - 180;
      cells.add(encodeGeohash(lat, lon));
    }
  }
  return [...cells];
}

/** The centre of a geohash cell. */
export function decodeGeohash(hash: string): { latitude: number; longitude: number } {
  let latMin = -90,
    latMax = 90,
    lonMin = -180,
    lonMax = 180,
    even = true;
  for (const c of hash) {
    const v = BASE32.indexOf(c);
    if (v < 0) throw new Error(`not a geohash: ${hash}`);
    for (let b = 4; b >= 0; b--) {
      const on = (v >> b) & 1;
      if (even) {
        const mid = (lonMin + lonMax) / 2;
        if (on) lonMin = mid;
        else lonMax = mid;
      } else {
        const mid = (latMin + latMax) / 2;
        if (on) latMin = mid;
        else latMax = mid;
      }
      even = !even;
    }
  }
  return { latitude: (latMin + latMax) / 2, longitude: (lonMin + lonMax) / 2 };
}

/** The precision-3 cells (about 156 km) around a point: every cell-5 within 50 km has one of them as prefix. */
export function regionPrefixes(latitude: number, longitude: number): string[] {
  const cells = new Set<string>();
  for (const dLat of [-1, 0, 1]) for (const dLon of [-1, 0, 1]) cells.add(encodeGeohash(latitude + dLat * 1.4, longitude + dLon * 1.4, 3));
  return [...cells];
}

/** The coarse area kept with an event: geohash-3 (about 150 km), never finer. */
export const coarseArea = (geohash: string | null | undefined) => (geohash ? geohash.slice(0, 3) : "");
