// Message requests: a direct chat with someone who shares no room with the opener waits for their consent
// (docs/decisions/050-consent-before-a-stranger-reaches-you.md).
import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../index";
import { directRequests, roomMembers, rooms, users } from "../schema";

export type DirectRequestRow = typeof directRequests.$inferSelect;

export async function findRequest(db: Db, roomId: string): Promise<DirectRequestRow | undefined> {
  return db.select().from(directRequests).where(eq(directRequests.roomId, roomId)).get();
}

/** The requests among these rooms (the room list marks them). */
export async function requestsAmong(db: Db, roomIds: string[]): Promise<DirectRequestRow[]> {
  if (roomIds.length === 0) return [];
  return db.select().from(directRequests).where(inArray(directRequests.roomId, roomIds)).all();
}

/**
 * Opens a request from `fromUserId` in one statement: a new row, or a declined one whose wait ended before
 * `declinedBefore` starts again. False when a request already stands (pending, or declined too recently).
 */
export async function openRequest(db: Db, roomId: string, fromUserId: string, declinedBefore: Date): Promise<boolean> {
  const rows = await db
    .insert(directRequests)
    .values({ roomId, fromUserId, status: "pending" })
    .onConflictDoUpdate({
      target: directRequests.roomId,
      set: { fromUserId, status: "pending", createdAt: sql`excluded.created_at`, decidedAt: null },
      setWhere: and(eq(directRequests.status, "declined"), lt(directRequests.decidedAt, declinedBefore)),
    })
    .returning({ roomId: directRequests.roomId });
  return rows.length > 0;
}

/** Accepting: the row goes, and the room is an ordinary direct chat. True when a pending request was there. */
export async function takePendingRequest(db: Db, roomId: string): Promise<boolean> {
  const rows = await db
    .delete(directRequests)
    .where(and(eq(directRequests.roomId, roomId), eq(directRequests.status, "pending")))
    .returning({ roomId: directRequests.roomId });
  return rows.length > 0;
}

/** Drops any request row of the room (the people met elsewhere, or the one who declined opens the chat). */
export async function clearRequest(db: Db, roomId: string): Promise<void> {
  await db.delete(directRequests).where(eq(directRequests.roomId, roomId));
}

/** Declining: kept as declined (the sender waits before asking again); true when a pending request was there. */
export async function declineRequest(db: Db, roomId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(directRequests)
    .set({ status: "declined", decidedAt: at })
    .where(and(eq(directRequests.roomId, roomId), eq(directRequests.status, "pending")))
    .returning({ roomId: directRequests.roomId });
  return rows.length > 0;
}

/** Both people removed from the direct chat (a declined request leaves no chat in either list). */
export async function removeDmMembers(db: Db, roomId: string): Promise<void> {
  await db.delete(roomMembers).where(eq(roomMembers.roomId, roomId));
}

/** Whether the two are both members of some area room or group (any room that is not a direct chat). */
export async function shareARoom(db: Db, a: string, b: string): Promise<boolean> {
  const mine = db.select({ roomId: roomMembers.roomId }).from(roomMembers).where(eq(roomMembers.userId, a));
  const row = await db
    .select({ roomId: roomMembers.roomId })
    .from(roomMembers)
    .innerJoin(rooms, eq(rooms.id, roomMembers.roomId))
    .where(and(eq(roomMembers.userId, b), ne(rooms.kind, "dm"), inArray(roomMembers.roomId, mine)))
    .limit(1)
    .get();
  return Boolean(row);
}

/**
 * Whether the user is a member of the direct chat and, while it waits for consent, who asked: one read, so the
 * socket upgrade of a direct chat costs no more than its membership check (docs/decisions/050-…).
 */
export async function dmMembership(db: Db, roomId: string, userId: string): Promise<{ member: boolean; requester: string | null }> {
  const row = await db
    .select({
      member: sql<number>`exists (select 1 from ${roomMembers} where ${roomMembers.roomId} = ${roomId} and ${roomMembers.userId} = ${userId})`,
      requester: sql<
        string | null
      >`(select ${directRequests.fromUserId} from ${directRequests} where ${directRequests.roomId} = ${roomId} and ${directRequests.status} = 'pending')`,
    })
    // The user's own row carries the two sub-selects: one statement, one round trip.
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return { member: Boolean(row?.member), requester: row?.requester ?? null };
}
