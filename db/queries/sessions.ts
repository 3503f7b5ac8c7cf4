import { and, count, desc, eq, gt, inArray, lt, ne, or, isNull, sql } from "drizzle-orm";
import type { Db } from "../index";
import { SOS_ALARM_MS } from "../../core/sos";
import { emergencyBroadcasts, notifications, sessions, sosResponses, users } from "../schema";
import { type ChatLists, type ChatListsRow, chatListsColumns, parseChatLists } from "./chat-lists";

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

// The outer statement's user, named with its table: drizzle leaves a column unqualified in a one-table select, where
// inside these subqueries it would name the subquery's own table instead.
const OUTER_USER_ID = sql.raw('"users"."id"');
const OUTER_GEOHASH = sql.raw('"users"."geohash"');

const sessionColumns = (now: Date) => ({
  user: users,
  lastUsedAt: sessions.lastUsedAt,
  // A pass issued from this read never outlives the session (docs/decisions/079-a-pass-that-lasts-the-day.md).
  sessionExpiresAt: sessions.expiresAt,
  secondFactorPending: sessions.secondFactorPending,
  unreadNotifications: sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${OUTER_USER_ID} and ${notifications.isRead} = 0)`,
  // The SOS banner's: the newest fresh, active SOS in their area cell from someone else that they have not
  // answered, as JSON (one index lookup on emergency_geohash_idx; no statement of its own, decision 062).
  sosNearby: sql<
    string | null
  >`(select json_object('id', b.id, 'userId', b.user_id, 'message', b.message, 'emergencyType', b.emergency_type, 'locationText', b.location_text, 'geohash', b.geohash, 'at', b.broadcasted_at, 'nickname', s.nickname, 'anonymous', s.anonymous_mode)
    from ${emergencyBroadcasts} b join ${users} s on s.id = b.user_id
    where b.geohash = ${OUTER_GEOHASH} and b.status = 'active' and b.broadcasted_at > ${now.getTime() - SOS_ALARM_MS} and b.user_id <> ${OUTER_USER_ID}
      and not exists (select 1 from ${sosResponses} r where r.sos_id = b.id and r.user_id = ${OUTER_USER_ID})
    order by b.broadcasted_at desc limit 1)`,
});

/**
 * A live session with its user, when it was last used and the user's unread notifications (the badge every page
 * shows), or undefined: one statement for what every page asks about its visitor (docs/decisions/057). With
 * `chatLists`, the chat screen's rooms and lists ride in the same statement (docs/decisions/065): a load of /chat
 * whose session pass has expired is still one query.
 */
export async function findSession(db: Db, idHash: string, now = new Date(), opts: { chatLists?: boolean } = {}) {
  const where = and(eq(sessions.id, idHash), gt(sessions.expiresAt, now));
  if (!opts.chatLists) {
    const row = await db.select(sessionColumns(now)).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(where).get();
    return row ? { ...row, chatLists: undefined as ChatLists | undefined } : undefined;
  }
  const lists = chatListsColumns(users.id);
  const row = await db
    .select({ ...sessionColumns(now), ...lists })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(where)
    .get();
  if (!row) return undefined;
  const { rooms, invitations, blocked, directs, ...session } = row;
  return { ...session, chatLists: parseChatLists({ rooms, invitations, blocked, directs }) as ChatLists | undefined };
}

/**
 * What changes without the person doing anything, for a page whose session came from a pass (docs/decisions/065):
 * their unread notifications and the SOS banner, and on /chat its rooms and lists, in one statement by user id.
 * A pass answers who the person is; this keeps what others can change about them fresh, and answers whether the
 * pass's session still stands (`sessionExpiresAt`, null when it ended or is another person's now): a sign-out or a
 * ban on another device refuses the pass on the next page at once (docs/decisions/079-a-pass-that-lasts-the-day.md).
 */
export async function findFreshState(db: Db, userId: string, sessionHash: string, now = new Date(), opts: { chatLists?: boolean } = {}) {
  const { unreadNotifications, sosNearby } = sessionColumns(now);
  const lists = opts.chatLists ? chatListsColumns(OUTER_USER_ID) : {};
  const live = sql`s.id = ${sessionHash} and s.user_id = ${OUTER_USER_ID} and s.second_factor_pending = 0 and s.expires_at > ${now.getTime()}`;
  const sessionExpiresAt = sql<number | null>`(select s.expires_at from ${sessions} s where ${live})`;
  const sessionLastUsedAt = sql<number | null>`(select s.last_used_at from ${sessions} s where ${live})`;
  const row = await db
    .select({ unreadNotifications, sosNearby, updatedAt: users.updatedAt, sessionExpiresAt, sessionLastUsedAt, ...lists })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!row) return undefined;
  const {
    rooms,
    invitations,
    blocked,
    directs,
    sessionExpiresAt: ends,
    sessionLastUsedAt: used,
    ...fresh
  } = row as typeof row & Partial<ChatListsRow>;
  const date = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)));
  return {
    ...fresh,
    sessionExpiresAt: date(ends),
    sessionLastUsedAt: date(used),
    chatLists: opts.chatLists
      ? parseChatLists({ rooms: rooms ?? null, invitations: invitations ?? null, blocked: blocked ?? null, directs: directs ?? null })
      : undefined,
  };
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
