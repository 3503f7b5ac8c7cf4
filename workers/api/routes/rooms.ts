// Room API (docs/architecture.md §5): the user's rooms, the area room, private groups, direct chats, members, and the
// device public keys that end-to-end encryption needs.
import { Hono } from "hono";
import {
  BlockSchema,
  CreateGroupSchema,
  DeviceIdSchema,
  InviteSchema,
  OpenDmSchema,
  PublishKeySchema,
  PublishPrekeysSchema,
  RoomIdSchema,
} from "../../../core/rooms";
import { SetDisappearingSchema } from "../../../core/disappearing";
import { requireUser } from "../../auth/session";
import { ReportSchema } from "../../../core/admin-schemas";
import { fileReport, TOO_MANY_REPORTS } from "../../admin/reports";
import { clientAddress } from "../../limits";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { DeviceListSchema } from "../../../core/device-list";
import { deviceListOf, publishDeviceList } from "../../rooms/device-lists";
import { DomainError } from "../../../core/domain-error";
import {
  acceptInvitation,
  blockedBy,
  blockPerson,
  declineInvitation,
  invitationsFor,
  inviteToGroup,
  leaveGroup,
  removeFromGroup,
  unblockPerson,
} from "../../rooms/membership";
import {
  deviceKeysOf,
  prekeyBundles,
  prekeysOfOwnDevice,
  publishDeviceKey,
  publishPrekeys,
  revokeDeviceKey,
} from "../../rooms/device-keys";
import { communityFor, joinAreaRoom } from "../../rooms/community";
import { acceptRequest, declineDirectRequest } from "../../rooms/requests";
import { applyDefaultTimer, disappearingOf, setDisappearing } from "../../rooms/disappearing";
import { GroupEpochSchema } from "../../../core/group-epochs";
import { groupEpochsOf, publishGroupEpoch } from "../../rooms/group-epochs";
import { createGroup, joinNearby, membersOf, openDm, roomStats, roomsFor } from "../../rooms/rooms";

/** The room id of a path, or 404. */
function roomParam(id: string | undefined): string {
  const parsed = RoomIdSchema.safeParse(id);
  if (!parsed.success) throw new DomainError("room_not_found", "Room not found");
  return parsed.data;
}

/** A device id of a path, or 404. */
function deviceParam(id: string | undefined): string {
  const parsed = DeviceIdSchema.safeParse(id);
  if (!parsed.success) throw new DomainError("device_not_found", "Device not found");
  return parsed.data;
}

export const roomsApi = new Hono<AppBindings>()
  .get("/rooms", async (c) => {
    const user = requireUser(c);
    const read = c.var.sessionChatLists;
    return c.json(await roomsFor(c.var.db, user, read?.userId === user.id ? read.lists : undefined));
  })
  .post("/rooms/nearby/join", async (c) => c.json({ room: await joinNearby(c.var.db, requireUser(c)) }))
  // Visitors see the largest rooms too; the near ones need an area, which a session has.
  .get("/community", async (c) => c.json(await communityFor(c.var.db, c.var.user)))
  .post("/rooms/groups", async (c) => {
    const user = requireUser(c);
    const input = await parseJson(c, CreateGroupSchema);
    const room = await createGroup(c.var.db, user, input);
    await applyDefaultTimer(c.env, user, room.id);
    return c.json({ room }, 201);
  })
  .post("/rooms/dm", async (c) => {
    const user = requireUser(c);
    const { userId } = await parseJson(c, OpenDmSchema);
    const { room, created } = await openDm(c.env, c.var.db, user, userId);
    if (created) await applyDefaultTimer(c.env, user, room.id);
    return c.json({ room }, created ? 201 : 200);
  })
  // Message requests (docs/decisions/050-consent-before-a-stranger-reaches-you.md): only the person asked answers.
  .post("/rooms/requests/:id/accept", async (c) => {
    const user = requireUser(c);
    return c.json({ room: await acceptRequest(c.env, c.var.db, user, roomParam(c.req.param("id"))) });
  })
  .post("/rooms/requests/:id/decline", async (c) => {
    const user = requireUser(c);
    await declineDirectRequest(c.env, c.var.db, user, roomParam(c.req.param("id")));
    return c.json({ ok: true });
  })
  .get("/rooms/invitations", async (c) => c.json({ invitations: await invitationsFor(c.var.db, requireUser(c)) }))
  .post("/rooms/invitations/:id/accept", async (c) => {
    const user = requireUser(c);
    return c.json({ room: await acceptInvitation(c.var.db, user, roomParam(c.req.param("id"))) });
  })
  .post("/rooms/invitations/:id/decline", async (c) => {
    const user = requireUser(c);
    await declineInvitation(c.var.db, user, roomParam(c.req.param("id")));
    return c.json({ ok: true });
  })
  .post("/rooms/:id/invitations", async (c) => {
    const user = requireUser(c);
    const roomId = roomParam(c.req.param("id"));
    const { userIds, signed } = await parseJson(c, InviteSchema);
    return c.json(await inviteToGroup(c.var.db, user, roomId, userIds, signed), 201);
  })
  .post("/rooms/:id/join", async (c) => {
    const user = requireUser(c);
    return c.json({ room: await joinAreaRoom(c.var.db, user, roomParam(c.req.param("id"))) });
  })
  .post("/rooms/:id/leave", async (c) => {
    const user = requireUser(c);
    await leaveGroup(c.env, c.var.db, user, roomParam(c.req.param("id")));
    return c.json({ ok: true });
  })
  .get("/blocks", async (c) => c.json({ blocked: await blockedBy(c.var.db, requireUser(c)) }))
  .post("/blocks", async (c) => {
    const user = requireUser(c);
    const { userId } = await parseJson(c, BlockSchema);
    return c.json({ blocked: await blockPerson(c.env, c.var.db, user, userId) }, 201);
  })
  // Report a person to the staff desk (docs/decisions/038-reports-and-device-bans.md).
  .post("/reports", async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, ReportSchema);
    const filed = await fileReport(c.env, c.var.db, user, body, clientAddress(c.env, c.req.header("cf-connecting-ip")));
    if (!filed.ok) {
      c.header("Retry-After", String(filed.retryAfterSeconds));
      throw new DomainError("too_many_reports", TOO_MANY_REPORTS, { retryAfterSeconds: filed.retryAfterSeconds });
    }
    return c.json({ report: { id: filed.id, status: filed.status } }, 201);
  })
  .delete("/blocks/:userId", async (c) => {
    const user = requireUser(c);
    await unblockPerson(c.var.db, user, c.req.param("userId"));
    return c.json({ ok: true });
  })
  .get("/rooms/:id/members", async (c) => {
    const user = requireUser(c);
    const parsed = RoomIdSchema.safeParse(c.req.param("id"));
    if (!parsed.success) throw new DomainError("room_not_found", "Room not found");
    return c.json({ members: await membersOf(c.var.db, user, parsed.data) });
  })
  // The group's owner removes a member (docs/decisions/073-group-epochs.md).
  .post("/rooms/:id/members/:userId/remove", async (c) => {
    const user = requireUser(c);
    await removeFromGroup(c.env, c.var.db, user, roomParam(c.req.param("id")), c.req.param("userId"));
    return c.json({ ok: true });
  })
  // A private group's signed membership statements (docs/protocol.md §6a): the server relays them.
  .get("/rooms/:id/epochs", async (c) => {
    const user = requireUser(c);
    const since = Number(c.req.query("since") ?? "1");
    if (!Number.isSafeInteger(since) || since < 1) throw new DomainError("membership_invalid", "Expected an epoch number");
    return c.json(await groupEpochsOf(c.var.db, user, roomParam(c.req.param("id")), since));
  })
  .put("/rooms/:id/epochs", async (c) => {
    const user = requireUser(c);
    const input = await parseJson(c, GroupEpochSchema);
    const published = await publishGroupEpoch(c.var.db, user, roomParam(c.req.param("id")), input);
    return c.json({ epoch: published.epoch }, published.stored ? 201 : 200);
  })
  .get("/rooms/:id/disappearing", async (c) => {
    const user = requireUser(c);
    return c.json(await disappearingOf(c.env, c.var.db, user, roomParam(c.req.param("id"))));
  })
  .put("/rooms/:id/disappearing", async (c) => {
    const user = requireUser(c);
    const roomId = roomParam(c.req.param("id"));
    const { timer } = await parseJson(c, SetDisappearingSchema);
    return c.json(await setDisappearing(c.env, c.var.db, user, roomId, timer));
  })
  .get("/rooms/:id/stats", async (c) => {
    const user = requireUser(c);
    const parsed = RoomIdSchema.safeParse(c.req.param("id"));
    if (!parsed.success) throw new DomainError("room_not_found", "Room not found");
    return c.json(await roomStats(c.env, c.var.db, user, parsed.data));
  })
  .put("/keys", async (c) => {
    const user = requireUser(c);
    const key = await parseJson(c, PublishKeySchema);
    await publishDeviceKey(c.var.db, user.id, key);
    return c.json({ ok: true, userId: user.id, deviceId: key.deviceId });
  })
  // The person's device list, signed by their account key (docs/protocol.md §2).
  .put("/keys/list", async (c) => {
    const user = requireUser(c);
    const input = await parseJson(c, DeviceListSchema);
    return c.json({ ok: true, ...(await publishDeviceList(c.var.db, user.id, input)) });
  })
  // X3DH (docs/protocol.md §4): each call hands out (and removes) one one-time prekey per device.
  .get("/keys/bundle/:userId", async (c) => {
    requireUser(c);
    const userId = c.req.param("userId");
    const device = c.req.query("device");
    const only = device === undefined ? undefined : DeviceIdSchema.safeParse(device);
    if (only && !only.success) throw new DomainError("device_id_expected", "Expected a device id");
    return c.json({ userId, devices: await prekeyBundles(c.var.db, userId, only?.data) });
  })
  .get("/keys/:deviceId/prekeys", async (c) => {
    const user = requireUser(c);
    return c.json(await prekeysOfOwnDevice(c.var.db, user.id, deviceParam(c.req.param("deviceId"))));
  })
  .put("/keys/:deviceId/prekeys", async (c) => {
    const user = requireUser(c);
    const deviceId = deviceParam(c.req.param("deviceId"));
    const input = await parseJson(c, PublishPrekeysSchema);
    return c.json(await publishPrekeys(c.var.db, user.id, deviceId, input));
  })
  .get("/keys/:userId", async (c) => {
    requireUser(c);
    const userId = c.req.param("userId");
    const [keys, list] = await Promise.all([deviceKeysOf(c.var.db, userId), deviceListOf(c.var.db, userId)]);
    return c.json({ userId, keys, list });
  })
  // Sign-out: this device's key is withdrawn, so no one seals messages or sender keys to it any more.
  .delete("/keys/:deviceId", async (c) => {
    const user = requireUser(c);
    const deviceId = DeviceIdSchema.safeParse(c.req.param("deviceId"));
    if (!deviceId.success) throw new DomainError("device_not_found", "Device not found");
    await revokeDeviceKey(c.var.db, user.id, deviceId.data);
    return c.json({ ok: true });
  });
