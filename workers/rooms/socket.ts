// WebSocket upgrades for rooms: the Worker authenticates from the session cookie, then hands the socket to
// the room's Durable Object with the user id it proved.
import { Hono } from "hono";
import { loadSession } from "../auth/session";
import type { AppBindings } from "../env";
import { ApiError, notFound, onError } from "../errors";

export const rooms = new Hono<AppBindings>().use(loadSession).get("/:id", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new ApiError(426, "Expected a WebSocket upgrade");
  const user = c.var.user;
  if (!user) throw new ApiError(401, "Sign in required");
  const roomId = c.req.param("id");
  const stub = c.env.ROOMS.get(c.env.ROOMS.idFromName(roomId));
  const url = new URL(c.req.url);
  url.searchParams.set("room", roomId);
  url.searchParams.set("user", user.id);
  url.searchParams.set("nickname", user.nickname);
  return stub.fetch(new Request(url, c.req.raw));
});
rooms.onError(onError);
rooms.notFound(notFound);
