import { describe, expect, it } from "vitest";
import { encodeGeohash } from "../../core/geohash";
import { areaFromPosition, encodeArea, placeFromText } from "./places";
import { nearbyFor } from "./rooms";

describe("area from location text", () => {
  it("finds the town a profile names, the most specific name winning", () => {
    expect(placeFromText("Surulere, Lagos")?.name).toBe("Surulere");
    expect(placeFromText("victoria island lagos")?.name).toBe("Victoria Island");
    expect(placeFromText("Lagos")?.name).toBe("Lagos");
    expect(placeFromText("PH, Rivers State")?.name).toBe("Port Harcourt");
    expect(placeFromText("Lomé")?.name).toBe("Lomé");
  });

  it("finds nothing in text that names no known place, and never matches inside a word", () => {
    expect(placeFromText("my house")).toBeNull();
    expect(placeFromText("")).toBeNull();
    expect(placeFromText(null)).toBeNull();
    // 'aba' inside 'Abakaliki-ish' spelled together must not match Aba.
    expect(placeFromText("Abakalikitown")).toBeNull();
  });
});

describe("area from a position", () => {
  it("is the geohash-5 cell, named after the nearest known place", () => {
    const area = areaFromPosition(6.6018, 3.3515);
    expect(area).toEqual({ geohash: encodeGeohash(6.6018, 3.3515, 5), name: "Ikeja area" });
    expect(areaFromPosition(0, -30).name).toMatch(/^Area [0-9b-z]{5}$/);
  });
});

describe("nearbyFor", () => {
  const none = { latitude: null, longitude: null, geohash: null, locationText: null };

  it("prefers the browser's position over the location text", () => {
    const n = nearbyFor({ ...none, latitude: 9.0765, longitude: 7.3986, geohash: "s1v0g", locationText: "Kano" });
    expect(n).toEqual({ roomId: `nearby:${encodeGeohash(9.0765, 7.3986, 5)}`, name: "Abuja area", source: "position" });
  });

  it("falls back to the location text, and to nothing", () => {
    const place = placeFromText("Kano");
    expect(nearbyFor({ ...none, locationText: "Kano city" })).toEqual({
      roomId: `nearby:${encodeArea(place as NonNullable<typeof place>)}`,
      name: "Kano area",
      source: "location-text",
    });
    expect(nearbyFor({ ...none, locationText: "somewhere" })).toBeNull();
  });
});
