// The service query modules (analytics, admin desks, assistant, notifications, files, SOS, health), run on both
// drivers from db/queries/libsql.test.ts and db/queries/d1.worker.test.ts. Each test makes its own rows.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import {
  addDailyCount,
  addHourlyCount,
  addPersonalCount,
  countActiveUsersSince,
  countAllUsers,
  countAreasSince,
  countOpenConnections,
  deleteHourlyBefore,
  deletePersonalBefore,
  messagesPerPeriodSince,
  personalCountsSince,
  sumByKindSince,
  sumEventsSince,
} from "./analytics";
import { closeConnection, openConnection } from "./rooms";
import { insertSession } from "./sessions";
import { createUser } from "./users";

const tag = () => Math.random().toString(36).slice(2, 10);
/** A year of its own per test, so roll-up sums read only that test's rows. */
const ownYear = () => String(2200 + Math.floor(Math.random() * 7000));

export function serviceQuerySuite(driver: string, getDb: () => Db) {
  describe(`service queries on ${driver}`, () => {
    it("adds up the daily and hourly roll-ups per kind, area and period", async () => {
      const db = getDb();
      const y = ownYear();
      const t = tag();
      await addDailyCount(db, { day: `${y}-01-01`, kind: `message.${t}`, area: "s1a", n: 2 });
      await addDailyCount(db, { day: `${y}-01-01`, kind: `message.${t}`, area: "s1a", n: 3 });
      await addDailyCount(db, { day: `${y}-01-02`, kind: `ai.${t}`, area: "", n: 4 });
      await addDailyCount(db, { day: `${Number(y) - 1}-12-31`, kind: `message.${t}`, area: "s1b", n: 100 });
      expect(await sumEventsSince(db, "day", `${y}-01-01`, `message.${t}`)).toBe(5);
      expect(await sumEventsSince(db, "day", `${y}-01-02`, `message.${t}`)).toBe(0);
      expect(await sumByKindSince(db, "day", `${y}-01-01`)).toMatchObject({ [`message.${t}`]: 5, [`ai.${t}`]: 4 });
      expect(await countAreasSince(db, "day", `${y}-01-01`)).toBe(1);
      expect(await messagesPerPeriodSince(db, "day", `${y}-01-01`)).toEqual([{ at: `${y}-01-01`, count: 5 }]);

      await addHourlyCount(db, { hour: `${y}-01-01T05`, kind: `sos.${t}`, area: "s1a", n: 1 });
      await addHourlyCount(db, { hour: `${y}-01-01T05`, kind: `sos.${t}`, area: "s1c", n: 1 });
      await addHourlyCount(db, { hour: `${y}-01-01T06`, kind: `message.${t}`, area: "", n: 7 });
      expect(await sumEventsSince(db, "hour", `${y}-01-01T05`, `sos.${t}`)).toBe(2);
      expect(await countAreasSince(db, "hour", `${y}-01-01T05`)).toBe(2);
      expect(await messagesPerPeriodSince(db, "hour", `${y}-01-01T00`)).toEqual([{ at: `${y}-01-01T06`, count: 7 }]);
      await deleteHourlyBefore(db, `${y}-01-01T06`);
      expect(await sumEventsSince(db, "hour", `${y}-01-01T00`, `sos.${t}`)).toBe(0);
      expect(await sumEventsSince(db, "hour", `${y}-01-01T00`, `message.${t}`)).toBe(7);
    });

    it("keeps each person's own activity apart and prunes only old hours", async () => {
      const db = getDb();
      const a = await createUser(db);
      const b = await createUser(db);
      await addPersonalCount(db, { userId: a.id, hour: "2026-03-01T10", kind: "ai.translate", n: 1 });
      await addPersonalCount(db, { userId: a.id, hour: "2026-03-01T11", kind: "ai.translate", n: 2 });
      await addPersonalCount(db, { userId: a.id, hour: "2026-03-01T11", kind: "message.dm", n: 1 });
      await addPersonalCount(db, { userId: b.id, hour: "2026-03-01T11", kind: "message.dm", n: 9 });
      const mine = await personalCountsSince(db, a.id, "2026-03-01T00");
      expect(Object.fromEntries(mine.map((r) => [r.kind, r.n]))).toEqual({ "ai.translate": 3, "message.dm": 1 });
      expect(await personalCountsSince(db, a.id, "2026-03-01T12")).toEqual([]);
      await deletePersonalBefore(db, "2026-03-01T11");
      const left = await personalCountsSince(db, a.id, "2026-03-01T00");
      expect(left.find((r) => r.kind === "ai.translate")?.n).toBe(2);
      expect((await personalCountsSince(db, b.id, "2026-03-01T00"))[0].n).toBe(9);
    });

    it("counts accounts, people whose session was used lately and open connections", async () => {
      const db = getDb();
      const before = await countAllUsers(db);
      const u = await createUser(db);
      expect(await countAllUsers(db)).toBe(before + 1);
      // Sessions "used" in a year of their own, so only this test's rows are after the cut.
      const at = new Date(Date.UTC(Number(ownYear()), 0, 1));
      const expiresAt = new Date(at.getTime() + 86_400_000);
      await insertSession(db, { id: `s-${tag()}`, userId: u.id, expiresAt, lastUsedAt: at });
      await insertSession(db, { id: `s-${tag()}`, userId: u.id, expiresAt, lastUsedAt: at });
      await insertSession(db, { id: `s-${tag()}`, userId: u.id, expiresAt, lastUsedAt: new Date(at.getTime() - 3600_000) });
      expect(await countActiveUsersSince(db, new Date(at.getTime() - 60_000))).toBe(1);
      expect(await countActiveUsersSince(db, at)).toBe(0);

      const open = await countOpenConnections(db);
      const id = `c-${tag()}`;
      await openConnection(db, { id, userId: u.id, roomId: "nearby:s1abc" });
      expect(await countOpenConnections(db)).toBe(open + 1);
      await closeConnection(db, id);
      expect(await countOpenConnections(db)).toBe(open);
    });
  });
}
