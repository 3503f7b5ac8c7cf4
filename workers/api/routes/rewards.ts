import { Hono } from "hono";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { LeaderboardQuerySchema } from "../../../core/rewards";
import { parseWith } from "../../errors";
import { claimDailyBonus, leaderboard, rewardsFor, settleAchievements } from "../../rewards";
import { localizeRewards } from "../../rewards/localize";

export const rewardsApi = new Hono<AppBindings>()
  .get("/rewards", async (c) => {
    const user = requireUser(c);
    // Rewards of achievements unlocked since the last look are granted before the answer shows them.
    await settleAchievements(c.env, c.var.db, user);
    return c.json(await localizeRewards(await rewardsFor(c.var.db, user.id), user.language, c.req.header("accept-language")));
  })
  .get("/leaderboard", async (c) => c.json(await leaderboard(c.var.db, c.var.user, parseWith(LeaderboardQuerySchema, c.req.query()))))
  .post("/rewards/daily", async (c) => {
    const user = requireUser(c);
    const claimed = await claimDailyBonus(c.var.db, user.id);
    await settleAchievements(c.env, c.var.db, user);
    return c.json(claimed, 201);
  });
