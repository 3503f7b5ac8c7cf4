// The service query modules (analytics, admin desks, assistant, notifications, files, SOS, health), run on both
// drivers from db/queries/libsql.test.ts and db/queries/d1.worker.test.ts. Each test makes its own rows.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import { userDevices } from "../schema";
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
import { deleteMarketPriceRow, findMarketPrice, insertMarketPrice, listAllMarketPrices, updateMarketPrice } from "./content";
import {
  activeBroadcastsWithSender,
  countActiveSosByUser,
  insertBroadcastOnce,
  insertBroadcastWithinLimits,
  resolveBroadcast,
} from "./emergency";
import { findFile, insertFile, setTranscript, voiceFilesOf } from "./files";
import { pingDatabase } from "./health";
import { openConnectionRoomsOf } from "./rooms";
import { writeRoomFlush } from "./room-activity";
import { countLiveSessionsByUser, deleteAllSessions, findSessionUser, insertSession } from "./sessions";
import { adminCounts } from "./stats";
import { countOpenTicketsByUser, findTicket, insertTicket, openTicketIdsOfPhone, setTicketStatus } from "./support";
import { addVoiceMessage, giveBackUsage, takeUsage, usageOn, voiceMessagesInMonth } from "./usage";
import {
  countUserDevices,
  createUser,
  findUserById,
  languagesOf,
  saveUserLocation,
  searchUsers,
  setUserBan,
  setUserRole,
  stealthUserIds,
} from "./users";

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

      // Open sockets as the rooms' batches report them: two of this person's, then none.
      const open = await countOpenConnections(db);
      const presence = (sockets: number) => ({
        roomId: `nearby:c${tag()}`.slice(0, 12),
        epoch: 1,
        throughSeq: 0,
        messages: [],
        kind: "message.nearby",
        area: "",
        presence: [[u.id, sockets]] as [string, number][],
        presenceReset: false,
        now: Date.now(),
      });
      const room = presence(2);
      await writeRoomFlush(db, room);
      expect(await countOpenConnections(db)).toBe(open + 2);
      await writeRoomFlush(db, { ...room, presence: [[u.id, 0]] });
      expect(await countOpenConnections(db)).toBe(open);
    });

    it("finds people by phone, nickname fragment or id, with wildcards taken literally", async () => {
      const db = getDb();
      const t = tag();
      const phone = `+23480${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const a = await createUser(db, { nickname: `Ada_${t}`, phone });
      const b = await createUser(db, { nickname: `Ada%${t}x` });
      expect((await searchUsers(db, { phone, nickname: phone, id: phone })).map((u) => u.id)).toEqual([a.id]);
      expect((await searchUsers(db, { phone: null, nickname: `a_${t}`, id: "" })).map((u) => u.id)).toEqual([a.id]);
      expect((await searchUsers(db, { phone: null, nickname: `%${t}x`, id: "" })).map((u) => u.id)).toEqual([b.id]);
      expect((await searchUsers(db, { phone: null, nickname: b.id, id: b.id })).map((u) => u.id)).toEqual([b.id]);
    });

    it("sets roles and bans, ends every session of one person and counts their browsers", async () => {
      const db = getDb();
      const a = await createUser(db);
      const other = await createUser(db);
      await setUserRole(db, a.id, "staff");
      expect((await findUserById(db, a.id))?.role).toBe("staff");
      const bannedAt = new Date(Date.UTC(2026, 4, 1));
      await setUserBan(db, a.id, { bannedAt, banReason: "spam" });
      expect(await findUserById(db, a.id)).toMatchObject({ bannedAt, banReason: "spam" });
      await setUserBan(db, a.id, null);
      expect(await findUserById(db, a.id)).toMatchObject({ bannedAt: null, banReason: null });

      const expiresAt = new Date(Date.now() + 60_000);
      const [s1, s2, s3] = [`s-${tag()}`, `s-${tag()}`, `s-${tag()}`];
      await insertSession(db, { id: s1, userId: a.id, expiresAt });
      await insertSession(db, { id: s2, userId: a.id, expiresAt: new Date(Date.now() - 60_000) });
      await insertSession(db, { id: s3, userId: other.id, expiresAt });
      expect(await countLiveSessionsByUser(db, [a.id, other.id])).toEqual(
        expect.arrayContaining([
          { userId: a.id, n: 1 },
          { userId: other.id, n: 1 },
        ]),
      );
      expect(await deleteAllSessions(db, a.id)).toBe(2);
      expect(await findSessionUser(db, s1)).toBeUndefined();
      expect((await findSessionUser(db, s3))?.id).toBe(other.id);

      await db.insert(userDevices).values([
        { deviceId: `d-${tag()}`, userId: a.id },
        { deviceId: `d-${tag()}`, userId: a.id },
        { deviceId: `d-${tag()}`, userId: other.id },
      ]);
      expect(await countUserDevices(db, a.id)).toBe(2);
    });

    it("names the rooms where a person may have a socket open: present at the last batch, or a member", async () => {
      const db = getDb();
      const u = await createUser(db);
      const [here, left] = [`nearby:a${tag()}`, `nearby:b${tag()}`];
      const batch = (roomId: string, sockets: number) =>
        writeRoomFlush(db, {
          roomId,
          epoch: 1,
          throughSeq: 0,
          messages: [],
          kind: "message.nearby",
          area: "",
          presence: [[u.id, sockets]],
          presenceReset: false,
          now: Date.now(),
        });
      await batch(here, 2);
      await batch(left, 1);
      await batch(left, 0);
      expect(await openConnectionRoomsOf(db, u.id)).toEqual([here]);
    });

    it("keeps one market price per commodity and market, updates and deletes it", async () => {
      const db = getDb();
      const commodity = `Yam ${tag()}`;
      const values = { commodity, market: "Bodija", city: "Ibadan", unit: "tuber", priceNgn: 1500, source: "staff", updatedAt: new Date() };
      expect(await findMarketPrice(db, commodity, "Bodija")).toBeUndefined();
      const row = await insertMarketPrice(db, `p-${tag()}`, values);
      expect((await findMarketPrice(db, commodity, "Bodija"))?.id).toBe(row.id);
      expect((await updateMarketPrice(db, row.id, { ...values, priceNgn: 1800 })).priceNgn).toBe(1800);
      expect((await listAllMarketPrices(db)).filter((p) => p.commodity === commodity).map((p) => p.priceNgn)).toEqual([1800]);
      expect((await deleteMarketPriceRow(db, row.id))?.id).toBe(row.id);
      expect(await deleteMarketPriceRow(db, row.id)).toBeUndefined();
      expect(await findMarketPrice(db, commodity, "Bodija")).toBeUndefined();
    });

    it("files, finds and closes tickets, and counts the open ones per person and phone", async () => {
      const db = getDb();
      const u = await createUser(db);
      const phone = `+23490${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const [t1, t2] = [`t-${tag()}`, `t-${tag()}`];
      await insertTicket(db, { id: t1, userId: u.id, phone, message: "call me", category: "technical" });
      await insertTicket(db, { id: t2, userId: u.id, phone, message: "again", category: "technical" });
      expect(await findTicket(db, t1)).toMatchObject({ userId: u.id, phone, status: "open" });
      expect(await countOpenTicketsByUser(db, [u.id])).toEqual([{ userId: u.id, n: 2 }]);
      expect((await openTicketIdsOfPhone(db, phone, new Date(Date.now() - 60_000))).sort()).toEqual([t1, t2].sort());
      expect(await openTicketIdsOfPhone(db, phone, new Date(Date.now() + 60_000))).toEqual([]);
      await setTicketStatus(db, t1, "closed");
      expect((await findTicket(db, t1))?.status).toBe("closed");
      expect(await countOpenTicketsByUser(db, [u.id])).toEqual([{ userId: u.id, n: 1 }]);
      expect(await openTicketIdsOfPhone(db, phone, new Date(Date.now() - 60_000))).toEqual([t2]);
    });

    it("lists active SOS with the sender's nickname and counts them per sender", async () => {
      const db = getDb();
      const u = await createUser(db, { nickname: `Sender ${tag()}` });
      const base = { userId: u.id, emergencyType: "medical", message: "help", channel: "web" } as const;
      const { row: open } = await insertBroadcastOnce(db, { ...base, clientRequestId: tag() });
      const { row: done } = await insertBroadcastOnce(db, { ...base, clientRequestId: tag() });
      await resolveBroadcast(db, done.id, u.id);
      expect(await countActiveSosByUser(db, [u.id])).toEqual([{ userId: u.id, n: 1 }]);
      const listed = (await activeBroadcastsWithSender(db, 10_000)).filter((r) => r.sos.userId === u.id);
      expect(listed.map((r) => [r.sos.id, r.nickname])).toEqual([[open.id, u.nickname]]);
    });

    it("inserts an SOS only under the person's, the address's and the far limits, and answers a replay", async () => {
      // docs/decisions/047-limits-taken-atomically.md: the statement that writes the SOS counts the hour.
      const db = getDb();
      const u = await createUser(db, { nickname: `Sender ${tag()}` });
      const since = new Date(Date.now() - 3600_000);
      const values = (clientRequestId: string, farArea = false) =>
        ({
          userId: u.id,
          clientRequestId,
          channel: "web",
          emergencyType: "fire",
          message: "help",
          latitude: 6.5,
          longitude: 3.4,
          locationText: null,
          geohash: "s14qq",
          farArea,
        }) as const;
      const limits = { since, perPerson: 3, address: { key: `addr-${tag()}`, limit: 10 }, farLimit: 1 };
      const first = await insertBroadcastWithinLimits(db, values("a"), limits);
      expect(first).toMatchObject({ created: true, row: { userId: u.id, addressKey: limits.address.key } });
      expect(await insertBroadcastWithinLimits(db, values("a"), limits)).toMatchObject({ created: false });
      expect(await insertBroadcastWithinLimits(db, values("far-1", true), limits)).toMatchObject({ created: true, row: { farArea: true } });
      expect(await insertBroadcastWithinLimits(db, values("far-2", true), limits)).toMatchObject({ refused: true });
      expect(await insertBroadcastWithinLimits(db, values("c"), limits)).toMatchObject({ created: true });
      const over = await insertBroadcastWithinLimits(db, values("d"), limits);
      expect(over).toMatchObject({ refused: true });
      expect("refused" in over && over.retryAfterSeconds).toBeGreaterThan(3500);
      // A replay past the limit is still answered from its row.
      expect(await insertBroadcastWithinLimits(db, values("a"), limits)).toMatchObject({ created: false });
      // The address's budget binds another identity from it.
      const v = await createUser(db, { nickname: `Other ${tag()}` });
      const fromAddress = { ...limits, address: { key: limits.address.key, limit: 3 } };
      expect(await insertBroadcastWithinLimits(db, { ...values("e"), userId: v.id }, fromAddress)).toMatchObject({ refused: true });
    });

    it("counts the staff dashboard's figures and answers a database ping", async () => {
      const db = getDb();
      const before = await adminCounts(db);
      await createUser(db, { subscriptionTier: "premium" });
      const after = await adminCounts(db);
      expect(after.totalUsers).toBe(before.totalUsers + 1);
      expect(after.premiumUsers).toBe(before.premiumUsers + 1);
      expect(after.enterpriseUsers).toBe(before.enterpriseUsers);
      await expect(pingDatabase(db)).resolves.toBeUndefined();
    });

    it("counts usage only while under every cap, gives one back, and sums a month's voice messages", async () => {
      const db = getDb();
      const u = await createUser(db);
      const other = await createUser(db);
      expect(await takeUsage(db, u.id, "2026-04-01", ["aiCommands", "translations"], { aiCommands: 2, translations: 1 })).toBe(true);
      // The translation cap (1) is reached: nothing of this use is counted, not even the AI command.
      expect(await takeUsage(db, u.id, "2026-04-01", ["aiCommands", "translations"], { aiCommands: 2, translations: 1 })).toBe(false);
      expect(await takeUsage(db, u.id, "2026-04-01", ["aiCommands"], { aiCommands: 2 })).toBe(true);
      expect(await takeUsage(db, u.id, "2026-04-01", ["aiCommands"], { aiCommands: 2 })).toBe(false);
      // Uncapped counters always count; a new day starts again.
      expect(await takeUsage(db, u.id, "2026-04-01", ["translations"], {})).toBe(true);
      expect(await takeUsage(db, u.id, "2026-04-02", ["aiCommands"], { aiCommands: 2 })).toBe(true);
      expect(await usageOn(db, u.id, "2026-04-01")).toEqual({ aiCommands: 2, translations: 2, voiceMessages: 0 });
      await giveBackUsage(db, u.id, "2026-04-01", "translations");
      await giveBackUsage(db, u.id, "2026-04-02", "translations");
      expect(await usageOn(db, u.id, "2026-04-01")).toMatchObject({ translations: 1 });
      expect(await usageOn(db, u.id, "2026-04-02")).toMatchObject({ aiCommands: 1, translations: 0 });
      expect(await usageOn(db, other.id, "2026-04-01")).toEqual({ aiCommands: 0, translations: 0, voiceMessages: 0 });

      await addVoiceMessage(db, u.id, "2026-04-01");
      await addVoiceMessage(db, u.id, "2026-04-30");
      await addVoiceMessage(db, u.id, "2026-05-01");
      await addVoiceMessage(db, other.id, "2026-04-03");
      expect(await voiceMessagesInMonth(db, u.id, "2026-04")).toBe(2);
      expect(await voiceMessagesInMonth(db, u.id, "2026-03")).toBe(0);
    });

    it("lists only the person's voice messages, newest first, and keeps a transcript", async () => {
      const db = getDb();
      const u = await createUser(db);
      const other = await createUser(db);
      const voice = (ownerId: string, id: string, at: number) => ({
        id,
        ownerId,
        kind: "voice" as const,
        name: "voice-message.webm",
        size: 10,
        mime: "audio/webm",
        r2Key: `voice/${ownerId}/${id}.webm`,
        encryptionLevel: "premium" as const,
        createdAt: new Date(at),
      });
      const [v1, v2, v3] = [`v-${tag()}`, `v-${tag()}`, `v-${tag()}`];
      await insertFile(db, voice(u.id, v1, Date.UTC(2026, 0, 1)));
      await insertFile(db, voice(u.id, v2, Date.UTC(2026, 0, 2)));
      await insertFile(db, voice(other.id, v3, Date.UTC(2026, 0, 3)));
      expect((await voiceFilesOf(db, u.id)).map((f) => f.id)).toEqual([v2, v1]);
      expect((await voiceFilesOf(db, u.id, 1)).map((f) => f.id)).toEqual([v2]);
      await setTranscript(db, v1, "hello");
      expect((await findFile(db, v1))?.transcript).toBe("hello");
      expect((await findFile(db, v2))?.transcript).toBeNull();
    });

    it("names who of a group keeps stealth mode on, and reads everyone's language past one statement's worth", async () => {
      const db = getDb();
      const quiet = await createUser(db, { stealthMode: true });
      const loud = await createUser(db);
      expect([...(await stealthUserIds(db, [quiet.id, loud.id]))]).toEqual([quiet.id]);
      expect((await stealthUserIds(db, [])).size).toBe(0);
      const many: { id: string }[] = [];
      for (let i = 0; i < 95; i++) many.push(await createUser(db, { language: i % 2 ? "hausa" : "yoruba" }));
      const langs = await languagesOf(db, [...many.map((u) => u.id), "nobody"]);
      expect(langs).toHaveLength(95);
      expect(langs.find((r) => r.id === many[1].id)?.language).toBe("hausa");
      expect(langs.find((r) => r.id === many[94].id)?.language).toBe("yoruba");
    });

    it("saves where one person is now, and only that person", async () => {
      const db = getDb();
      const u = await createUser(db);
      const other = await createUser(db);
      await saveUserLocation(db, u.id, { latitude: 6.5244, longitude: 3.3792, geohash: "s14" });
      expect(await findUserById(db, u.id)).toMatchObject({ latitude: 6.5244, longitude: 3.3792, geohash: "s14" });
      expect((await findUserById(db, u.id))?.locationUpdatedAt).toBeInstanceOf(Date);
      expect(await findUserById(db, other.id)).toMatchObject({ geohash: null, locationUpdatedAt: null });
    });
  });
}
