// Calls API (docs/decisions/024-calls-through-the-room.md): the ICE servers a verified person's browser calls with.
// Signalling itself travels through the direct chat's room socket.
import { Hono } from "hono";
import { requireVerified } from "../../auth/session";
import type { AppBindings } from "../../env";
import { DomainError } from "../../../core/domain-error";
import { iceServersFor, TurnUnavailable } from "../../services/turn";

export const callsApi = new Hono<AppBindings>().get("/calls/ice-servers", async (c) => {
  requireVerified(c);
  try {
    const answer = await iceServersFor(c.env);
    // Credentials: never kept by a cache.
    c.header("cache-control", "no-store");
    return c.json(answer);
  } catch (err) {
    if (!(err instanceof TurnUnavailable)) throw err;
    console.error("calls: TURN", err.message);
    throw new DomainError("call_relay_unavailable", "Call relay credentials are unavailable right now. Try again in a moment.");
  }
});
