// WebSocket upgrades for rooms: the Worker authenticates from the session cookie (401 otherwise), checks
// that the user may enter the room (403 for non-members of groups and direct chats), then hands the socket
// to the room's Durable Object with the user id it proved (or to the shard of a busy area its main room names).
import { Hono } from "hono";
import { RoomIdSchema } from "../../core/rooms";
import { checkSocketOrigin, loadSession } from "../auth/session";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";
import { DomainError } from "../../core/domain-error";
import { requireRoomAccess, shownName } from "./rooms";
import { roomStub } from "./stub";
import { currentRequestId, REQUEST_ID_HEADER } from "../logs";
import { shardObjectName } from "../../core/room-ids";
import { SHARD_COUNT_HEADER, SHARD_HEADER } from "../../durable-objects/shards";

export const rooms = new Hono<AppBindings>().use(loadSession).get("/:id", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new DomainError("websocket_expected", "Expected a WebSocket upgrade");
  checkSocketOrigin(c);
  const user = c.var.user;
  if (!user) throw new DomainError("sign_in_required", "Sign in required");
  const parsed = RoomIdSchema.safeParse(c.req.param("id"));
  if (!parsed.success) throw new DomainError("room_not_found", "Room not found");
  const roomId = parsed.data;
  const { requester } = await requireRoomAccess(c.var.db, user, roomId);
  const stub = roomStub(c.env, roomId);
  const url = new URL(c.req.url);
  url.search = "";
  url.searchParams.set("room", roomId);
  url.searchParams.set("user", user.id);
  url.searchParams.set("nickname", shownName(user, roomId));
  // A direct chat waiting for consent tells its room who asked (docs/decisions/050-consent-before-a-stranger-reaches-you.md).
  if (requester) url.searchParams.set("request", requester);
  // The room logs the socket's frames under this request's id (workers/rooms/mesh-room.ts).
  const upgrade = (target: URL) => {
    const req = new Request(target, c.req.raw);
    req.headers.set(REQUEST_ID_HEADER, currentRequestId() ?? "");
    return req;
  };
  const answer = await stub.fetch(upgrade(url));
  // A busy area's main room names one of its shards instead (docs/decisions/043-room-speed-and-shards.md): one
  // more Durable Object call, no D1 query.
  const shard = Number(answer.headers.get(SHARD_HEADER) ?? 0);
  if (answer.status === 101 || !(shard > 0)) return answer;
  url.searchParams.set("shard", String(shard));
  url.searchParams.set("shards", answer.headers.get(SHARD_COUNT_HEADER) ?? "");
  return roomStub(c.env, shardObjectName(roomId, shard)).fetch(upgrade(url));
});
rooms.onError(onError);
rooms.notFound(notFound);
