// The reported-prices queries (docs/decisions/068-market-prices-people-report.md), run on both drivers from
// db/queries/libsql.test.ts and db/queries/d1.worker.test.ts. Each test makes its own rows.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import {
  deletePriceReport,
  findPriceReports,
  groupReports,
  insertPriceReportWithinLimit,
  markSettled,
  oldestReportSince,
  reportedItems,
} from "./price-reports";
import { prunePriceReports } from "./retention";
import { createUser } from "./users";

const tag = () => Math.random().toString(36).slice(2, 10);
const HOUR = 3600_000;

export function pricesQuerySuite(driver: string, getDb: () => Db) {
  describe(`reported price queries on ${driver}`, () => {
    it("inserts within the day's limit in one statement, and finds reports by item, market and town", async () => {
      const db = getDb();
      const user = await createUser(db, { nickname: `P ${tag()}` });
      const item = `millet${tag()}`;
      const now = new Date();
      const values = (market: string, town: string | null) => ({
        userId: user.id,
        item,
        itemKey: item,
        unit: "bag",
        priceNgn: 40_000,
        market,
        marketKey: market.toLowerCase(),
        town,
        channel: "web" as const,
      });
      const since = new Date(now.getTime() - 24 * HOUR);
      const first = await insertPriceReportWithinLimit(db, values("Dawanau", "Kano"), { since, perDay: 2 }, new Date(now.getTime() - HOUR));
      expect(first).toMatchObject({ item, settled: false });
      expect(await insertPriceReportWithinLimit(db, values("Yankaba", null), { since, perDay: 2 }, now)).not.toBeNull();
      expect(await insertPriceReportWithinLimit(db, values("Yankaba", null), { since, perDay: 2 }, now)).toBeNull();
      expect((await oldestReportSince(db, user.id, since))?.getTime()).toBe(now.getTime() - HOUR);

      const longAgo = new Date(now.getTime() - 30 * 24 * HOUR);
      expect(await findPriceReports(db, { itemKeys: [item], since: longAgo })).toHaveLength(2);
      expect((await findPriceReports(db, { itemKeys: [item], place: "kano", since: longAgo })).map((r) => r.market)).toEqual(["Dawanau"]);
      expect((await findPriceReports(db, { itemKeys: [item], place: "yank", since: longAgo })).map((r) => r.market)).toEqual(["Yankaba"]);
      expect(await groupReports(db, { itemKey: item, unit: "bag", marketKey: "dawanau" }, longAgo)).toHaveLength(1);
      expect((await reportedItems(db, longAgo)).map((r) => r.itemKey)).toContain(item);

      if (!first) throw new Error("no first report");
      await markSettled(db, [first.id]);
      expect((await groupReports(db, { itemKey: item, unit: "bag", marketKey: "dawanau" }, longAgo))[0].settled).toBe(true);
      expect((await deletePriceReport(db, first.id))?.id).toBe(first.id);
      expect(await deletePriceReport(db, first.id)).toBeUndefined();
    });

    it("prunes reports past the 14-day window and keeps the rest", async () => {
      const db = getDb();
      const user = await createUser(db, { nickname: `P ${tag()}` });
      const item = `sorghum${tag()}`;
      const now = Date.now();
      const at = (days: number) => new Date(now - days * 24 * HOUR);
      const v = { userId: user.id, item, itemKey: item, unit: "bag", priceNgn: 1, market: "M", marketKey: "m", channel: "ussd" as const };
      const limit = { since: at(100), perDay: 10 };
      await insertPriceReportWithinLimit(db, v, limit, at(15));
      await insertPriceReportWithinLimit(db, v, limit, at(13));
      await prunePriceReports(db, { now });
      expect((await findPriceReports(db, { itemKeys: [item], since: at(100) })).map((r) => r.reportedAt.getTime())).toEqual([
        at(13).getTime(),
      ]);
    });
  });
}
