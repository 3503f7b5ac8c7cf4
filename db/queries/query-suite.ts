// One suite for the query modules, run on both drivers: libSQL in Node (db/queries/libsql.test.ts) and D1 in
// workerd (db/queries/d1.worker.test.ts). Each test makes its own rows.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import { usageDaily } from "../schema";
import { writeRoomFlush } from "./room-activity";
import { findMarketPrices, listBlogArticles, listCommodities, listFaq } from "./content";
import { listOutbound, recordOutbound, updateOutbound } from "./outbox";
import { deleteSession, findSessionUser, insertSession, moveSession } from "./sessions";
import { publicStats } from "./stats";
import { createUser, findUserById, findUserByPhone, updateUser } from "./users";

export function querySuite(driver: string, getDb: () => Db) {
  describe(`query modules on ${driver}`, () => {
    it("creates, finds and updates users", async () => {
      const db = getDb();
      const phone = `+234${Math.floor(Math.random() * 1e10)}`;
      const user = await createUser(db, { phone });
      expect(user).toMatchObject({
        authMode: "anonymous",
        role: "user",
        subscriptionTier: "free",
        language: "english",
        quietStart: "22:00",
      });
      expect((await findUserByPhone(db, phone))?.id).toBe(user.id);
      const updated = await updateUser(db, user.id, {
        nickname: "Chidi",
        interests: ["farming"],
        meshNetworking: false,
        onboardingCompleted: true,
      });
      expect(updated).toMatchObject({ nickname: "Chidi", interests: ["farming"], meshNetworking: false });
      expect(updated?.onboardingCompletedAt).toBeInstanceOf(Date);
      expect((await findUserById(db, user.id))?.nickname).toBe("Chidi");
    });

    it("keeps sessions until they expire or end, and moves them between users", async () => {
      const db = getDb();
      const a = await createUser(db);
      const b = await createUser(db);
      const id = `hash-${Math.random()}`;
      await insertSession(db, { id, userId: a.id, expiresAt: new Date(Date.now() + 60_000) });
      expect((await findSessionUser(db, id))?.id).toBe(a.id);
      expect(await findSessionUser(db, id, new Date(Date.now() + 120_000))).toBeUndefined();
      await moveSession(db, id, b.id);
      expect((await findSessionUser(db, id))?.id).toBe(b.id);
      await deleteSession(db, id);
      expect(await findSessionUser(db, id)).toBeUndefined();
    });

    it("records outbound messages newest first with their outcome", async () => {
      const db = getDb();
      const first = await recordOutbound(db, { to: "+2348000000001", channel: "sms", body: "one", status: "queued" });
      await recordOutbound(db, { to: "+2348000000002", channel: "whatsapp", body: "two", status: "stored" });
      await updateOutbound(db, first.id, { status: "sent", providerId: "SM1", attempts: 1 });
      const rows = await listOutbound(db, 10);
      expect(rows[0].body).toBe("two");
      expect(rows.find((r) => r.id === first.id)?.status).toBe("sent");
    });

    it("serves the seeded content, the example prices only when asked for (development)", async () => {
      const db = getDb();
      expect(await listCommodities(db, { examples: true })).toContain("Maize");
      const lagosRice = await findMarketPrices(db, { commodity: "rice", place: "lagos", examples: true });
      expect(lagosRice.map((p) => p.market)).toEqual(["Mile 12 Market", "Mile 12 Market"]);
      expect(lagosRice.map((p) => p.source)).toEqual(["example", "example"]);
      // Production: the generated figures are never quoted, and no city counts as covered by them.
      expect(await findMarketPrices(db, { commodity: "rice", place: "lagos" })).toEqual([]);
      expect(await listCommodities(db)).not.toContain("Maize");
      expect((await listFaq(db)).length).toBeGreaterThanOrEqual(12);
      expect((await listBlogArticles(db)).filter((a) => a.featured)).toHaveLength(2);
    });

    it("counts live figures: only people who did something, never a bare session", async () => {
      const db = getDb();
      const before = await publicStats(db);
      await createUser(db);
      await createUser(db);
      expect((await publicStats(db)).users).toBe(before.users);
      await createUser(db, { phone: `+23480399${String(Date.now() % 100000).padStart(5, "0")}`, authMode: "verified" });
      const talker = await createUser(db);
      await db.insert(usageDaily).values({ userId: talker.id, date: "2026-05-01", aiCommands: 1 });
      const writer = await createUser(db);
      // Two messages of theirs counted by a room's batch (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
      const at = Date.now();
      await writeRoomFlush(db, {
        roomId: `nearby:s1${writer.id}`,
        epoch: 1,
        throughSeq: 2,
        messages: [
          [1, writer.id, 1, at],
          [2, writer.id, 1, at],
        ],
        kind: "message.nearby",
        area: "s1a",
        presence: [],
        presenceReset: false,
        now: at,
      });
      const after = await publicStats(db);
      expect(after.users).toBe(before.users + 3);
      // The six seeded cities hold only example figures: none is a city with an observed price.
      expect(after.marketCities).toBe(0);
    });
  });
}
