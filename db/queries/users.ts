import { eq } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { UpdateMe } from "../../core/schemas";
import type { Db } from "../index";
import { type User, users } from "../schema";

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
