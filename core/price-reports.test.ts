import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dayRange,
  itemAnswersTo,
  itemKey,
  marketKey,
  median,
  MIN_PRICE_REPORTS,
  parsePriceReportText,
  PriceReportSchema,
  quoteLine,
  quotePrice,
  splitOutliers,
  unitKey,
} from "./price-reports";

const NOW = new Date("2026-11-26T12:00:00Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);
const reports = (prices: number[], day = 1) => prices.map((priceNgn) => ({ priceNgn, reportedAt: daysAgo(day) }));
const price = fc.integer({ min: 1, max: 10_000_000 });

describe("the median and its outliers", () => {
  it("takes the middle report, or the mean of the middle two", () => {
    expect(median([78_000, 75_000, 80_000])).toBe(78_000);
    expect(median([70_000, 80_000])).toBe(75_000);
  });

  it("leaves out a price far from the others and quotes the rest", () => {
    const { kept, outliers } = splitOutliers(reports([78_000, 77_000, 80_000, 79_000, 780_000, 7_800]));
    expect(outliers.map((r) => r.priceNgn).sort()).toEqual([7_800, 780_000]);
    expect(kept).toHaveLength(4);
    const q = quotePrice(reports([78_000, 77_000, 80_000, 79_000, 780_000]), NOW);
    expect(q).toMatchObject({ kind: "price", medianNgn: 78_500, count: 4, outliers: 1 });
  });

  it("does not call a price 1% off an outlier when every other report agrees exactly", () => {
    expect(splitOutliers(reports([50_000, 50_000, 50_000, 50_500])).outliers).toEqual([]);
  });

  it("says there is no recent price with too few reports, or only old ones", () => {
    expect(quotePrice(reports([78_000, 79_000]), NOW)).toEqual({ kind: "none", count: 2 });
    expect(quotePrice(reports([78_000, 79_000, 80_000], 15), NOW)).toEqual({ kind: "none", count: 0 });
    expect(quotePrice(reports([78_000, 79_000, 80_000], 13), NOW).kind).toBe("price");
  });

  it("property: the quoted median lies between the lowest and highest report kept", () => {
    fc.assert(
      fc.property(fc.array(price, { minLength: MIN_PRICE_REPORTS, maxLength: 40 }), (prices) => {
        const { kept } = splitOutliers(reports(prices));
        const m = median(kept.map((r) => r.priceNgn));
        expect(m).toBeGreaterThanOrEqual(Math.min(...kept.map((r) => r.priceNgn)));
        expect(m).toBeLessThanOrEqual(Math.max(...kept.map((r) => r.priceNgn)));
      }),
    );
  });

  it("property: at least half the reports are kept, whatever their order", () => {
    fc.assert(
      fc.property(fc.array(price, { minLength: 1, maxLength: 40 }), fc.integer(), (prices, seed) => {
        const a = splitOutliers(reports(prices))
          .kept.map((r) => r.priceNgn)
          .sort((x, y) => x - y);
        const shuffled = [...prices].sort((x, y) => ((x * 31 + seed) % 7) - ((y * 31 + seed) % 7));
        const b = splitOutliers(reports(shuffled))
          .kept.map((r) => r.priceNgn)
          .sort((x, y) => x - y);
        expect(a).toEqual(b);
        expect(a.length * 2).toBeGreaterThanOrEqual(prices.length);
      }),
    );
  });

  it("property: one wild report among agreeing ones is left out and does not move the quote", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 95, max: 105 }), { minLength: MIN_PRICE_REPORTS, maxLength: 20 }),
        fc.constantFrom(0.1, 10, 100),
        (hundreds, factor) => {
          const honest = hundreds.map((h) => h * 1000);
          const wild = Math.round(median(honest) * factor);
          const with_ = quotePrice(reports([...honest, wild]), NOW);
          const without = quotePrice(reports(honest), NOW);
          expect(with_.kind).toBe("price");
          if (with_.kind === "price" && without.kind === "price") {
            expect(with_.outliers).toBeGreaterThanOrEqual(1);
            expect(Math.abs(with_.medianNgn - without.medianNgn)).toBeLessThanOrEqual(5_000);
          }
        },
      ),
    );
  });
});

describe("what a report says", () => {
  it("reads 'rice 50kg 78000 Mile 12' and its variants", () => {
    expect(parsePriceReportText("rice 50kg 78000 Mile 12")).toEqual({ item: "rice", unit: "50kg", priceNgn: 78_000, market: "Mile 12" });
    expect(parsePriceReportText("Palm oil 25 litres ₦45,000 at Oyingbo market")).toEqual({
      item: "Palm oil",
      unit: "25litres",
      priceNgn: 45_000,
      market: "Oyingbo market",
    });
    expect(parsePriceReportText("yam 2500 per tuber in Bodija")).toMatchObject({
      item: "yam",
      unit: "tuber",
      priceNgn: 2500,
      market: "Bodija",
    });
    expect(parsePriceReportText("beans bag 78k Dawanau")).toMatchObject({ priceNgn: 78_000, market: "Dawanau" });
  });

  it("refuses a report missing its price, unit or item", () => {
    expect(parsePriceReportText("rice Mile 12")).toBeNull();
    expect(parsePriceReportText("50kg 78000 Mile 12")).toBeNull();
    expect(parsePriceReportText("rice 78000 Mile 12")).toBeNull();
  });

  it("matches items, units and markets however they are written", () => {
    expect(itemKey("Tomatoes")).toBe("tomato");
    expect(itemKey("  Onions ")).toBe("onion");
    expect(unitKey("50 KG")).toBe("50 kg");
    expect(unitKey("Bags")).toBe("bag");
    expect(unitKey("Mile")).toBeNull();
    expect(marketKey("Mile 12 Market")).toBe("mile 12");
  });

  it("finds a reported item by its everyday name: a whole word of it, never part of a word", () => {
    expect(itemAnswersTo(itemKey("Ofada rice"), itemKey("rice"))).toBe(true);
    expect(itemAnswersTo(itemKey("rice"), itemKey("Rice"))).toBe(true);
    expect(itemAnswersTo(itemKey("red palm oil"), itemKey("palm oil"))).toBe(true);
    expect(itemAnswersTo(itemKey("Sweet potatoes"), itemKey("potato"))).toBe(true);
    expect(itemAnswersTo(itemKey("ofada rice"), itemKey("ice"))).toBe(false);
    expect(itemAnswersTo(itemKey("rice"), itemKey("ofada rice"))).toBe(false);
    expect(itemAnswersTo(itemKey("rice"), "")).toBe(false);
  });

  it("is validated at the boundary with the reason in words", () => {
    expect(PriceReportSchema.safeParse({ item: "rice", unit: "50kg", priceNgn: "78000", market: "Mile 12" }).success).toBe(true);
    const bad = PriceReportSchema.safeParse({ item: "rice", unit: "lots", priceNgn: "-1", market: "" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining([
        "Give a unit such as 50kg, bag, tuber, basket or litre",
        "Give the price in naira",
        "Name the market or area",
      ]),
    );
  });
});

describe("how a price is said", () => {
  it("quotes the median with the count and the days of the reports", () => {
    const quote = quotePrice([...reports([77_000], 13.9), ...reports([78_000, 80_000], 0)], NOW);
    expect(quoteLine({ item: "rice", unit: "50 kg", market: "Mile 12", quote })).toBe(
      "₦78,000 for 50 kg rice at Mile 12, median of 3 reports, 12–26 Nov",
    );
    expect(quoteLine({ item: "rice", unit: "50 kg", market: "Mile 12", quote: { kind: "none", count: 1 } })).toBe(
      "50 kg rice at Mile 12: no recent price (1 report in 14 days, 3 needed)",
    );
  });

  it("names both months when the reports span two", () => {
    expect(dayRange(new Date("2026-10-28T09:00:00Z"), new Date("2026-11-03T09:00:00Z"))).toBe("28 Oct–3 Nov");
    expect(dayRange(new Date("2026-11-26T01:00:00Z"), new Date("2026-11-26T09:00:00Z"))).toBe("26 Nov");
  });
});
