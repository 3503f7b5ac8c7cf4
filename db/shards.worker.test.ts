// Two real D1 databases (DB and DB_SHARD_1 of wrangler.toml): a person, their rooms and their messages land on the
// shard their area maps to, and every entry finds them (docs/decisions/058-beyond-one-database.md).
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { armFault, faultPointsPassed, InjectedFault, resetFaults } from "../core/faults";
import { dmRoomId, nearbyRoomId } from "../core/room-ids";
import { countRoomSockets, findRoomActivity, writeRoomFlush } from "./queries/room-activity";
import { findRoom, isMember, listMembers } from "./queries/rooms";
import { findSession, insertSession } from "./queries/sessions";
import { isPersonCopy, setAreaShard } from "./queries/shards";
import { findUserById, setVerifiedPhone } from "./queries/users";
import {
  createPersonOnShard,
  dbForRoom,
  dbForSessionToken,
  dbForShard,
  findPersonByPhone,
  forgetShardMap,
  globalDb,
  joinRoomOnShard,
  listPersonRooms,
  pointAreaAt,
  type ShardEnv,
  SHARD_MAP_TTL_MS,
  setPhoneInDirectory,
  sessionTokenOnShard,
  shardInMap,
  shardOfArea,
  shardOfRoom,
  shardOfSessionToken,
} from "./shards";

const shardEnv = env as unknown as ShardEnv;
const LAGOS = "s14kt";
const KANO = "s4nh7";
const PORT_HARCOURT = "s0v52";

beforeEach(() => {
  forgetShardMap();
  resetFaults();
});
afterEach(() => resetFaults());

/** The test's shard bindings, each counting the statements it is given (drizzle prepares one per query). */
function countedShards() {
  const counts = [0, 0];
  const wrap = (db: D1Database, shard: number) =>
    new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === "prepare")
          return (sql: string) => {
            counts[shard]++;
            return target.prepare(sql);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const counted = { ...shardEnv, DB: wrap(shardEnv.DB, 0), DB_SHARD_1: wrap(shardEnv.DB_SHARD_1 as D1Database, 1) } as ShardEnv;
  const taken = () => {
    const out = [...counts];
    counts.fill(0);
    return out;
  };
  return { env: counted, taken };
}

/** What a room's minute batch writes for one message of `senderId` and, optionally, a socket (decision 056). */
function roomBatch(roomId: string, senderId: string, sentAt: number, sockets = 0) {
  return {
    roomId,
    epoch: 1,
    throughSeq: 1,
    messages: [[1, senderId, 1, sentAt] as [number, string, 0 | 1, number]],
    kind: "message.other",
    area: "",
    presence: sockets ? ([[senderId, sockets]] as [string, number][]) : [],
    presenceReset: false,
    now: sentAt,
  };
}

describe("the shard map", () => {
  it("sends an area to the shard of its longest mapped prefix, and shard 0 when none is mapped", () => {
    const map = new Map([
      ["s4", 1],
      ["s4nh", 0],
    ]);
    expect(shardInMap(map, "s4abc")).toBe(1);
    expect(shardInMap(map, "s4nh7")).toBe(0);
    expect(shardInMap(map, LAGOS)).toBe(0);
  });

  it("keeps everyone on today's database until an area is pointed elsewhere", async () => {
    // Port Harcourt's prefix is never mapped in this file (storage is shared by its tests).
    const { user, shard } = await createPersonOnShard(shardEnv, { nickname: "PH Default", geohash: PORT_HARCOURT });
    expect(shard).toBe(0);
    await joinRoomOnShard(shardEnv, user, { id: nearbyRoomId(PORT_HARCOURT), kind: "nearby", name: "Port Harcourt" });
    expect(await isMember(dbForShard(shardEnv, 0), nearbyRoomId(PORT_HARCOURT), user.id)).toBe(true);
    expect(await findUserById(dbForShard(shardEnv, 1), user.id)).toBeUndefined();
  });

  it("is seen by every isolate within a minute of a move made elsewhere", async () => {
    const t0 = Date.now();
    expect(await shardOfArea(shardEnv, KANO, t0)).toBe(0);
    // Another isolate moved the north: this one still has its copy of the map, until the copy is a minute old.
    await setAreaShard(globalDb(shardEnv), "s4", 1);
    expect(await shardOfArea(shardEnv, KANO, t0 + 1_000)).toBe(0);
    expect(await shardOfArea(shardEnv, KANO, t0 + SHARD_MAP_TTL_MS + 1)).toBe(1);
  });

  it("refuses to point an area at a shard the Worker has no database for", async () => {
    await expect(pointAreaAt(shardEnv, "s0", 7)).rejects.toThrow(/DB_SHARD_7/);
    expect(await shardOfArea(shardEnv, PORT_HARCOURT)).toBe(0);
  });
});

describe("a person on the second shard", () => {
  it("has their record, rooms, messages and activity there, found by phone, by session and by room id", async () => {
    await pointAreaAt(shardEnv, "s4", 1);
    const { user, shard } = await createPersonOnShard(shardEnv, { nickname: "Amina", geohash: KANO });
    expect(shard).toBe(1);
    const home = dbForShard(shardEnv, 1);
    const other = dbForShard(shardEnv, 0);
    expect((await findUserById(home, user.id))?.nickname).toBe("Amina");
    expect(await findUserById(other, user.id)).toBeUndefined();

    // By phone: the global directory names the shard.
    await setVerifiedPhone(home, user.id, "+2348031110001", false);
    await setPhoneInDirectory(shardEnv, user.id, "+2348031110001");
    const byPhone = await findPersonByPhone(shardEnv, "+2348031110001");
    expect(byPhone).toMatchObject({ shard: 1, user: { id: user.id, authMode: "verified" } });

    // By session: the cookie names its shard, so no lookup is needed.
    const token = sessionTokenOnShard(1, "k7Jf0-randomtoken_x");
    expect(shardOfSessionToken(token)).toBe(1);
    expect(shardOfSessionToken("legacy-token-without-prefix")).toBe(0);
    await insertSession(home, { id: `hash:${token}`, userId: user.id, expiresAt: new Date(Date.now() + 60_000) });
    expect((await findSession(dbForSessionToken(shardEnv, token), `hash:${token}`))?.user.id).toBe(user.id);
    expect(await findSession(other, `hash:${token}`)).toBeUndefined();

    // Their area room, its message activity and its open sockets (the room's minute batch): on the area's shard,
    // nowhere else.
    const room = nearbyRoomId(KANO);
    expect(await joinRoomOnShard(shardEnv, user, { id: room, kind: "nearby", name: "Kano" })).toEqual({ shard: 1, home: 1 });
    const roomDb = await dbForRoom(shardEnv, room);
    await writeRoomFlush(roomDb, roomBatch(room, user.id, Date.now(), 1));
    expect((await findRoomActivity(home, room))?.messages).toBe(1);
    expect(await findRoomActivity(other, room)).toBeUndefined();
    expect(await countRoomSockets(home, room)).toBe(1);
    expect(await countRoomSockets(other, room)).toBe(0);
    expect(await findRoom(other, room)).toBeUndefined();

    // By room id: the room's shard follows from the id.
    expect(await shardOfRoom(shardEnv, room)).toBe(1);
    expect(await isMember(await dbForRoom(shardEnv, room), room, user.id)).toBe(true);

    // Their room list, asked with nothing but their id.
    const rooms = await listPersonRooms(shardEnv, user.id);
    expect(rooms.map((r) => [r.id, r.shard, r.memberCount])).toEqual([[room, 1, 1]]);
    expect(rooms[0].lastMessageAt).not.toBeNull();
  });
});

describe("a direct chat between two regions", () => {
  it("lives on the shard of the first person its id names, and both find it, its members and its messages", async () => {
    await pointAreaAt(shardEnv, "s4", 1);
    // Both orders: the Kano person named first (the chat on shard 1), then the Lagos person named first (shard 0).
    for (const [kanoId, lagosId, expected] of [
      ["a-kano-person", "b-lagos-person", 1],
      ["d-kano-person", "c-lagos-person", 0],
    ] as const) {
      const kano = (await createPersonOnShard(shardEnv, { id: kanoId, nickname: `Kano ${kanoId}`, geohash: KANO })).user;
      const lagos = (await createPersonOnShard(shardEnv, { id: lagosId, nickname: `Lagos ${lagosId}`, geohash: LAGOS })).user;
      const dm = dmRoomId(kano.id, lagos.id);
      expect(await shardOfRoom(shardEnv, dm)).toBe(expected);

      for (const person of [kano, lagos]) await joinRoomOnShard(shardEnv, person, { id: dm, kind: "dm", name: "Direct chat" });
      const dmDb = await dbForRoom(shardEnv, dm);
      await writeRoomFlush(dmDb, roomBatch(dm, lagos.id, Date.now()));

      // The member list, on the chat's shard, names both with their names (the one from the other shard as a copy).
      const members = await listMembers(dmDb, dm);
      expect(members.map((m) => m.nickname).sort()).toEqual([kano.nickname, lagos.nickname].sort());
      const away = expected === 1 ? lagos : kano;
      expect(await isPersonCopy(dmDb, away.id)).toBe(true);
      // The copy is not the person: their record (and its phone, sessions…) stays only on their home shard.
      expect(await isPersonCopy(dbForShard(shardEnv, 1 - expected), away.id)).toBe(false);

      for (const person of [kano, lagos]) {
        const rooms = await listPersonRooms(shardEnv, person.id);
        expect(rooms.map((r) => [r.id, r.shard, r.memberCount])).toEqual([[dm, expected, 2]]);
        expect(rooms[0].lastMessageAt).not.toBeNull();
      }
    }
  });

  it("survives a crash at each step of a join across shards: a retry completes it, the room list never breaks", async () => {
    await pointAreaAt(shardEnv, "s4", 1);
    const person = async (id: string, geohash: string) => (await createPersonOnShard(shardEnv, { id, nickname: id, geohash })).user;
    const join = (who: { id: string; nickname: string; anonymousMode: boolean }, dm: string) =>
      joinRoomOnShard(shardEnv, who, { id: dm, kind: "dm", name: "Direct chat" });
    // Walk the path once to learn its points (decision 053), then fail it at each one in turn.
    const [k0, l0] = [await person("e0-kano", KANO), await person("f0-lagos", LAGOS)];
    resetFaults();
    await join(l0, dmRoomId(k0.id, l0.id));
    const points = faultPointsPassed().filter((p) => p.startsWith("shards.join."));
    expect(points.length).toBeGreaterThanOrEqual(2);

    for (const [i, point] of points.entries()) {
      const kano = await person(`e${i + 1}-kano`, KANO);
      const lagos = await person(`f${i + 1}-lagos`, LAGOS);
      const dm = dmRoomId(kano.id, lagos.id);
      await join(kano, dm);
      armFault(point);
      await expect(join(lagos, dm)).rejects.toBeInstanceOf(InjectedFault);
      expect(await listPersonRooms(shardEnv, lagos.id), point).toEqual([]);
      await join(lagos, dm);
      expect((await listPersonRooms(shardEnv, lagos.id)).map((r) => [r.id, r.shard, r.memberCount])).toEqual([[dm, 1, 2]]);
    }
  });

  it("places a person whose creation crashed after the directory row on the same shard when it is retried", async () => {
    await pointAreaAt(shardEnv, "s4", 1);
    armFault("shards.person.directory-written");
    await expect(createPersonOnShard(shardEnv, { id: "g-kano", nickname: "Kano G", geohash: KANO })).rejects.toBeInstanceOf(InjectedFault);
    // Meanwhile the north is pointed back at shard 0: the retry still follows the directory's first answer.
    await pointAreaAt(shardEnv, "s4", 0);
    const { user, shard } = await createPersonOnShard(shardEnv, { id: "g-kano", nickname: "Kano G", geohash: KANO });
    expect([user.id, shard]).toEqual(["g-kano", 1]);
    expect(await findUserById(dbForShard(shardEnv, 1), "g-kano")).toBeDefined();
    expect(await findUserById(dbForShard(shardEnv, 0), "g-kano")).toBeUndefined();
    await pointAreaAt(shardEnv, "s4", 1);
  });
});

describe("what finding a shard costs", () => {
  it("asks no database per request once the map and a directory entry are in the isolate, and one query a shard for a room list", async () => {
    await pointAreaAt(shardEnv, "s4", 1);
    const kano = (await createPersonOnShard(shardEnv, { id: "h-kano", nickname: "Kano H", geohash: KANO })).user;
    const lagos = (await createPersonOnShard(shardEnv, { id: "i-lagos", nickname: "Lagos I", geohash: LAGOS })).user;
    const { env: counted, taken } = countedShards();

    // The map: one read on the global database for the isolate's first look, then none for a minute.
    expect(await shardOfArea(counted, KANO)).toBe(1);
    expect(taken()).toEqual([1, 0]);
    expect(await shardOfRoom(counted, nearbyRoomId(LAGOS))).toBe(0);
    // A session by its cookie: no query at all.
    expect(shardOfSessionToken(sessionTokenOnShard(1, "abc"))).toBe(1);
    expect(taken()).toEqual([0, 0]);

    // A direct chat by its id: one directory read, then none while the entry is kept.
    const dm = dmRoomId(kano.id, lagos.id);
    expect(await shardOfRoom(counted, dm)).toBe(1);
    expect(await shardOfRoom(counted, dm)).toBe(1);
    expect(taken()).toEqual([1, 0]);

    // Joining from another shard: the Lagos person's directory entry (1) and pointer (1) on shard 0; their copy
    // (2), the room (2) and the membership (1) on the chat's shard.
    await joinRoomOnShard(counted, kano, { id: dm, kind: "dm", name: "Direct chat" });
    taken();
    await joinRoomOnShard(counted, lagos, { id: dm, kind: "dm", name: "Direct chat" });
    expect(taken()).toEqual([2, 5]);

    // Their room list: the pointers and the rooms on their home shard, the rooms on the one other shard.
    expect((await listPersonRooms(counted, lagos.id)).map((r) => r.id)).toEqual([dm]);
    expect(taken()).toEqual([2, 1]);
  });
});
