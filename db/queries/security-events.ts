// The account's security events (docs/product/security.md), newest first.
import { desc, eq } from "drizzle-orm";
import type { Db } from "../index";
import { securityEvents } from "../schema";

export async function insertSecurityEvent(db: Db, row: typeof securityEvents.$inferInsert): Promise<void> {
  await db.insert(securityEvents).values(row);
}

export function listSecurityEventRows(db: Db, userId: string, limit: number) {
  return db
    .select()
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.createdAt), desc(securityEvents.id))
    .limit(limit)
    .all();
}
