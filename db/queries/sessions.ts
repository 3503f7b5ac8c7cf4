import { and, count, desc, eq, gt, inArray, lt, ne, or, isNull, sql } from "drizzle-orm";
import type { Db } from "../index";
import { notifications, sessions, users } from "../schema";

export async function insertSession(
  db: Db,
  values: {
    id: string;
    userId: string;
    expiresAt: Date;
    lastUsedAt?: Date;
    userAgent?: string | null;
    secondFactorPending?: boolean;
    pendingMergeFrom?: string | null;
  },
) {
  await db.insert(sessions).values(values);
}

/** The user of a live session (by its stored hash), or undefined. */
export async function findSessionUser(db: Db, idHash: string, now = new Date()) {
  const session = await findSession(db, idHash, now);
  return session && !session.secondFactorPending ? session.user : undefined;
}

/**
 * A live session with its user, when it was last used and the user's unread notifications (the badge every page
 * shows), or undefined: one statement for what every page asks about its visitor (docs/decisions/057).
 */
export async function findSession(db: Db, idHash: string, now = new Date()) {
  const row = await db
    .select({
      user: users,
      lastUsedAt: sessions.lastUsedAt,
      secondFactorPending: sessions.secondFactorPending,
      unreadNotifications: sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${users.id} and ${notifications.isRead} = 0)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, idHash), gt(sessions.expiresAt, now)))
    .get();
  return row ?? undefined;
}

export async function deleteSession(db: Db, idHash: string) {
  await db.delete(sessions).where(eq(sessions.id, idHash));
}

/**
 * Ends a half-signed-in session and answers what it was waiting for, once: of two requests that prove the second
 * factor at the same moment only one gets the row (docs/decisions/046-sign-in-is-one-state-machine.md).
 */
export async function claimPendingSession(db: Db, idHash: string, now = new Date()) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, idHash), eq(sessions.secondFactorPending, true), gt(sessions.expiresAt, now)))
    .returning({ userId: sessions.userId, pendingMergeFrom: sessions.pendingMergeFrom });
  return rows[0];
}

/** Moves a session to another user (sign-in on verification of an already-known phone). */
export async function moveSession(db: Db, idHash: string, userId: string) {
  await db.update(sessions).set({ userId }).where(eq(sessions.id, idHash));
}

/** Marks a session used now, unless it was marked after `since` (keeps writes to one per interval). */
export async function touchSession(db: Db, idHash: string, now: Date, since: Date) {
  await db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(and(eq(sessions.id, idHash), or(isNull(sessions.lastUsedAt), lt(sessions.lastUsedAt, since))));
}

/** A user's live sessions, most recently used first. */
export function listUserSessions(db: Db, userId: string, now = new Date()) {
  return db
    .select({ id: sessions.id, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), eq(sessions.secondFactorPending, false)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt))
    .all();
}

/** Ends one of the user's sessions (never another user's); whether it existed. */
export async function deleteUserSession(db: Db, userId: string, idHash: string) {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.id, idHash), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return gone.length > 0;
}

/** Ends every session of the user except the one named; how many ended. */
export async function deleteOtherSessions(db: Db, userId: string, keepIdHash: string) {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepIdHash)))
    .returning({ id: sessions.id });
  return gone.length;
}

/** Ends every session of the user; how many ended. */
export async function deleteAllSessions(db: Db, userId: string): Promise<number> {
  const gone = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return gone.length;
}

/** Live (unexpired) sessions per user, for the users named. */
export function countLiveSessionsByUser(db: Db, userIds: string[], now = new Date()): Promise<{ userId: string; n: number }[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .select({ userId: sessions.userId, n: count() })
    .from(sessions)
    .where(and(inArray(sessions.userId, userIds), gt(sessions.expiresAt, now)))
    .groupBy(sessions.userId);
}
