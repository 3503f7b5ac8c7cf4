// The shard map, the directory, the pointers and the copies (db/queries/shards.ts, decision 058) on both drivers.
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import {
  addAwayRoom,
  awayShardsOf,
  findPersonShard,
  findPhoneInDirectory,
  isPersonCopy,
  loadAreaShards,
  putPersonInDirectory,
  removeAwayRoom,
  setAreaShard,
  setPhoneInDirectory,
  upsertPersonCopy,
} from "./shards";
import { findUserById } from "./users";

export function shardQuerySuite(driver: string, getDb: () => Db) {
  describe(`shard queries on ${driver}`, () => {
    it("keeps one shard per prefix, the last one set", async () => {
      const db = getDb();
      const prefix = `z${newId(3)}`;
      await setAreaShard(db, prefix, 2);
      await setAreaShard(db, prefix, 3);
      expect((await loadAreaShards(db)).filter((r) => r.prefix === prefix)).toEqual([{ prefix, shard: 3 }]);
    });

    it("places a person once and finds them by id and by phone", async () => {
      const db = getDb();
      const id = newId();
      const phone = `+23480${String(Date.now()).slice(-8)}`;
      expect(await putPersonInDirectory(db, { userId: id, shard: 2 })).toBe(2);
      expect(await putPersonInDirectory(db, { userId: id, shard: 5 })).toBe(2);
      expect(await findPersonShard(db, id)).toBe(2);
      await setPhoneInDirectory(db, id, phone);
      expect(await findPhoneInDirectory(db, phone)).toEqual({ userId: id, shard: 2 });
      expect(await findPersonShard(db, newId())).toBeUndefined();
    });

    it("lists the other shards that hold a person's rooms, each once", async () => {
      const db = getDb();
      const id = newId();
      await addAwayRoom(db, { userId: id, roomId: "dm:a:b", shard: 1 });
      await addAwayRoom(db, { userId: id, roomId: "dm:a:c", shard: 1 });
      await addAwayRoom(db, { userId: id, roomId: "nearby:s4nh7", shard: 2 });
      expect((await awayShardsOf(db, id)).sort()).toEqual([1, 2]);
      await removeAwayRoom(db, id, "nearby:s4nh7");
      expect(await awayShardsOf(db, id)).toEqual([1]);
    });

    it("writes a copy of a person's public fields, marked as a copy, and refreshes it", async () => {
      const db = getDb();
      const id = newId();
      await upsertPersonCopy(db, { id, nickname: "Copy One", anonymousMode: false }, 1);
      await upsertPersonCopy(db, { id, nickname: "Copy Two", anonymousMode: true }, 1);
      expect(await findUserById(db, id)).toMatchObject({ nickname: "Copy Two", anonymousMode: true, phone: null, authMode: "anonymous" });
      expect(await isPersonCopy(db, id)).toBe(true);
    });
  });
}
