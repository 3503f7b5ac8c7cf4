// Room API (DESIGN.md §5): the user's rooms, the area room, private groups, direct chats, members, and the
// device public keys that end-to-end encryption needs.
import { Hono } from "hono";
import { CreateGroupSchema, DeviceIdSchema, OpenDmSchema, PublishKeySchema, RoomIdSchema } from "../../../core/rooms";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { ApiError, parseJson } from "../../errors";
import { deviceKeysOf, publishDeviceKey, revokeDeviceKey } from "../../rooms/device-keys";
import { createGroup, joinNearby, membersOf, openDm, roomStats, roomsFor } from "../../rooms/rooms";

export const roomsApi = new Hono<AppBindings>()
  .get("/rooms", async (c) => c.json(await roomsFor(c.var.db, requireUser(c))))
  .post("/rooms/nearby/join", async (c) => c.json({ room: await joinNearby(c.var.db, requireUser(c)) }))
  .post("/rooms/groups", async (c) => {
    const user = requireUser(c);
    const input = await parseJson(c, CreateGroupSchema);
    return c.json({ room: await createGroup(c.var.db, user, input) }, 201);
  })
  .post("/rooms/dm", async (c) => {
    const user = requireUser(c);
    const { userId } = await parseJson(c, OpenDmSchema);
    const { room, created } = await openDm(c.var.db, user, userId);
    return c.json({ room }, created ? 201 : 200);
  })
  .get("/rooms/:id/members", async (c) => {
    const user = requireUser(c);
    const parsed = RoomIdSchema.safeParse(c.req.param("id"));
    if (!parsed.success) throw new ApiError(404, "Room not found");
    return c.json({ members: await membersOf(c.var.db, user, parsed.data) });
  })
  .get("/rooms/:id/stats", async (c) => {
    const user = requireUser(c);
    const parsed = RoomIdSchema.safeParse(c.req.param("id"));
    if (!parsed.success) throw new ApiError(404, "Room not found");
    return c.json(await roomStats(c.env, c.var.db, user, parsed.data));
  })
  .put("/keys", async (c) => {
    const user = requireUser(c);
    const key = await parseJson(c, PublishKeySchema);
    await publishDeviceKey(c.var.db, user.id, key);
    return c.json({ ok: true, userId: user.id, deviceId: key.deviceId });
  })
  .get("/keys/:userId", async (c) => {
    requireUser(c);
    const userId = c.req.param("userId");
    return c.json({ userId, keys: await deviceKeysOf(c.var.db, userId) });
  })
  // Sign-out: this device's key is withdrawn, so no one seals messages or sender keys to it any more.
  .delete("/keys/:deviceId", async (c) => {
    const user = requireUser(c);
    const deviceId = DeviceIdSchema.safeParse(c.req.param("deviceId"));
    if (!deviceId.success) throw new ApiError(404, "Device not found");
    await revokeDeviceKey(c.var.db, user.id, deviceId.data);
    return c.json({ ok: true });
  });
