// The room queries on libSQL (the DATABASE_URL driver); the D1 side runs through the Worker integration tests.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { MAX_DEVICE_KEYS } from "../../core/rooms";
import type { Db } from "../index";
import * as schema from "../schema";
import { and, eq } from "drizzle-orm";
import { MESSAGE_POINTS, MESSAGE_POINTS_PER_DAY } from "../../core/rewards";
import { findRoomActivity, type FlushMessage, type RoomFlush, writeRoomFlush } from "./room-activity";
import {
  addMembers,
  countActiveConnections,
  ensureRoom,
  isMember,
  listDeviceKeys,
  listMembers,
  listUserRooms,
  upsertDeviceKey,
} from "./rooms";
import { createUser } from "./users";

let db: Db;
beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "linkup-rooms-")), "test.db");
  const instance = drizzle(createClient({ url: `file:${file}` }), { schema });
  await migrate(instance, { migrationsFolder: "db/migrations" });
  db = instance as unknown as Db;
});

describe("room queries on libSQL", () => {
  it("creates rooms once, adds members once, lists them owner first with device keys", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    const id = `group:${newId()}`;
    const room = await ensureRoom(db, { id, kind: "group", name: "Farmers", createdBy: a.id });
    expect(await ensureRoom(db, { id, kind: "group", name: "Renamed" })).toMatchObject({ id, name: "Farmers" });
    await addMembers(db, room.id, [{ userId: b.id }, { userId: a.id, role: "owner" }]);
    await addMembers(db, room.id, [{ userId: b.id }]);
    expect(await isMember(db, id, b.id)).toBe(true);
    expect(await isMember(db, id, "nobody")).toBe(false);

    await upsertDeviceKey(db, { userId: b.id, deviceId: "d1", publicKey: "k1" }, MAX_DEVICE_KEYS);
    await upsertDeviceKey(db, { userId: b.id, deviceId: "d1", publicKey: "k2" }, MAX_DEVICE_KEYS);
    expect((await listDeviceKeys(db, b.id)).map((k) => k.publicKey)).toEqual(["k2"]);

    const members = await listMembers(db, id);
    expect(members.map((m) => [m.userId, m.role, m.keys])).toEqual([
      [a.id, "owner", []],
      [b.id, "member", [{ deviceId: "d1", publicKey: "k2" }]],
    ]);
    const rooms = await listUserRooms(db, b.id);
    expect(rooms).toEqual([expect.objectContaining({ id, kind: "group", name: "Farmers", memberCount: 2, lastMessageAt: null })]);
  });

  it("keeps at most MAX_DEVICE_KEYS keys per person, always the one just published", async () => {
    const a = await createUser(db);
    for (let i = 0; i < MAX_DEVICE_KEYS + 3; i++)
      await upsertDeviceKey(db, { userId: a.id, deviceId: `d${i}`, publicKey: `k${i}` }, MAX_DEVICE_KEYS);
    const keys = await listDeviceKeys(db, a.id);
    expect(keys).toHaveLength(MAX_DEVICE_KEYS);
    expect(keys.map((k) => k.deviceId)).toContain(`d${MAX_DEVICE_KEYS + 2}`);
    // A device that lost its key comes back: it publishes again and is kept.
    const gone = Array.from({ length: MAX_DEVICE_KEYS + 3 }, (_, i) => `d${i}`).find((d) => !keys.some((k) => k.deviceId === d));
    await upsertDeviceKey(db, { userId: a.id, deviceId: gone ?? "d0", publicKey: "back" }, MAX_DEVICE_KEYS);
    const after = await listDeviceKeys(db, a.id);
    expect(after).toHaveLength(MAX_DEVICE_KEYS);
    expect(after.find((k) => k.deviceId === gone)?.publicKey).toBe("back");
  });

  it("records message metadata once per envelope id and orders rooms by activity", async () => {
    const a = await createUser(db);
    const quiet = await ensureRoom(db, { id: `group:${newId()}`, kind: "group", name: "Quiet" });
    const busy = await ensureRoom(db, { id: `group:${newId()}`, kind: "group", name: "Busy" });
    await addMembers(db, quiet.id, [{ userId: a.id }]);
    await addMembers(db, busy.id, [{ userId: a.id }]);
    // A message in the busy room, counted by its batch (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
    await writeRoomFlush(db, flush(busy.id, [[1, a.id, 1, Date.now() + 60_000]]));
    expect((await listUserRooms(db, a.id)).map((r) => r.id)).toEqual([busy.id, quiet.id]);
  });

  it("counts a room's batch once however often it is replayed, and what came after it too", async () => {
    const [a, b] = [await createUser(db), await createUser(db)];
    const roomId = `nearby:s1${newId().slice(0, 3)}`;
    const at = Date.parse("2026-11-20T10:15:00Z");
    const messages = (from: number, to: number): FlushMessage[] =>
      Array.from({ length: to - from + 1 }, (_, i) => [from + i, i % 2 ? b.id : a.id, 1, at + i]);
    // The first batch, then the same again (D1 wrote it, the room died before noting so), then one that overlaps
    // it with later messages and a server line (not a person's text: in the room's count only).
    await writeRoomFlush(db, flush(roomId, messages(1, 30), { throughSeq: 30 }));
    await writeRoomFlush(db, flush(roomId, messages(1, 30), { throughSeq: 30 }));
    await writeRoomFlush(db, flush(roomId, [...messages(1, 34), [35, "system", 0, at + 40]], { throughSeq: 35 }));
    expect(await findRoomActivity(db, roomId)).toMatchObject({ messages: 35, countedSeq: 35, lastMessageAt: new Date(at + 40) });
    const daily = await db
      .select()
      .from(schema.analyticsDaily)
      .where(and(eq(schema.analyticsDaily.day, "2026-11-20"), eq(schema.analyticsDaily.area, roomId.slice(7, 10))));
    expect(daily.map((d) => d.count)).toEqual([34]);
    const hourly = await db
      .select()
      .from(schema.analyticsHourly)
      .where(eq(schema.analyticsHourly.area, roomId.slice(7, 10)));
    expect(hourly.map((h) => [h.hour, h.count])).toEqual([["2026-11-20T10", 34]]);
    const personal = await db.select().from(schema.analyticsPersonal).where(eq(schema.analyticsPersonal.userId, b.id));
    expect(personal.map((p) => p.count)).toEqual([17]);
    // Points: one ledger row per person and day (17 of a's so far), the daily cap held on the server across batches.
    const pointsOf = async (userId: string) =>
      (await db.select().from(schema.pointEvents).where(eq(schema.pointEvents.userId, userId))).map((p) => [p.kind, p.ref, p.points]);
    expect(await pointsOf(a.id)).toEqual([["message", "2026-11-20", 17 * MESSAGE_POINTS]]);
    const more: FlushMessage[] = Array.from({ length: 10 }, (_, i) => [36 + i, a.id, 1, at + 50 + i]);
    await writeRoomFlush(db, flush(roomId, more, { throughSeq: 45 }));
    const points = await db.select().from(schema.pointEvents).where(eq(schema.pointEvents.userId, a.id));
    expect(points.map((p) => [p.kind, p.ref, p.points])).toEqual([["message", "2026-11-20", MESSAGE_POINTS * MESSAGE_POINTS_PER_DAY]]);
    // A room whose storage began again (new epoch) counts from its first seq again.
    await writeRoomFlush(db, flush(roomId, messages(1, 2), { epoch: 2, throughSeq: 2 }));
    expect(await findRoomActivity(db, roomId)).toMatchObject({ messages: 47, countedSeq: 2, epoch: 2 });
  });

  it("keeps who is present per room from the batches; a room woken empty clears its stale rows", async () => {
    const roomId = `nearby:${newId().slice(0, 5)}`;
    await writeRoomFlush(
      db,
      flush(roomId, [], {
        presence: [
          ["u1", 1],
          ["u2", 2],
        ],
      }),
    );
    expect(await countActiveConnections(db, roomId)).toBe(3);
    await writeRoomFlush(db, flush(roomId, [], { presence: [["u1", 0]] }));
    expect(await countActiveConnections(db, roomId)).toBe(2);
    await writeRoomFlush(db, flush(roomId, [], { presence: [["u3", 1]], presenceReset: true }));
    expect(await countActiveConnections(db, roomId)).toBe(1);
  });
});

function flush(roomId: string, messages: FlushMessage[], over: Partial<RoomFlush> = {}): RoomFlush {
  return {
    roomId,
    epoch: 1,
    throughSeq: messages.at(-1)?.[0] ?? 0,
    messages,
    kind: `message.${roomId.split(":")[0]}`,
    area: roomId.startsWith("nearby:") ? roomId.slice(7, 10) : "",
    presence: [],
    presenceReset: false,
    now: Date.now(),
    ...over,
  };
}
