// The shard map, the global directory and the cross-shard pointers (docs/decisions/058-beyond-one-database.md).
// `area_shards`, `person_directory` and `room_shards` are asked on the global database (shard 0) only;
// `away_rooms` on a person's home shard; `person_copies` on a room's shard. db/shards.ts picks the database.
import { and, eq } from "drizzle-orm";
import type { Db } from "../index";
import { areaShards, awayRooms, personCopies, personDirectory, roomShards, users } from "../schema";

/** The whole prefix → shard map: small (one row per moved region), read once a minute per isolate. */
export function loadAreaShards(db: Db): Promise<{ prefix: string; shard: number }[]> {
  return db.select({ prefix: areaShards.prefix, shard: areaShards.shard }).from(areaShards).all();
}

export async function setAreaShard(db: Db, prefix: string, shard: number): Promise<void> {
  await db
    .insert(areaShards)
    .values({ prefix, shard })
    .onConflictDoUpdate({ target: areaShards.prefix, set: { shard, updatedAt: new Date() } });
}

export async function findPersonShard(db: Db, userId: string): Promise<number | undefined> {
  const row = await db.select({ shard: personDirectory.shard }).from(personDirectory).where(eq(personDirectory.userId, userId)).get();
  return row?.shard;
}

export function findPhoneInDirectory(db: Db, phone: string): Promise<{ userId: string; shard: number } | undefined> {
  return db
    .select({ userId: personDirectory.userId, shard: personDirectory.shard })
    .from(personDirectory)
    .where(eq(personDirectory.phone, phone))
    .get();
}

/**
 * Names the person's home shard and answers the shard recorded: a person is placed once, so a retry (after the map
 * changed, say) gets the first answer, at the cost of a second read only then.
 */
export async function putPersonInDirectory(db: Db, entry: { userId: string; shard: number; phone?: string | null }): Promise<number> {
  const [placed] = await db
    .insert(personDirectory)
    .values({ userId: entry.userId, shard: entry.shard, phone: entry.phone ?? null })
    .onConflictDoNothing()
    .returning({ shard: personDirectory.shard });
  return placed?.shard ?? (await findPersonShard(db, entry.userId)) ?? entry.shard;
}

export async function setPhoneInDirectory(db: Db, userId: string, phone: string | null): Promise<void> {
  await db.update(personDirectory).set({ phone }).where(eq(personDirectory.userId, userId));
}

export async function findRoomShard(db: Db, roomId: string): Promise<number | undefined> {
  const row = await db.select({ shard: roomShards.shard }).from(roomShards).where(eq(roomShards.roomId, roomId)).get();
  return row?.shard;
}

export async function putRoomShard(db: Db, roomId: string, shard: number): Promise<void> {
  await db.insert(roomShards).values({ roomId, shard }).onConflictDoNothing();
}

export async function addAwayRoom(db: Db, row: { userId: string; roomId: string; shard: number }): Promise<void> {
  await db
    .insert(awayRooms)
    .values(row)
    .onConflictDoUpdate({ target: [awayRooms.userId, awayRooms.roomId], set: { shard: row.shard } });
}

export async function removeAwayRoom(db: Db, userId: string, roomId: string): Promise<void> {
  await db.delete(awayRooms).where(and(eq(awayRooms.userId, userId), eq(awayRooms.roomId, roomId)));
}

/** The other shards that hold one of the person's rooms (read through the primary key's user_id prefix). */
export async function awayShardsOf(db: Db, userId: string): Promise<number[]> {
  const rows = await db.selectDistinct({ shard: awayRooms.shard }).from(awayRooms).where(eq(awayRooms.userId, userId)).all();
  return rows.map((r) => r.shard);
}

/**
 * Writes (or refreshes) the copy of a person who lives on `homeShard` onto this shard: what a room's member list
 * shows of them, nothing private. The marker goes first: a copy is never counted as a person of this shard.
 */
export async function upsertPersonCopy(
  db: Db,
  person: { id: string; nickname: string; anonymousMode: boolean },
  homeShard: number,
): Promise<void> {
  await db
    .insert(personCopies)
    .values({ userId: person.id, homeShard })
    .onConflictDoUpdate({ target: personCopies.userId, set: { homeShard, updatedAt: new Date() } });
  await db
    .insert(users)
    .values({ id: person.id, nickname: person.nickname, anonymousMode: person.anonymousMode })
    .onConflictDoUpdate({
      target: users.id,
      set: { nickname: person.nickname, anonymousMode: person.anonymousMode, updatedAt: new Date() },
    });
}

export async function isPersonCopy(db: Db, userId: string): Promise<boolean> {
  return Boolean(await db.select({ userId: personCopies.userId }).from(personCopies).where(eq(personCopies.userId, userId)).get());
}
