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
import {
  addMembers,
  closeConnection,
  closeRoomConnections,
  countActiveConnections,
  ensureRoom,
  findConnection,
  isMember,
  listDeviceKeys,
  listMembers,
  listRoomMessages,
  listUserRooms,
  openConnection,
  recordMessages,
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
    const rows = Array.from({ length: 10 }, (_, i) => ({
      id: `m-${newId()}`,
      roomId: busy.id,
      senderId: a.id,
      type: "text",
      isEncrypted: true,
      ciphertext: `c${i}`,
      iv: "iv",
      sentAt: new Date(Date.now() + 60_000 + i),
    }));
    await recordMessages(db, rows);
    await recordMessages(db, rows.slice(0, 3));
    expect(await listRoomMessages(db, busy.id, 100)).toHaveLength(10);
    expect((await listUserRooms(db, a.id)).map((r) => r.id)).toEqual([busy.id, quiet.id]);
  });

  it("tracks active connections", async () => {
    const roomId = `nearby:${newId().slice(0, 5)}`;
    await openConnection(db, { id: "c1", userId: "u1", roomId });
    await openConnection(db, { id: "c2", userId: "u2", roomId });
    expect(await countActiveConnections(db, roomId)).toBe(2);
    await closeConnection(db, "c1");
    expect(await findConnection(db, "c1")).toMatchObject({ isActive: false, disconnectedAt: expect.any(Date) });
    expect(await countActiveConnections(db, roomId)).toBe(1);
    await closeRoomConnections(db, roomId);
    expect(await countActiveConnections(db, roomId)).toBe(0);
  });
});
