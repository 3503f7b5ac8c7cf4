// Which database holds what once LinkUp runs on several (docs/decisions/058-beyond-one-database.md), beside
// db/index.ts, which stays the one-database entry. Shard 0 is `DB`, today's database, which also keeps the global
// tables (the shard map and the person directory); shard n ≥ 1 is the D1 binding `DB_SHARD_<n>`, or with libSQL the
// database at `DATABASE_URL_SHARD_<n>`. With no rows in `area_shards` every area, and so every person placed by area
// and every room, maps to shard 0: one database, exactly as before.
import { faultPoint } from "../core/faults";
import { newId } from "../core/ids";
import { dmMembers, roomKind } from "../core/room-ids";
import { createDb, type Db, type DbEnv } from "./index";
import { addMembers, ensureRoom, listUserRooms, removeMember, type RoomKind } from "./queries/rooms";
import * as q from "./queries/shards";
import { createUser, findUserById, findUserByPhone } from "./queries/users";
import type { User, users } from "./schema";

export interface ShardEnv extends DbEnv {
  [binding: `DB_SHARD_${number}`]: D1Database | undefined;
  [url: `DATABASE_URL_SHARD_${number}`]: string | undefined;
  ENVIRONMENT?: string;
  FAULT_HANG_AT?: string;
  FAULT_TRACE?: string;
}

/** How long an isolate trusts its copy of the shard map: a moved area is seen everywhere within this. */
export const SHARD_MAP_TTL_MS = 60_000;

/** The global database: the shard map, the person directory and the groups' shards. */
export function globalDb(env: ShardEnv): Db {
  return createDb(env);
}

/** The drizzle database of shard `shard`; a shard the map names but the Worker has no binding for is an operator error. */
export function dbForShard(env: ShardEnv, shard: number): Db {
  if (shard === 0) return createDb(env);
  if (env.DATABASE_URL) {
    const url = env[`DATABASE_URL_SHARD_${shard}`];
    if (!url) throw new Error(`shard ${shard} has no DATABASE_URL_SHARD_${shard}`);
    return createDb({ DB: env.DB, DATABASE_URL: url, DATABASE_AUTH_TOKEN: env.DATABASE_AUTH_TOKEN });
  }
  const binding = env[`DB_SHARD_${shard}`];
  if (!binding) throw new Error(`shard ${shard} has no D1 binding DB_SHARD_${shard}`);
  return createDb({ DB: binding, QUERY_COUNT: env.QUERY_COUNT });
}

// ---------------------------------------------------------------- areas

/** The shard of an area cell: the longest prefix of its geohash in the map, shard 0 when none is. */
export function shardInMap(map: ReadonlyMap<string, number>, geohash: string): number {
  for (let n = Math.min(geohash.length, 5); n >= 1; n--) {
    const shard = map.get(geohash.slice(0, n));
    if (shard !== undefined) return shard;
  }
  return 0;
}

// One copy of the map per global database per isolate (tests run several databases in one isolate).
const maps = new Map<unknown, { at: number; map: Map<string, number> }>();

async function areaMap(env: ShardEnv, now: number): Promise<Map<string, number>> {
  const key = env.DATABASE_URL || env.DB;
  const cached = maps.get(key);
  if (cached && now - cached.at < SHARD_MAP_TTL_MS) return cached.map;
  const map = new Map((await q.loadAreaShards(globalDb(env))).map((r) => [r.prefix, r.shard] as const));
  maps.set(key, { at: now, map });
  return map;
}

/** Drops this isolate's copies of the map and of directory entries (after a move made here; others follow within SHARD_MAP_TTL_MS). */
export function forgetShardMap(): void {
  maps.clear();
  homes.clear();
}

export async function shardOfArea(env: ShardEnv, geohash: string, now = Date.now()): Promise<number> {
  return shardInMap(await areaMap(env, now), geohash);
}

export async function dbForArea(env: ShardEnv, geohash: string): Promise<Db> {
  return dbForShard(env, await shardOfArea(env, geohash));
}

/**
 * Points the areas under `prefix` at `shard`. Only the last step of a move: their rows must be on `shard` already
 * (the procedure is in decision 058).
 */
export async function pointAreaAt(env: ShardEnv, prefix: string, shard: number): Promise<void> {
  dbForShard(env, shard); // refuses a shard this Worker cannot reach before the map names it
  await q.setAreaShard(globalDb(env), prefix, shard);
  forgetShardMap();
}

// ---------------------------------------------------------------- people

// Directory entries found, per global database, for as long as the map: a person's shard changes only by a move,
// which waits two lifetimes before it deletes anything (decision 058). A person not found is not kept: they may be
// being created.
const homes = new Map<unknown, Map<string, { at: number; shard: number }>>();
const HOMES_KEPT = 10_000;

export async function shardOfPerson(env: ShardEnv, userId: string, now = Date.now()): Promise<number> {
  const key = env.DATABASE_URL || env.DB;
  let known = homes.get(key);
  const hit = known?.get(userId);
  if (hit && now - hit.at < SHARD_MAP_TTL_MS) return hit.shard;
  const shard = await q.findPersonShard(globalDb(env), userId);
  if (shard === undefined) return 0;
  if (!known || known.size >= HOMES_KEPT) {
    known = new Map();
    homes.set(key, known);
  }
  known.set(userId, { at: now, shard });
  return shard;
}

export async function dbForPerson(env: ShardEnv, userId: string): Promise<Db> {
  return dbForShard(env, await shardOfPerson(env, userId));
}

/**
 * A new person, placed on the shard of the area they start in (most of their rooms are that area's), shard 0 when
 * no area is known yet. The directory row is written first: a person the directory does not name would be looked
 * for on shard 0.
 */
export async function createPersonOnShard(
  env: ShardEnv,
  values: Partial<typeof users.$inferInsert>,
): Promise<{ user: User; shard: number }> {
  const id = values.id ?? newId();
  const wanted = values.geohash ? await shardOfArea(env, values.geohash) : 0;
  const shard = await q.putPersonInDirectory(globalDb(env), { userId: id, shard: wanted, phone: values.phone ?? null });
  await faultPoint("shards.person.directory-written", env);
  const user = (await findUserById(dbForShard(env, shard), id)) ?? (await createUser(dbForShard(env, shard), { ...values, id }));
  return { user, shard };
}

/** A verified phone, in the directory too, so the number finds the person whatever their shard. */
export async function setPhoneInDirectory(env: ShardEnv, userId: string, phone: string): Promise<void> {
  await q.setPhoneInDirectory(globalDb(env), userId, phone);
}

/** The person with this phone: through the directory, or on shard 0 for people placed before the directory. */
export async function findPersonByPhone(env: ShardEnv, phone: string): Promise<{ user: User; shard: number } | undefined> {
  const entry = await q.findPhoneInDirectory(globalDb(env), phone);
  if (entry) {
    const user = await findUserById(dbForShard(env, entry.shard), entry.userId);
    return user ? { user, shard: entry.shard } : undefined;
  }
  // A copy never carries a phone (upsertPersonCopy), so a row found here is the person.
  const user = await findUserByPhone(globalDb(env), phone);
  return user ? { user, shard: 0 } : undefined;
}

// ---------------------------------------------------------------- sessions

/**
 * A session cookie names its shard, so a request finds its session with no lookup: `<shard>.<random>`. Shard 0's
 * tokens carry no prefix, so every cookie issued before sharding still works.
 */
export function sessionTokenOnShard(shard: number, token: string): string {
  return shard === 0 ? token : `${shard}.${token}`;
}

export function shardOfSessionToken(token: string): number {
  const m = /^(\d{1,4})\.[A-Za-z0-9_-]+$/.exec(token);
  return m ? Number(m[1]) : 0;
}

/** The database that holds this session cookie's session (and its person). */
export function dbForSessionToken(env: ShardEnv, token: string): Db {
  return dbForShard(env, shardOfSessionToken(token));
}

// ---------------------------------------------------------------- rooms

/**
 * The shard of a room: an area room is its area's; a direct chat lives on the home shard of the first person its
 * id names (ids are sorted: either side, and the room itself, find it from the id alone); a group on the shard
 * recorded when it was made (its creator's), shard 0 without a record.
 */
export async function shardOfRoom(env: ShardEnv, roomId: string): Promise<number> {
  const kind = roomKind(roomId);
  if (kind === "nearby") return shardOfArea(env, roomId.slice("nearby:".length));
  if (kind === "dm") {
    const members = dmMembers(roomId);
    if (!members) throw new Error(`not a direct chat id: ${roomId}`);
    return shardOfPerson(env, members[0]);
  }
  if (kind === "group") return (await q.findRoomShard(globalDb(env), roomId)) ?? 0;
  throw new Error(`not a room id: ${roomId}`);
}

export async function dbForRoom(env: ShardEnv, roomId: string): Promise<Db> {
  return dbForShard(env, await shardOfRoom(env, roomId));
}

/** A new group goes to its creator's home shard; the record is what finds it later. */
export async function placeGroup(env: ShardEnv, roomId: string, creatorId: string): Promise<number> {
  const shard = await shardOfPerson(env, creatorId);
  await q.putRoomShard(globalDb(env), roomId, shard);
  return shard;
}

/**
 * Makes the person a member of the room on the room's shard. From another shard, the pointer on their home shard is
 * written first and then their copy where the room is: a crash between leaves a pointer to no membership (the room
 * list skips it, a retry completes it), never a membership their room list cannot find.
 */
export async function joinRoomOnShard(
  env: ShardEnv,
  person: Pick<User, "id" | "nickname" | "anonymousMode">,
  room: { id: string; kind: RoomKind; name: string; createdBy?: string | null },
  role: "member" | "owner" = "member",
): Promise<{ shard: number; home: number }> {
  const [home, shard] = await Promise.all([shardOfPerson(env, person.id), shardOfRoom(env, room.id)]);
  const roomDb = dbForShard(env, shard);
  if (home !== shard) {
    await q.addAwayRoom(dbForShard(env, home), { userId: person.id, roomId: room.id, shard });
    await faultPoint("shards.join.pointer-written", env);
    await q.upsertPersonCopy(roomDb, person, home);
    await faultPoint("shards.join.copy-written", env);
  }
  await ensureRoom(roomDb, room);
  await addMembers(roomDb, room.id, [{ userId: person.id, role }]);
  return { shard, home };
}

/** Leaves the room where it lives, then drops the pointer (the reverse order of joining). */
export async function leaveRoomOnShard(env: ShardEnv, userId: string, roomId: string): Promise<void> {
  const [home, shard] = await Promise.all([shardOfPerson(env, userId), shardOfRoom(env, roomId)]);
  await removeMember(dbForShard(env, shard), roomId, userId);
  if (home !== shard) await q.removeAwayRoom(dbForShard(env, home), userId, roomId);
}

export type PersonRoom = Awaited<ReturnType<typeof listUserRooms>>[number] & { shard: number };

/**
 * A person's rooms over every shard that holds one: their home shard, then each shard their pointers name, in
 * parallel (D1 allows six open connections per invocation). Newest activity first, as `listUserRooms` orders them.
 */
export async function listPersonRooms(env: ShardEnv, userId: string): Promise<PersonRoom[]> {
  const home = await shardOfPerson(env, userId);
  const away = await q.awayShardsOf(dbForShard(env, home), userId);
  const shards = [home, ...away.filter((s) => s !== home)];
  const lists = await Promise.all(
    shards.map(async (shard) => (await listUserRooms(dbForShard(env, shard), userId)).map((r) => ({ ...r, shard }))),
  );
  const activity = (r: PersonRoom) => Number(r.lastMessageAt ?? new Date(r.joinedAt).getTime());
  return lists.flat().sort((a, b) => activity(b) - activity(a));
}
