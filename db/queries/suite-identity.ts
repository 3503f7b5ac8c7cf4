// The identity query modules (second factor, passkeys, security events, verification, devices, limits, phone
// channels, my data) on both drivers; run from db/queries/libsql.test.ts and db/queries/d1.worker.test.ts.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import { phoneChannels } from "../schema";
import {
  acceptTwoFactorStep,
  countBackupCodesLeft,
  deleteTwoFactor,
  findTwoFactor,
  replaceBackupCodes,
  resealTwoFactorSecret,
  saveTwoFactorSecret,
  spendBackupCode,
  takeTwoFactorAttempt,
  updateTwoFactor,
} from "./two-factor";
import { deletePasskey, insertPasskey, keepWebauthnChallenge, listPasskeyRows, markPasskeyUsed, takeWebauthnChallenge } from "./passkeys";
import { insertSecurityEvent, listSecurityEventRows } from "./security-events";
import { insertSession } from "./sessions";
import { createUser, deviceHasBannedUser, findUserById, linkUserDevice, setUserBan, setVerifiedPhone } from "./users";
import { giveBackCount, takeCount } from "./address-counters";
import { findPhoneChannel, upsertPhoneChannel } from "./phone-channels";
import { mergeUserRows } from "./merge";
import { deleteAccountRows, fileKeysOf, personalRecords, roomsOfUser } from "./my-data";
import { addMembers, ensureRoom } from "./rooms";
import { findRoomActivity, writeRoomFlush } from "./room-activity";
import { pointEvents, roomPresence } from "../schema";
import {
  confirmPhoneChannelRow,
  consumeCode,
  countCodesFromAddress,
  countWrongTry,
  deleteVerification,
  endOpenCodes,
  insertVerification,
  liveCodesForPhone,
  newestLiveCode,
  newestOpenCode,
  recentCodeTimes,
  takeAttempt,
} from "./verifications";

export function identityQuerySuite(driver: string, getDb: () => Db) {
  describe(`identity queries on ${driver}`, () => {
    it("keeps a second factor: a restarted enrolment clears its lock-out, a backup code is spent once", async () => {
      const db = getDb();
      const { id } = await createUser(db);
      await saveTwoFactorSecret(db, id, "SECRETONE");
      await updateTwoFactor(db, id, { failedAttempts: 4, lockedUntil: new Date(Date.now() + 60_000), lastStep: 7 });
      await saveTwoFactorSecret(db, id, "SECRETTWO");
      expect(await findTwoFactor(db, id)).toMatchObject({ secret: "SECRETTWO", failedAttempts: 0, lockedUntil: null, lastStep: null });
      await resealTwoFactorSecret(db, id, "SECRETONE", "v1.stale");
      await resealTwoFactorSecret(db, id, "SECRETTWO", "v1.sealed");
      expect((await findTwoFactor(db, id))?.secret).toBe("v1.sealed");

      // Five tries, the fifth sets a 15-minute lock; none while locked; the next five lock for 30 minutes.
      const rules = { maxFailures: 5, lockMs: 900_000, maxLockMs: 86_400_000, maxDoublings: 7 };
      const t0 = new Date(1_700_000_000_000);
      const tries = [];
      for (let i = 0; i < 6; i++) tries.push(await takeTwoFactorAttempt(db, id, t0, rules));
      expect(tries.map((t) => t?.failures)).toEqual([1, 2, 3, 4, 5, undefined]);
      expect(tries[4]?.lockedUntil?.getTime()).toBe(t0.getTime() + 900_000);
      const t1 = new Date(t0.getTime() + 900_000);
      for (let i = 0; i < 5; i++) await takeTwoFactorAttempt(db, id, t1, rules);
      expect((await findTwoFactor(db, id))?.lockedUntil?.getTime()).toBe(t1.getTime() + 1_800_000);
      // A step is accepted once, and only a newer one after it; accepting clears the count and the lock.
      expect(await acceptTwoFactorStep(db, id, 10)).toBe(true);
      expect(await acceptTwoFactorStep(db, id, 10)).toBe(false);
      expect(await findTwoFactor(db, id)).toMatchObject({ failedAttempts: 0, lockedUntil: null, lastStep: 10 });

      await replaceBackupCodes(db, id, ["h1", "h2", "h3"]);
      expect(await countBackupCodesLeft(db, id)).toBe(3);
      expect(await spendBackupCode(db, id, "h2", new Date())).toBe(true);
      expect(await spendBackupCode(db, id, "h2", new Date())).toBe(false);
      expect(await countBackupCodesLeft(db, id)).toBe(2);
      await replaceBackupCodes(db, id, ["h4"]);
      expect(await countBackupCodesLeft(db, id)).toBe(1);
      expect(await spendBackupCode(db, id, "h1", new Date())).toBe(false);

      const other = await createUser(db);
      await replaceBackupCodes(db, other.id, ["h4"]);
      await deleteTwoFactor(db, id);
      expect(await findTwoFactor(db, id)).toBeUndefined();
      expect(await countBackupCodesLeft(db, id)).toBe(0);
      expect(await countBackupCodesLeft(db, other.id)).toBe(1);
    });

    it("keeps one open WebAuthn challenge per session, taken once, and the person's passkeys", async () => {
      const db = getDb();
      const { id } = await createUser(db);
      const session = `s-${Math.random()}`;
      const later = new Date(Date.now() + 60_000);
      await insertSession(db, { id: session, userId: id, expiresAt: later });
      await keepWebauthnChallenge(db, session, "register", "first", later);
      await keepWebauthnChallenge(db, session, "authenticate", "second", later);
      expect(await takeWebauthnChallenge(db, session)).toMatchObject({ purpose: "authenticate", challenge: "second" });
      expect(await takeWebauthnChallenge(db, session)).toBeUndefined();

      const credential = `cred-${Math.random()}`;
      await insertPasskey(db, { id: credential, userId: id, publicKey: "pk", counter: 0, transports: ["internal"], name: "Phone" });
      await markPasskeyUsed(db, credential, 5, new Date(1_700_000_000_000));
      expect(await listPasskeyRows(db, id)).toMatchObject([
        { id: credential, counter: 5, transports: ["internal"], lastUsedAt: new Date(1_700_000_000_000) },
      ]);
      const stranger = await createUser(db);
      expect(await deletePasskey(db, stranger.id, credential)).toBeUndefined();
      expect(await deletePasskey(db, id, credential)).toBe("Phone");
      expect(await listPasskeyRows(db, id)).toEqual([]);
    });

    it("lists a person's security events newest first, only theirs, up to the limit", async () => {
      const db = getDb();
      const a = await createUser(db);
      const b = await createUser(db);
      const event = (userId: string, id: string, at: number) =>
        insertSecurityEvent(db, { id, userId, kind: "sign_in", type: "login", severity: "low", message: id, createdAt: new Date(at) });
      await event(a.id, `old-${a.id}`, 1_000);
      await event(a.id, `new-${a.id}`, 3_000);
      await event(a.id, `mid-${a.id}`, 2_000);
      await event(b.id, `other-${b.id}`, 4_000);
      expect((await listSecurityEventRows(db, a.id, 2)).map((e) => e.message)).toEqual([`new-${a.id}`, `mid-${a.id}`]);
    });
    it("keeps verification codes per requester: live, newest, tries, used once", async () => {
      const db = getDb();
      const me = await createUser(db);
      const other = await createUser(db);
      const phone = `+23480${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const t0 = Date.now();
      const code = (id: string, userId: string, at: number) =>
        insertVerification(db, {
          id,
          phone,
          userId,
          codeHash: `hash-${id}`,
          channel: "sms",
          ip,
          createdAt: new Date(at),
          expiresAt: new Date(at + 600_000),
        });
      const [a, b, c] = [`a${t0}`, `b${t0}`, `c${t0}`];
      await code(a, me.id, t0 - 120_000);
      await code(b, me.id, t0 - 60_000);
      await code(c, other.id, t0 - 30_000);
      expect(await countCodesFromAddress(db, ip, new Date(t0 - 3600_000))).toBe(3);
      expect(await countCodesFromAddress(db, ip, new Date(t0 - 90_000))).toBe(2);
      expect((await recentCodeTimes(db, phone, me.id, new Date(t0 - 3600_000))).map((r) => r.createdAt.getTime())).toEqual([
        t0 - 60_000,
        t0 - 120_000,
      ]);
      expect((await newestOpenCode(db, phone, me.id))?.id).toBe(b);
      expect((await newestLiveCode(db, me.id, new Date(t0)))?.id).toBe(b);
      expect(await newestLiveCode(db, me.id, new Date(t0 + 3600_000))).toBeUndefined();

      expect(await takeAttempt(db, b, 2)).toBe(1);
      expect(await takeAttempt(db, b, 2)).toBe(2);
      expect(await takeAttempt(db, b, 2)).toBeUndefined();
      expect((await liveCodesForPhone(db, phone, new Date(t0), 2, 10)).map((r) => r.id)).toEqual([c, a]);
      await countWrongTry(db, [a]);
      expect((await liveCodesForPhone(db, phone, new Date(t0), 1, 10)).map((r) => r.id)).toEqual([c]);

      expect(await consumeCode(db, c, new Date(t0))).toBe(true);
      expect(await consumeCode(db, c, new Date(t0))).toBe(false);
      await endOpenCodes(db, phone, me.id, new Date(t0));
      expect(await newestOpenCode(db, phone, me.id)).toBeUndefined();
      await deleteVerification(db, a);
      expect(await countCodesFromAddress(db, ip, new Date(t0 - 3600_000))).toBe(2);
    });

    it("marks a proven phone: verified (an admin phone also an admin), and its phone channel confirmed", async () => {
      const db = getDb();
      const user = await createUser(db);
      const phone = `+23481${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      expect(await setVerifiedPhone(db, user.id, phone, false)).toMatchObject({ phone, authMode: "verified", role: "user" });
      expect((await setVerifiedPhone(db, user.id, phone, true)).role).toBe("admin");
      expect((await findUserById(db, user.id))?.role).toBe("admin");
      await confirmPhoneChannelRow(db, phone, new Date(1_000));
      await confirmPhoneChannelRow(db, phone, new Date(2_000));
      const row = await db.select().from(phoneChannels).where(eq(phoneChannels.phone, phone)).get();
      expect(row?.confirmedAt?.getTime()).toBe(2_000);
    });
    it("counts uses per address window up to the limit, gives one back, and forgets ended windows", async () => {
      const db = getDb();
      const key = `k-${Math.random()}`;
      const now = new Date(1_800_000_000_000);
      const w = { key, window: "w1", expiresAt: new Date(now.getTime() + 60_000) };
      expect(await takeCount(db, w, 2, now)).toBe(true);
      expect(await takeCount(db, w, 2, now)).toBe(true);
      expect(await takeCount(db, w, 2, now)).toBe(false);
      await giveBackCount(db, key, "w1");
      expect(await takeCount(db, w, 2, now)).toBe(true);
      // Once the window ended, a new one counts from one again.
      const later = new Date(now.getTime() + 120_000);
      expect(await takeCount(db, { key, window: "w2", expiresAt: new Date(later.getTime() + 60_000) }, 1, later)).toBe(true);
      expect(await takeCount(db, w, 2, later)).toBe(true);
    });

    it("keeps a phone's channel state field by field, and which browsers carry a banned account", async () => {
      const db = getDb();
      const phone = `+23482${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      expect(await findPhoneChannel(db, phone)).toBeUndefined();
      await upsertPhoneChannel(db, phone, { language: "yoruba" });
      await upsertPhoneChannel(db, phone, { optedOut: true });
      expect(await findPhoneChannel(db, phone)).toMatchObject({ language: "yoruba", optedOut: true });

      const device = `d-${Math.random()}`;
      const a = await createUser(db);
      const b = await createUser(db);
      await linkUserDevice(db, device, a.id);
      await linkUserDevice(db, device, a.id);
      await linkUserDevice(db, device, b.id);
      expect(await deviceHasBannedUser(db, device)).toBe(false);
      await setUserBan(db, b.id, { bannedAt: new Date(), banReason: "spam" });
      expect(await deviceHasBannedUser(db, device)).toBe(true);
      expect(await deviceHasBannedUser(db, `other-${device}`)).toBe(false);
    });

    it("reads a person's records for the export and deletes every row of them, leaving others' alone", async () => {
      const db = getDb();
      const phone = `+23483${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const me = await createUser(db, { phone });
      const friend = await createUser(db);
      const dm = `dm:${[me.id, friend.id].sort().join(":")}`;
      const area = `nearby:s${Math.floor(Math.random() * 1e6)}`;
      await ensureRoom(db, { id: dm, kind: "dm", name: "" });
      await ensureRoom(db, { id: area, kind: "nearby", name: "Area" });
      await addMembers(db, dm, [{ userId: me.id }, { userId: friend.id }]);
      await addMembers(db, area, [{ userId: me.id }, { userId: friend.id }]);
      // What the rooms' batches wrote: a message in each room, both people present in the area room.
      const batch = (roomId: string, senderId: string, presence: [string, number][] = []) =>
        writeRoomFlush(db, {
          roomId,
          epoch: 1,
          throughSeq: 1,
          messages: [[1, senderId, 1, Date.now()]],
          kind: `message.${roomId.split(":")[0]}`,
          area: "",
          presence,
          presenceReset: false,
          now: Date.now(),
        });
      await batch(dm, friend.id);
      await batch(area, me.id, [
        [me.id, 1],
        [friend.id, 1],
      ]);
      await replaceBackupCodes(db, me.id, ["h1"]);
      const session = `s-${Math.random()}`;
      await insertSession(db, { id: session, userId: me.id, expiresAt: new Date(Date.now() + 60_000) });
      await upsertPhoneChannel(db, phone, { language: "hausa" });

      const records = await personalRecords(db, me.id);
      expect(records.memberships.map((m) => m.roomId).sort()).toEqual([area, dm].sort());
      expect(records.pointEvents.filter((p) => p.kind === "message")).toHaveLength(1);
      expect(records.backupCodesLeft).toBe(1);
      expect((await roomsOfUser(db, me.id)).sort()).toEqual([area, dm].sort());
      expect(await fileKeysOf(db, me.id)).toEqual([]);

      await deleteAccountRows(db, me, [dm]);
      expect(await findUserById(db, me.id)).toBeUndefined();
      expect(await findPhoneChannel(db, phone)).toBeUndefined();
      expect(await countBackupCodesLeft(db, me.id)).toBe(0);
      const left = await personalRecords(db, friend.id);
      // The direct chat went whole; the area room and the friend's message there stay.
      expect(left.memberships.map((m) => m.roomId)).toEqual([area]);
      expect(await findRoomActivity(db, dm)).toBeUndefined();
      expect((await findRoomActivity(db, area))?.messages).toBe(1);
      const present = await db.select({ userId: roomPresence.userId }).from(roomPresence).where(eq(roomPresence.roomId, area));
      expect(present.map((p) => p.userId)).toEqual([friend.id]);
    });

    it("merges one identity into another in one batch: rows move, usage adds up, the merged user is gone", async () => {
      const db = getDb();
      const from = await createUser(db);
      const into = await createUser(db);
      const area = `nearby:m${Math.floor(Math.random() * 1e6)}`;
      await ensureRoom(db, { id: area, kind: "nearby", name: "Area" });
      await addMembers(db, area, [{ userId: from.id }, { userId: into.id }]);
      // Both identities sent today: their day's message points add up, within the daily cap.
      for (const [sender, n] of [
        [from.id, 3],
        [into.id, 19],
      ] as const)
        await writeRoomFlush(db, {
          roomId: `${area}${sender}`,
          epoch: 1,
          throughSeq: n,
          messages: Array.from({ length: n }, (_, i) => [i + 1, sender, 1, Date.now()] as [number, string, 1, number]),
          kind: "message.nearby",
          area: "",
          presence: [],
          presenceReset: false,
          now: Date.now(),
        });
      await mergeUserRows(db, from.id, into.id, { ...into, interests: ["farming"], subscriptionTier: "premium" });
      expect(await findUserById(db, from.id)).toBeUndefined();
      expect(await findUserById(db, into.id)).toMatchObject({ interests: ["farming"], subscriptionTier: "premium" });
      const records = await personalRecords(db, into.id);
      expect(records.memberships.map((m) => m.roomId)).toEqual([area]);
      const points = await db.select().from(pointEvents).where(eq(pointEvents.userId, into.id));
      expect(points.filter((p) => p.kind === "message").map((p) => p.points)).toEqual([100]);
    });
  });
}
