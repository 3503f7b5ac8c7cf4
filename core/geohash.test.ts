import { describe, expect, it } from "vitest";
import { distanceMetres, encodeGeohash, neighbourhoodCells, decodeGeohash, regionPrefixes } from "./geohash";

describe("geohash", () => {
  it("matches known cells", () => {
    expect(encodeGeohash(57.64911, 10.40744, 11)).toBe("u4pruydqqvj");
    expect(encodeGeohash(-25.382708, -49.265506, 8)).toBe("6gkzwgjz");
  });
  it("puts two places a street apart in the same 5-character room", () => {
    expect(encodeGeohash(6.5244, 3.3792)).toBe(encodeGeohash(6.5252, 3.3801));
  });
  it("measures distance in metres", () => {
    const lagosToIbadan = distanceMetres({ latitude: 6.5244, longitude: 3.3792 }, { latitude: 7.3775, longitude: 3.947 });
    // About 114 km as the crow flies.
    expect(lagosToIbadan / 1000).toBeGreaterThan(110);
    expect(lagosToIbadan / 1000).toBeLessThan(118);
  });
  it("a neighbourhood reaches about 10 km in every direction, not 30", () => {
    const lagos = { latitude: 6.5244, longitude: 3.3792 };
    const cells = neighbourhoodCells(lagos.latitude, lagos.longitude);
    expect(cells).toHaveLength(25);
    expect(cells).toContain(encodeGeohash(lagos.latitude, lagos.longitude));
    for (const [dLat, dLon] of [
      [0.08, 0],
      [-0.08, 0],
      [0, 0.08],
      [0, -0.08],
    ]) {
      const near = { latitude: lagos.latitude + dLat, longitude: lagos.longitude + dLon };
      expect(distanceMetres(lagos, near)).toBeLessThan(10_000);
      expect(cells).toContain(encodeGeohash(near.latitude, near.longitude));
    }
    expect(cells).not.toContain(encodeGeohash(lagos.latitude + 0.27, lagos.longitude));
  });
});

describe("decodeGeohash", () => {
  it("finds the centre of a cell, which encodes back to the same cell", () => {
    const c = decodeGeohash("s14f9");
    expect(encodeGeohash(c.latitude, c.longitude, 5)).toBe("s14f9");
  });
  it("region prefixes cover every area room within 50 km", () => {
    const prefixes = regionPrefixes(6.6, 3.35);
    for (const [dLat, dLon] of [
      [0.44, 0],
      [-0.44, 0],
      [0, 0.45],
      [0, -0.45],
      [0.3, 0.3],
    ])
      expect(prefixes).toContain(encodeGeohash(6.6 + dLat, 3.35 + dLon, 3));
  });
});
