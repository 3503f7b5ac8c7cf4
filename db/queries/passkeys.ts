// Passkeys (WebAuthn credentials) and the one open challenge per session (docs/decisions/030-passkeys.md).
import { and, eq } from "drizzle-orm";
import type { Db } from "../index";
import { passkeys, webauthnChallenges } from "../schema";

export type PasskeyRow = typeof passkeys.$inferSelect;
type Purpose = "register" | "authenticate";

/** The session's open challenge becomes this one (a new ceremony replaces an unfinished one). */
export async function keepWebauthnChallenge(db: Db, sessionId: string, purpose: Purpose, challenge: string, expiresAt: Date) {
  await db
    .insert(webauthnChallenges)
    .values({ sessionId, purpose, challenge, expiresAt })
    .onConflictDoUpdate({ target: webauthnChallenges.sessionId, set: { purpose, challenge, expiresAt } });
}

/** Takes the session's open challenge out (whatever comes of it, it is used once). */
export async function takeWebauthnChallenge(db: Db, sessionId: string) {
  const [row] = await db.delete(webauthnChallenges).where(eq(webauthnChallenges.sessionId, sessionId)).returning();
  return row;
}

export function listPasskeyRows(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).all();
}

export async function insertPasskey(db: Db, row: typeof passkeys.$inferInsert): Promise<void> {
  await db.insert(passkeys).values(row);
}

/** Deletes one of the person's passkeys; its name, or undefined when it was not theirs. */
export async function deletePasskey(db: Db, userId: string, id: string): Promise<string | undefined> {
  const gone = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ name: passkeys.name });
  return gone[0]?.name;
}

export async function markPasskeyUsed(db: Db, id: string, counter: number, at: Date): Promise<void> {
  await db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id));
}
