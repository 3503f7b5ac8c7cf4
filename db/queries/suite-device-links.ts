// The device-link queries (db/queries/device-links.ts, docs/protocol.md §2a) on both drivers; run from
// db/queries/libsql.test.ts and db/queries/d1.worker.test.ts.
import { describe, expect, it } from "vitest";
import { randomCodeChars } from "../../core/device-link";
import type { Db } from "../index";
import { closeLink, insertLinkWithinLimit, linkRow, setLinkGrant, setLinkRequest } from "./device-links";
import { createUser } from "./users";

export function deviceLinkQuerySuite(driver: string, getDb: () => Db) {
  describe(`device-link queries on ${driver}`, () => {
    it("start links within the hour's limit, spend the open one, and take each half once while open", async () => {
      const db = getDb();
      const user = await createUser(db);
      const now = new Date();
      const hourAgo = new Date(now.getTime() - 3600_000);
      const later = new Date(now.getTime() + 600_000);
      const [a, b, c] = [1, 2, 3].map(() => randomCodeChars(6));
      expect(await insertLinkWithinLimit(db, { id: a!, userId: user.id, expiresAt: later }, 2, hourAgo, now)).toBe("started");
      expect(await setLinkRequest(db, user.id, a!, "request-a", now)).toBe(true);
      // A second link spends the first: its request is forgotten and nothing more is taken.
      expect(await insertLinkWithinLimit(db, { id: b!, userId: user.id, expiresAt: later }, 2, hourAgo, now)).toBe("started");
      expect(await linkRow(db, user.id, a!)).toMatchObject({ closed: true, request: null });
      expect(await setLinkGrant(db, user.id, a!, "grant-a", now)).toBe(false);
      // The limit counts the hour's links, spent or not.
      expect(await insertLinkWithinLimit(db, { id: c!, userId: user.id, expiresAt: later }, 2, hourAgo, now)).toBe("limited");
      expect(await linkRow(db, user.id, c!)).toBeUndefined();
      // An id in use (another person's link) is said so, not counted as the limit.
      const other = await createUser(db);
      expect(await insertLinkWithinLimit(db, { id: b!, userId: other.id, expiresAt: later }, 2, hourAgo, now)).toBe("taken");
      // The open one: no grant before a request; each half once; nothing after expiry; nothing for someone else.
      expect(await setLinkRequest(db, other.id, b!, "forged", now)).toBe(false);
      expect(await setLinkGrant(db, user.id, b!, "grant-b", now)).toBe(false);
      expect(await setLinkRequest(db, user.id, b!, "request-b", now)).toBe(true);
      expect(await setLinkRequest(db, user.id, b!, "request-c", now)).toBe(false);
      expect(await setLinkGrant(db, user.id, b!, "grant-b", new Date(later.getTime() + 1))).toBe(false);
      expect(await setLinkGrant(db, user.id, b!, "grant-b", now)).toBe(true);
      expect(await linkRow(db, user.id, b!)).toMatchObject({ request: "request-b", grant: "grant-b", closed: false });
      expect(await closeLink(db, other.id, b!)).toBe(false);
      expect(await closeLink(db, user.id, b!)).toBe(true);
      expect(await linkRow(db, user.id, b!)).toMatchObject({ request: null, grant: null, closed: true });
      // An hour on, the old rows go and a new link starts.
      const nextHour = new Date(now.getTime() + 3600_001);
      expect(await insertLinkWithinLimit(db, { id: c!, userId: user.id, expiresAt: later }, 2, new Date(now.getTime() + 1), nextHour)).toBe(
        "started",
      );
      expect(await linkRow(db, user.id, a!)).toBeUndefined();
    });
  });
}
