import { Hono } from "hono";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { LeaderboardQuerySchema } from "../../../core/rewards";
import { parseWith } from "../../errors";
import { claimDailyBonus, leaderboard, rewardsFor } from "../../rewards";

export const rewardsApi = new Hono<AppBindings>()
  .get("/rewards", async (c) => c.json(await rewardsFor(c.var.db, requireUser(c).id)))
  .get("/leaderboard", async (c) => c.json(await leaderboard(c.var.db, c.var.user, parseWith(LeaderboardQuerySchema, c.req.query()))))
  .post("/rewards/daily", async (c) => c.json(await claimDailyBonus(c.var.db, requireUser(c).id), 201));
