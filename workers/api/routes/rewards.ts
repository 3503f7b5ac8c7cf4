import { Hono } from "hono";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { claimDailyBonus, rewardsFor } from "../../rewards";

export const rewardsApi = new Hono<AppBindings>()
  .get("/rewards", async (c) => c.json(await rewardsFor(c.var.db, requireUser(c).id)))
  .post("/rewards/daily", async (c) => c.json(await claimDailyBonus(c.var.db, requireUser(c).id), 201));
