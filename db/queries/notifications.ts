// Notification centre, notification preferences and web push subscriptions.
import { and, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import { DEFAULT_NOTIFICATION_PREFS, type NotificationPrefs } from "../../core/sos-schemas";
import type { Db } from "../index";
import { notificationPrefs, notifications, pushSubscriptions, roomPresence, users } from "../schema";

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = Omit<typeof notifications.$inferInsert, "id" | "userId">;

// D1 allows at most 100 bound parameters per statement.
const CHUNK = 90;
function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export async function insertNotifications(db: Db, userIds: string[], values: NewNotification): Promise<NotificationRow[]> {
  const rows: NotificationRow[] = [];
  // Millisecond time from here (the column default has only second precision) keeps "newest first" exact.
  const createdAt = new Date();
  // Each row binds ~10 values: 8 rows per statement stays under D1's limit.
  for (const part of chunks(userIds, 8)) {
    const inserted = await db
      .insert(notifications)
      .values(part.map((userId) => ({ id: newId(), userId, createdAt, ...values })))
      .returning();
    rows.push(...inserted);
  }
  return rows;
}

export async function notificationsByIds(db: Db, ids: string[]): Promise<NotificationRow[]> {
  const out: NotificationRow[] = [];
  for (const part of chunks(ids)) out.push(...(await db.select().from(notifications).where(inArray(notifications.id, part))));
  return out;
}

export async function listNotifications(db: Db, userId: string, opts: { limit: number; unread?: boolean }) {
  const where = opts.unread ? and(eq(notifications.userId, userId), eq(notifications.isRead, false)) : eq(notifications.userId, userId);
  return db.select().from(notifications).where(where).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(opts.limit);
}

export async function notificationStats(db: Db, userId: string, now = new Date()) {
  const startOfDay = new Date(now);
  startOfDay.setUTCHours(0, 0, 0, 0);
  const row = await db
    .select({
      total: count(),
      unread: sql<number>`coalesce(sum(case when ${notifications.isRead} = 0 then 1 else 0 end), 0)`,
      emergency: sql<number>`coalesce(sum(case when ${notifications.type} = 'emergency' then 1 else 0 end), 0)`,
      today: sql<number>`coalesce(sum(case when ${notifications.createdAt} >= ${startOfDay.getTime()} then 1 else 0 end), 0)`,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .get();
  return {
    total: Number(row?.total ?? 0),
    unread: Number(row?.unread ?? 0),
    emergency: Number(row?.emergency ?? 0),
    today: Number(row?.today ?? 0),
  };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
    .get();
  return Number(row?.n ?? 0);
}

/** Answers whether a row of this user was changed (false: not found or not theirs). */
export async function markRead(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function deleteNotification(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function countSince(db: Db, userId: string, since: Date) {
  const row = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), gte(notifications.createdAt, since)))
    .get();
  return Number(row?.n ?? 0);
}

// Preferences: a missing row means the defaults (docs/product/settings-and-notifications.md). Quiet hours' times
// live on users (the settings screen edits them too), so both screens always show and use the same window.
export async function getPrefs(db: Db, userId: string): Promise<NotificationPrefs> {
  return (await getPrefsFor(db, [userId])).get(userId) ?? { ...DEFAULT_NOTIFICATION_PREFS };
}

export async function getPrefsFor(db: Db, userIds: string[]): Promise<Map<string, NotificationPrefs>> {
  const out = new Map<string, NotificationPrefs>();
  for (const part of chunks(userIds)) {
    const rows = await db
      .select({ userId: users.id, prefs: notificationPrefs, quietStart: users.quietStart, quietEnd: users.quietEnd })
      .from(users)
      .leftJoin(notificationPrefs, eq(notificationPrefs.userId, users.id))
      .where(inArray(users.id, part));
    for (const r of rows) {
      const base = r.prefs ? (({ userId: _, ...p }) => p)(r.prefs) : { ...DEFAULT_NOTIFICATION_PREFS };
      out.set(r.userId, { ...base, quietStart: r.quietStart, quietEnd: r.quietEnd });
    }
  }
  for (const id of userIds) if (!out.has(id)) out.set(id, { ...DEFAULT_NOTIFICATION_PREFS });
  return out;
}

export async function savePrefs(db: Db, userId: string, patch: Partial<NotificationPrefs>): Promise<NotificationPrefs> {
  const next = { ...(await getPrefs(db, userId)), ...patch };
  await db
    .insert(notificationPrefs)
    .values({ userId, ...next })
    .onConflictDoUpdate({ target: notificationPrefs.userId, set: next });
  if (patch.quietStart !== undefined || patch.quietEnd !== undefined)
    await db.update(users).set({ quietStart: next.quietStart, quietEnd: next.quietEnd, updatedAt: new Date() }).where(eq(users.id, userId));
  return next;
}

// Push subscriptions.
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** One endpoint belongs to one user: subscribing again (even as another user on that browser) moves it. */
export async function upsertPushSubscription(db: Db, userId: string, sub: { endpoint: string; p256dh: string; auth: string }) {
  await db
    .insert(pushSubscriptions)
    .values({ id: newId(), userId, ...sub })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh: sub.p256dh, auth: sub.auth } });
}

export async function deletePushSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

/** Drops every push subscription of the person (a ban); the count dropped. */
export async function deleteAllPushSubscriptions(db: Db, userId: string): Promise<number> {
  const rows = await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).returning({ id: pushSubscriptions.id });
  return rows.length;
}

export async function deletePushEndpoint(db: Db, endpoint: string) {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
}

export async function countPushSubscriptions(db: Db, userId: string): Promise<number> {
  const row = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).get();
  return Number(row?.n ?? 0);
}

/** Subscriptions of these users whose account setting allows push at all. */
export async function pushTargetsFor(db: Db, userIds: string[]): Promise<PushSubscriptionRow[]> {
  const out: PushSubscriptionRow[] = [];
  for (const part of chunks(userIds)) {
    const rows = await db
      .select({
        id: pushSubscriptions.id,
        userId: pushSubscriptions.userId,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        createdAt: pushSubscriptions.createdAt,
      })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .where(and(inArray(pushSubscriptions.userId, part), eq(users.pushEnabled, true)));
    out.push(...rows);
  }
  return out;
}

/**
 * Whether the user has a socket open in any room, as of each room's last batch: up to a minute behind
 * (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
 */
export async function hasOpenConnection(db: Db, userId: string): Promise<boolean> {
  const row = await db.select({ room: roomPresence.roomId }).from(roomPresence).where(eq(roomPresence.userId, userId)).limit(1).get();
  return Boolean(row);
}
