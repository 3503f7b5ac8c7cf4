// The product's message path through the shard seam (docs/scale.md, docs/decisions/058-beyond-one-database.md): an
// area room's minute batch (its activity, presence, counts) lands on the database its area maps to, on two real D1
// databases (DB and DB_SHARD_1 of wrangler.toml); an area nobody mapped stays on today's database.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { forgetShardMap, pointAreaAt, type ShardEnv } from "../db/shards";
import { busyAreaRoom, flushRoom } from "../tests/workers/room-socket";

const shardEnv = env as unknown as ShardEnv;
const shards = [env.DB, (env as unknown as { DB_SHARD_1: D1Database }).DB_SHARD_1];
beforeEach(() => forgetShardMap());

/** Two people say `each` things in an area room under `prefix`, then its minute passes and its batch is written. */
async function busyMinute(prefix: string, each: number) {
  const { roomId } = await busyAreaRoom(prefix, each);
  expect(await flushRoom(roomId)).toBe(true);
  return roomId;
}

/** Each shard's room_activity count for the room (null: no row there). */
async function activityOn(roomId: string): Promise<(number | null)[]> {
  return Promise.all(
    shards.map(
      async (db) =>
        (await db.prepare("SELECT messages FROM room_activity WHERE room_id = ?").bind(roomId).first<{ messages: number }>())?.messages ??
        null,
    ),
  );
}

describe("an area room's minute", () => {
  it("lands on the shard its area maps to, and an unmapped area's on today's database: each holds only its own", async () => {
    // Lagos (under s14) moves to shard 1; Port Harcourt (under s0v) is never mapped.
    await pointAreaAt(shardEnv, "s14", 1);
    const lagos = await busyMinute("s14", 3);
    const portHarcourt = await busyMinute("s0v", 2);
    expect(await activityOn(lagos)).toEqual([null, 6]);
    expect(await activityOn(portHarcourt)).toEqual([4, null]);
    // The analytics of the minute went with it: Lagos's messages are counted on shard 1 only.
    const counted = (db: D1Database) =>
      db
        .prepare("SELECT coalesce(sum(count), 0) AS n FROM analytics_daily WHERE kind = 'message.nearby' AND area = ?")
        .bind(lagos.slice("nearby:".length, "nearby:".length + 3))
        .first<{ n: number }>();
    expect((await counted(shards[1]))?.n).toBe(6);
    expect((await counted(shards[0]))?.n).toBe(0);
  });
});
