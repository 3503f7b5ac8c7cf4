// API keys and their daily call counts (api_keys, api_key_usage).
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../index";
import { apiKeys, apiKeyUsage } from "../schema";

export function insertApiKey(db: Db, row: { id: string; userId: string; name: string; hint: string; keyHash: string }) {
  return db.insert(apiKeys).values(row);
}

export async function countActiveApiKeys(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  return row?.n ?? 0;
}

/** A person's keys not revoked, newest first, with their calls on `day`. */
export function listActiveApiKeys(db: Db, userId: string, day: string) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      hint: apiKeys.hint,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      callsToday: sql<number>`coalesce(${apiKeyUsage.calls}, 0)`,
    })
    .from(apiKeys)
    .leftJoin(apiKeyUsage, and(eq(apiKeyUsage.keyId, apiKeys.id), eq(apiKeyUsage.day, day)))
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

/** Revokes one of the person's keys; false when it is not theirs or already revoked. */
export async function revokeApiKey(db: Db, userId: string, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Revokes every key of the person still live (a ban, docs/decisions/049-abuse-bans-claims-and-names.md); the count revoked. */
export async function revokeAllApiKeys(db: Db, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}

export async function findActiveApiKey(db: Db, keyHash: string) {
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Counts one call for the key on `day` if its owner's calls that day, over all their keys (revoked ones too), are
 * still under `limit` (null: no limit), in one conditional upsert: parallel calls never pass the limit and a new key
 * does not start the day again (docs/decisions/047-limits-taken-atomically.md). Returns the key's calls counted so
 * far, or null when the limit was already reached.
 */
export async function takeApiCall(db: Db, keyId: string, day: string, limit: number | null, at: Date): Promise<number | null> {
  if (limit !== null && limit <= 0) return null;
  const ownerCalls = sql`(select coalesce(sum(u.calls), 0) from api_key_usage u join api_keys k on k.id = u.key_id
    where u.day = ${day} and k.user_id = (select user_id from api_keys where id = ${keyId}))`;
  // SQLite reads an upsert's SELECT right only with a WHERE clause of its own, hence `where true` without a limit.
  const underLimit = limit === null ? sql`true` : sql`${ownerCalls} < ${limit}`;
  const rows = await db
    .insert(apiKeyUsage)
    .select(sql`select ${keyId} as key_id, ${day} as day, 1 as calls where ${underLimit}`)
    .onConflictDoUpdate({
      target: [apiKeyUsage.keyId, apiKeyUsage.day],
      set: { calls: sql`${apiKeyUsage.calls} + 1` },
      setWhere: underLimit,
    })
    .returning({ calls: apiKeyUsage.calls });
  if (rows.length === 0) return null;
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
  return rows[0].calls;
}
