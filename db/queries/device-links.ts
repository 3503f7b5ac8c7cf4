// Device links in progress (core/device-link.ts, docs/protocol.md §2a). Each write is one conditional statement,
// so a code is spent once however many requests race; runs on D1 and libSQL alike.
import { and, eq, gt, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../index";
import { deviceLinks } from "../schema";

/**
 * Starts a link unless the person started `limit` since `since`: the rows older than that go first, then one
 * insert counts the rest itself (docs/decisions/047-limits-taken-atomically.md). "taken": the id is in use (a
 * one-in-a-billion draw), so the caller draws another.
 */
export async function insertLinkWithinLimit(
  db: Db,
  row: { id: string; userId: string; expiresAt: Date },
  limit: number,
  since: Date,
  now = new Date(),
): Promise<"started" | "limited" | "taken"> {
  await db.delete(deviceLinks).where(and(eq(deviceLinks.userId, row.userId), lt(deviceLinks.createdAt, since)));
  const inserted = await db.all<{ id: string }>(sql`
    insert into device_links (id, user_id, expires_at, closed, created_at)
    select ${row.id}, ${row.userId}, ${row.expiresAt.getTime()}, 0, ${now.getTime()}
    where (select count(*) from device_links where user_id = ${row.userId} and created_at >= ${since.getTime()}) < ${limit}
    on conflict (id) do nothing
    returning id`);
  if (inserted.length > 0) {
    // An open link of the person's is spent when a new one starts: one code works at a time.
    await db
      .update(deviceLinks)
      .set({ closed: true, request: null, grant: null })
      .where(and(eq(deviceLinks.userId, row.userId), eq(deviceLinks.closed, false), ne(deviceLinks.id, row.id)));
    return "started";
  }
  const existing = await db.select({ id: deviceLinks.id }).from(deviceLinks).where(eq(deviceLinks.id, row.id)).get();
  return existing ? "taken" : "limited";
}

export async function linkRow(db: Db, userId: string, id: string) {
  return db
    .select()
    .from(deviceLinks)
    .where(and(eq(deviceLinks.id, id), eq(deviceLinks.userId, userId)))
    .get();
}

const open = (userId: string, id: string, now: Date) =>
  and(eq(deviceLinks.id, id), eq(deviceLinks.userId, userId), eq(deviceLinks.closed, false), gt(deviceLinks.expiresAt, now));

/** The new device's request, once per link, while it is open. False when the link is spent, expired or unknown. */
export async function setLinkRequest(db: Db, userId: string, id: string, request: string, now = new Date()): Promise<boolean> {
  const written = await db
    .update(deviceLinks)
    .set({ request })
    .where(and(open(userId, id, now), isNull(deviceLinks.request)))
    .returning({ id: deviceLinks.id })
    .all();
  return written.length > 0;
}

/** The old device's sealed grant, once, after a request. False otherwise. */
export async function setLinkGrant(db: Db, userId: string, id: string, grant: string, now = new Date()): Promise<boolean> {
  const written = await db
    .update(deviceLinks)
    .set({ grant })
    .where(and(open(userId, id, now), isNotNull(deviceLinks.request), isNull(deviceLinks.grant)))
    .returning({ id: deviceLinks.id })
    .all();
  return written.length > 0;
}

/** Spends the link and forgets what passed through it (the row stays until the hour's count is over). */
export async function closeLink(db: Db, userId: string, id: string): Promise<boolean> {
  const written = await db
    .update(deviceLinks)
    .set({ closed: true, request: null, grant: null })
    .where(and(eq(deviceLinks.id, id), eq(deviceLinks.userId, userId)))
    .returning({ id: deviceLinks.id })
    .all();
  return written.length > 0;
}
