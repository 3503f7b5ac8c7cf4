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
  });
}
