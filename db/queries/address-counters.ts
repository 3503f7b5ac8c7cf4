// Per-address counters for the limits that bind before anyone is signed in
// (docs/decisions/012-limits-per-client-address.md): one row per hashed address and fixed window.
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../index";
import { addressCounters } from "../schema";

export interface CounterWindow {
  key: string;
  window: string;
  expiresAt: Date;
}

/**
 * Counts one use in the window if it is still under `limit` (one atomic upsert) and drops windows that ended.
 * True when the use was counted.
 */
export async function takeCount(db: Db, w: CounterWindow, limit: number, now: Date): Promise<boolean> {
  const rows = await db
    .insert(addressCounters)
    .values({ key: w.key, window: w.window, count: 1, expiresAt: w.expiresAt })
    .onConflictDoUpdate({
      target: [addressCounters.key, addressCounters.window],
      set: { count: sql`${addressCounters.count} + 1` },
      setWhere: lt(addressCounters.count, limit),
    })
    .returning({ count: addressCounters.count });
  // Windows that ended are of no use; the index on expires_at keeps this cheap.
  await db.delete(addressCounters).where(lt(addressCounters.expiresAt, now));
  return rows.length > 0;
}

/** Gives one use back to the window, never below zero. */
export async function giveBackCount(db: Db, key: string, window: string): Promise<void> {
  await db
    .update(addressCounters)
    .set({ count: sql`max(${addressCounters.count} - 1, 0)` })
    .where(and(eq(addressCounters.key, key), eq(addressCounters.window, window)));
}
