// /api/team: Enterprise teams (docs/decisions/067-enterprise-teams.md). Thin: who asks, the input, one domain call.
import { Hono } from "hono";
import { CreateInviteSchema, CreateTeamSchema, JoinTeamSchema, SetRoleSchema, TeamSettingsSchema } from "../../../core/team-schemas";
import { requireUser, requireVerified } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import {
  changeRole,
  changeSettings,
  createInvite,
  createTeam,
  joinTeam,
  leaveTeam,
  removeFromTeam,
  teamFor,
  withdrawInvite,
} from "../../teams";

export const teamsApi = new Hono<AppBindings>()
  .get("/", async (c) => c.json(await teamFor(c.var.db, requireUser(c))))
  .post("/", async (c) => {
    const user = requireVerified(c);
    const body = await parseJson(c, CreateTeamSchema);
    return c.json(await createTeam(c.var.db, user, body), 201);
  })
  .patch("/", async (c) => {
    const user = requireVerified(c);
    return c.json(await changeSettings(c.env, c.var.db, user, await parseJson(c, TeamSettingsSchema)));
  })
  .post("/invites", async (c) => {
    const user = requireVerified(c);
    const body = await parseJson(c, CreateInviteSchema);
    return c.json(await createInvite(c.env, c.var.db, user, body), 201);
  })
  .delete("/invites/:id", async (c) => {
    await withdrawInvite(c.var.db, requireVerified(c), c.req.param("id"));
    return c.body(null, 204);
  })
  .post("/join", async (c) => {
    const user = requireUser(c);
    const { code } = await parseJson(c, JoinTeamSchema);
    return c.json(await joinTeam(c.env, c.var.db, user, code));
  })
  .post("/leave", async (c) => c.json(await leaveTeam(c.env, c.var.db, requireVerified(c))))
  .post("/members/:userId/remove", async (c) => c.json(await removeFromTeam(c.env, c.var.db, requireVerified(c), c.req.param("userId"))))
  .post("/members/:userId/role", async (c) => {
    const user = requireVerified(c);
    const { role } = await parseJson(c, SetRoleSchema);
    return c.json(await changeRole(c.var.db, user, c.req.param("userId"), role));
  });
