// A person's signed device list (core/device-list.ts, docs/protocol.md §2). One row per person; runs on D1 and
// libSQL alike.
import { eq, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../index";
import { deviceLists } from "../schema";

export async function deviceListRow(db: Db, userId: string) {
  return db.select().from(deviceLists).where(eq(deviceLists.userId, userId)).get();
}

/**
 * Stores a list unless a newer one (same account key, higher or equal version) is stored: one statement, so two
 * devices publishing at once cannot roll the list back. A new account key (the person started over) replaces
 * the list. False when nothing was written.
 */
export async function storeDeviceList(db: Db, row: { userId: string; accountKey: string; version: number; body: string }) {
  const written = await db
    .insert(deviceLists)
    .values({ ...row, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: deviceLists.userId,
      set: { accountKey: row.accountKey, version: row.version, body: row.body, updatedAt: new Date() },
      setWhere: or(ne(deviceLists.accountKey, sql`excluded.account_key`), lt(deviceLists.version, sql`excluded.version`)),
    })
    .returning({ userId: deviceLists.userId })
    .all();
  return written.length > 0;
}
