// Loader and action of /gamification: the ledger's figures and the daily bonus, through the rewards API.
import { data } from "react-router";
import type { RewardsAnswer } from "../../../../core/rewards";
import { apiGet, apiSend } from "../../lib/api.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export async function loadRewards(context: Ctx) {
  return { rewards: await apiGet<RewardsAnswer>(context, "/api/rewards") };
}

export async function claimBonus(context: Ctx) {
  const res = await apiSend<{ points: number; streak: number }>(context, "POST", "/api/rewards/daily");
  if (!res.ok) return data({ error: refusalOr(res.json, "error.somethingWrong"), claimed: null }, { status: res.status });
  return { error: null, claimed: res.json };
}
