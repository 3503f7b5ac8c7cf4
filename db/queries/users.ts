import { and, count, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { newId } from "../../core/ids";
import type { UpdateMe } from "../../core/schemas";
import type { Db } from "../index";
import { type User, userDevices, users } from "../schema";

const ADJECTIVES = ["Swift", "Bright", "Calm", "Brave", "Kind", "Clever", "Bold", "Gentle", "Lucky", "Sunny"];
const NOUNS = ["Baobab", "Falcon", "River", "Harmattan", "Kola", "Palm", "Eagle", "Savanna", "Drum", "Lagoon"];

/** A friendly generated nickname for anonymous users, e.g. 'Calm Baobab 4821'. */
export function generateNickname(random: () => number = Math.random): string {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  return `${pick(ADJECTIVES)} ${pick(NOUNS)} ${String(Math.floor(random() * 10000)).padStart(4, "0")}`;
}

export async function createUser(db: Db, values: Partial<typeof users.$inferInsert> = {}): Promise<User> {
  const [row] = await db
    .insert(users)
    .values({ id: newId(), nickname: generateNickname(), ...values })
    .returning();
  return row;
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export async function findUserByPhone(db: Db, phone: string): Promise<User | undefined> {
  return db.select().from(users).where(eq(users.phone, phone)).get();
}

export async function updateUser(db: Db, id: string, patch: UpdateMe & { geohash?: string | null }): Promise<User | undefined> {
  const { onboardingCompleted, ...fields } = patch;
  const values: Partial<typeof users.$inferInsert> = { ...fields, updatedAt: new Date() };
  if (onboardingCompleted !== undefined) values.onboardingCompletedAt = onboardingCompleted ? new Date() : null;
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

/** The person proved this phone: verified, and an admin when the phone is on the admin list. */
export async function setVerifiedPhone(db: Db, id: string, phone: string, admin: boolean, now = new Date()): Promise<User> {
  const [row] = await db
    .update(users)
    .set({ phone, authMode: "verified", updatedAt: now, ...(admin ? { role: "admin" as const } : {}) })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Saves where the person is now (their area cell decides which SOS and area rooms reach them). */
export async function saveUserLocation(
  db: Db,
  id: string,
  loc: { latitude: number | null; longitude: number | null; geohash: string },
): Promise<void> {
  await db
    .update(users)
    .set({ latitude: loc.latitude, longitude: loc.longitude, geohash: loc.geohash, locationUpdatedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, id));
}

/** Of the people named, those whose stealth mode is on. */
export async function stealthUserIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.stealthMode, true)))
    .all();
  return new Set(rows.map((r) => r.id));
}

/** Each named person's saved language, read 90 ids a statement (D1 binds at most 100 parameters). */
export async function languagesOf(db: Db, ids: string[]): Promise<{ id: string; language: string }[]> {
  const out: { id: string; language: string }[] = [];
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ id: users.id, language: users.language })
      .from(users)
      .where(inArray(users.id, ids.slice(i, i + 90)))
      .all();
    out.push(...rows);
  }
  return out;
}

/** Sets a person's role (staff desk; admins come from ADMIN_PHONES and are never set here). */
export async function setUserRole(db: Db, id: string, role: "user" | "staff"): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

/** Bans a person (`ban` given) or lifts the ban (`null`), docs/decisions/025-bans.md. */
export async function setUserBan(db: Db, id: string, ban: { bannedAt: Date; banReason: string } | null): Promise<void> {
  await db
    .update(users)
    .set({ bannedAt: ban?.bannedAt ?? null, banReason: ban?.banReason ?? null, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/**
 * Up to `limit` people whose phone is `phone` (already normalised), whose nickname contains `nickname` or
 * whose id is `id`.
 */
export function searchUsers(db: Db, q: { phone: string | null; nickname: string; id: string }, limit = 20): Promise<User[]> {
  // The fragment is taken literally: its % and _ are escaped, and SQLite needs the ESCAPE clause to honour that.
  const pattern = `%${q.nickname.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
  const nick = sql`${users.nickname} like ${pattern} escape '\\'`;
  return db
    .select()
    .from(users)
    .where(q.phone ? or(eq(users.phone, q.phone), nick, eq(users.id, q.id)) : or(nick, eq(users.id, q.id)))
    .limit(limit);
}

/** How many browsers the person signed in from (workers/auth/device.ts). */
export async function countUserDevices(db: Db, userId: string): Promise<number> {
  const row = await db.select({ n: count() }).from(userDevices).where(eq(userDevices.userId, userId)).get();
  return row?.n ?? 0;
}

/** Remembers that the person signed in from this browser (a ban covers their browsers, docs/decisions/038-reports-and-device-bans.md). */
export async function linkUserDevice(db: Db, deviceId: string, userId: string): Promise<void> {
  await db.insert(userDevices).values({ deviceId, userId }).onConflictDoNothing();
}

/** Whether two accounts were signed in from one browser (the same person, for rewards: docs/decisions/049). */
export async function shareADevice(db: Db, a: string, b: string): Promise<boolean> {
  const other = alias(userDevices, "other_device");
  const row = await db
    .select({ deviceId: userDevices.deviceId })
    .from(userDevices)
    .innerJoin(other, and(eq(other.deviceId, userDevices.deviceId), eq(other.userId, b)))
    .where(eq(userDevices.userId, a))
    .limit(1)
    .get();
  return Boolean(row);
}

/** Whether any account that signed in from this browser is banned now. */
export async function deviceHasBannedUser(db: Db, deviceId: string): Promise<boolean> {
  const row = await db
    .select({ id: users.id })
    .from(userDevices)
    .innerJoin(users, eq(users.id, userDevices.userId))
    .where(and(eq(userDevices.deviceId, deviceId), isNotNull(users.bannedAt)))
    .limit(1)
    .get();
  return row !== undefined;
}
