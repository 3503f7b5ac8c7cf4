// The session passes' revocation feed (docs/decisions/079-a-pass-that-lasts-the-day.md), run on both drivers from
// db/queries/libsql.test.ts and db/queries/d1.worker.test.ts: the triggers of migration 0035 write it whichever code
// path ends a session, and the Cron keeps 12 hours of it. Each test makes its own rows.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import { revocationsAfter } from "./pass-revocations";
import { prunePassRevocations, RETENTION } from "./retention";
import { deleteAllSessions, deleteOtherSessions, deleteSession, insertSession, moveSession } from "./sessions";
import { createUser, updateUser } from "./users";

const tag = () => Math.random().toString(36).slice(2, 10);
const HOUR = 3600_000;

export function passRevocationsQuerySuite(driver: string, getDb: () => Db) {
  describe(`the pass revocation feed on ${driver}`, () => {
    const feedOf = async (db: Db) => revocationsAfter(db, 0, new Date(Date.now() - HOUR));

    it("names every session ended before its time, by whichever path, and no session that had expired", async () => {
      const db = getDb();
      const [ada, bola] = [await createUser(db, { nickname: `A ${tag()}` }), await createUser(db, { nickname: `B ${tag()}` })];
      const live = new Date(Date.now() + HOUR);
      const ids = Array.from({ length: 6 }, () => `s-${tag()}`);
      for (const id of ids.slice(0, 4)) await insertSession(db, { id, userId: ada.id, expiresAt: live });
      await insertSession(db, { id: ids[4], userId: bola.id, expiresAt: live });
      await insertSession(db, { id: ids[5], userId: bola.id, expiresAt: new Date(Date.now() - 1000) });
      await deleteSession(db, ids[0]); // sign-out
      await deleteOtherSessions(db, ada.id, ids[1]); // "sign out other devices" ends ids[2] and ids[3]
      await moveSession(db, ids[1], bola.id); // a sign-in that proved a known phone
      await deleteAllSessions(db, bola.id); // a ban: ids[1] (now Bola's), ids[4], and the expired ids[5]
      const named = new Set((await feedOf(db)).map((r) => r.sessionId));
      for (const id of ids.slice(0, 5)) expect(named.has(id), id).toBe(true);
      expect(named.has(ids[5])).toBe(false);
    });

    it("names a person whose shown name or anonymity changed, and not one whose location did", async () => {
      const db = getDb();
      const [renamed, moved] = [await createUser(db, { nickname: `R ${tag()}` }), await createUser(db, { nickname: `M ${tag()}` })];
      await updateUser(db, renamed.id, { nickname: `Renamed ${tag()}` });
      await updateUser(db, moved.id, { geohash: "s14kt" });
      const people = (await feedOf(db)).map((r) => r.userId);
      expect(people).toContain(renamed.id);
      expect(people).not.toContain(moved.id);
    });

    it("is read in id order after the last id seen, and the Cron keeps only the pass's life of it", async () => {
      const db = getDb();
      const user = await createUser(db, { nickname: `F ${tag()}` });
      const first = `s-${tag()}`;
      const second = `s-${tag()}`;
      for (const id of [first, second]) await insertSession(db, { id, userId: user.id, expiresAt: new Date(Date.now() + HOUR) });
      await deleteSession(db, first);
      const seen = (await feedOf(db)).find((r) => r.sessionId === first);
      if (!seen) throw new Error("the first sign-out is not in the feed");
      await deleteSession(db, second);
      const after = await revocationsAfter(db, seen.id, new Date(Date.now() - HOUR));
      expect(after.map((r) => r.sessionId)).toContain(second);
      expect(after.map((r) => r.sessionId)).not.toContain(first);
      await prunePassRevocations(db, { now: Date.now() + RETENTION.passRevocationsMs + 2000 });
      expect((await feedOf(db)).some((r) => r.sessionId === first || r.sessionId === second)).toBe(false);
    });
  });
}
