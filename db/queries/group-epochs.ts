// A private group's signed membership statements (core/group-epochs.ts, docs/protocol.md §6a). One row per
// (room, epoch); runs on D1 and libSQL alike.
import { and, asc, eq, gte } from "drizzle-orm";
import type { Db } from "../index";
import { groupEpochs } from "../schema";

/** Statements from epoch `since` on, oldest first, at most `limit`. */
export async function epochsFrom(db: Db, roomId: string, since: number, limit: number) {
  return db
    .select({ epoch: groupEpochs.epoch, body: groupEpochs.body })
    .from(groupEpochs)
    .where(and(eq(groupEpochs.roomId, roomId), gte(groupEpochs.epoch, since)))
    .orderBy(asc(groupEpochs.epoch))
    .limit(limit)
    .all();
}

export async function epochRow(db: Db, roomId: string, epoch: number) {
  return db
    .select({ body: groupEpochs.body })
    .from(groupEpochs)
    .where(and(eq(groupEpochs.roomId, roomId), eq(groupEpochs.epoch, epoch)))
    .get();
}

/** Stores a statement unless one holds its number already (the primary key decides a race): false then. */
export async function storeEpoch(db: Db, row: { roomId: string; epoch: number; body: string }): Promise<boolean> {
  const written = await db.insert(groupEpochs).values(row).onConflictDoNothing().returning({ epoch: groupEpochs.epoch }).all();
  return written.length > 0;
}
