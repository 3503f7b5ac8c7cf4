// Room API (DESIGN.md §5): the user's rooms, the area room, private groups, direct chats, members, and the
// device public keys that end-to-end encryption needs.
import { Hono } from "hono";
import { CreateGroupSchema, OpenDmSchema, PublishKeySchema, RoomIdSchema } from "../../../core/rooms";
import { findUsersByIds, listDeviceKeys, upsertDeviceKey } from "../../../db/queries/rooms";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { ApiError, parseJson } from "../../errors";
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
    await upsertDeviceKey(c.var.db, { userId: user.id, ...key });
    return c.json({ ok: true, userId: user.id, deviceId: key.deviceId });
  })
  .get("/keys/:userId", async (c) => {
    requireUser(c);
    const userId = c.req.param("userId");
    const [found] = await findUsersByIds(c.var.db, [userId]);
    if (!found) throw new ApiError(404, "User not found");
    const keys = await listDeviceKeys(c.var.db, userId);
    return c.json({ userId, keys: keys.map((k) => ({ deviceId: k.deviceId, publicKey: k.publicKey })) });
  });
