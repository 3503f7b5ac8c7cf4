// The identity query modules (second factor, passkeys, security events, verification, devices, limits, phone
// channels, my data) on both drivers; run from db/queries/libsql.test.ts and db/queries/d1.worker.test.ts.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
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
import { createUser } from "./users";

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
  });
}
