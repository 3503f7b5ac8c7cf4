// The identity query modules (second factor, passkeys, security events, verification, devices, limits, phone
// channels, my data) on both drivers; run from db/queries/libsql.test.ts and db/queries/d1.worker.test.ts.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import { phoneChannels } from "../schema";
import {
  countBackupCodesLeft,
  deleteTwoFactor,
  findTwoFactor,
  replaceBackupCodes,
  saveTwoFactorSecret,
  spendBackupCode,
  updateTwoFactor,
} from "./two-factor";
import { deletePasskey, insertPasskey, keepWebauthnChallenge, listPasskeyRows, markPasskeyUsed, takeWebauthnChallenge } from "./passkeys";
import { insertSecurityEvent, listSecurityEventRows } from "./security-events";
import { insertSession } from "./sessions";
import { createUser, findUserById, setVerifiedPhone } from "./users";
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
  });
}
