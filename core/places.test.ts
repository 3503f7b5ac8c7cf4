import { describe, expect, it } from "vitest";
import { encodeGeohash } from "./geohash";
import { areaFromPosition, encodeArea, placeFromText, resolveArea, suggestPlaces } from "./places";

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
    expect(area).toEqual({ geohash: encodeGeohash(6.6018, 3.3515, 5), name: "Ikeja area", source: "position" });
    expect(areaFromPosition(0, -30).name).toMatch(/^Area [0-9b-z]{5}$/);
  });
});

describe("resolveArea", () => {
  const none = { latitude: null, longitude: null, geohash: null, locationText: null };

  it("prefers a position over the location text", () => {
    const area = resolveArea({ ...none, latitude: 9.0765, longitude: 7.3986, geohash: "s1v0g", locationText: "Kano" });
    expect(area).toEqual({ geohash: encodeGeohash(9.0765, 7.3986, 5), name: "Abuja area", source: "position" });
  });

  it("falls back to the location text, and to nothing", () => {
    const kano = placeFromText("Kano");
    expect(resolveArea({ ...none, locationText: "Kano city" })).toEqual({
      geohash: encodeArea(kano as NonNullable<typeof kano>),
      name: "Kano area",
      source: "location-text",
    });
    expect(resolveArea({ ...none, locationText: "somewhere" })).toBeNull();
  });

  it("keeps the town's name for the cell stored for it", () => {
    const lagos = encodeArea(placeFromText("Lagos") as NonNullable<ReturnType<typeof placeFromText>>);
    expect(resolveArea({ ...none, geohash: lagos, locationText: "Lagos" })?.name).toBe("Lagos area");
  });

  it("puts every spelling of one town in one cell (web profile, USSD, WhatsApp words)", () => {
    const cells = new Set(
      ["Lagos", "lagos island", "Eko", "LAGOS", "near Lagos Island market"].map((t) => resolveArea({ locationText: t })?.geohash),
    );
    expect(cells.size).toBe(1);
    expect(resolveArea({ locationText: "Benin" })?.geohash).toBe(resolveArea({ locationText: "Benin City" })?.geohash);
  });
});

describe("suggestPlaces", () => {
  it("suggests towns by what is typed so far, aliases included", () => {
    expect(suggestPlaces("ik")).toEqual(expect.arrayContaining(["Ikeja", "Ikorodu"]));
    expect(suggestPlaces("eko")).toEqual(["Lagos"]);
    expect(suggestPlaces("")).toEqual([]);
  });
});
