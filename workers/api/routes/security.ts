// The security centre's API (spec part 1 §founder story and security): sessions and devices.
// Thin: who is asking, parse, one domain call, the answer.
import { Hono } from "hono";
import { SessionRefSchema } from "../../../core/identity-schemas";
import { endSession, requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { ApiError, parseWith } from "../../errors";
import { endOtherSessions, endSessionByRef, sessionsOf } from "../../identity/sessions";

export const security = new Hono<AppBindings>()
  .get("/security/sessions", async (c) => {
    const user = requireUser(c);
    return c.json({ sessions: await sessionsOf(c.var.db, user.id, c.var.sessionHash) });
  })
  .delete("/security/sessions/:ref", async (c) => {
    const user = requireUser(c);
    const ref = parseWith(SessionRefSchema, c.req.param("ref"));
    const ended = await endSessionByRef(c.var.db, user.id, ref);
    if (!ended) throw new ApiError(404, "No such session");
    // Ending this browser's own session signs it out here as well.
    const current = ended === c.var.sessionHash;
    if (current) await endSession(c);
    return c.json({ ok: true, current });
  })
  .post("/security/sessions/sign-out-others", async (c) => {
    const user = requireUser(c);
    const ended = await endOtherSessions(c.var.db, user.id, c.var.sessionHash ?? "");
    return c.json({ ok: true, ended });
  });
