import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../index";
import { sessions, users } from "../schema";

export async function insertSession(db: Db, values: { id: string; userId: string; expiresAt: Date; userAgent?: string | null }) {
  await db.insert(sessions).values(values);
}

/** The user of a live session (by its stored hash), or undefined. */
export async function findSessionUser(db: Db, idHash: string, now = new Date()) {
  const row = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, idHash), gt(sessions.expiresAt, now)))
    .get();
  return row?.user;
}

export async function deleteSession(db: Db, idHash: string) {
  await db.delete(sessions).where(eq(sessions.id, idHash));
}

/** Moves a session to another user (sign-in on verification of an already-known phone). */
export async function moveSession(db: Db, idHash: string, userId: string) {
  await db.update(sessions).set({ userId }).where(eq(sessions.id, idHash));
}
