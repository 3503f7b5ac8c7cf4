// Shared by the assistant's entry points: the online provider choice, the timeout and the 402 offer.
import { AI_LIMIT_MESSAGES } from "../../core/ai-command";
import type { ApiErrorCode, ErrorValues } from "../../core/api-errors";
import { TRIAL_DAYS } from "../../core/constants";
import { type AppEnv, servicesStatus } from "../env";
import type { AssistantProvider } from "./provider";
import type { Counter } from "./usage";
import { type AiRunner, workersAiProvider } from "./workers-ai";

/** A few seconds, then the offline assistant answers instead (docs/architecture.md §6). */
export { AI_TIMEOUT_MS } from "../../core/assistant-models";

export type AiMode = "auto" | "offline";

/** A 402 that offers Premium: the refusal's own code (core/api-errors.ts), and `offer` says which kind of offer. */
export interface UpgradeBody {
  error: string;
  code: ApiErrorCode;
  values?: ErrorValues;
  offer: "limit_reached" | "premium_feature";
  upgrade: { plan: "premium"; trialDays: number };
}
export type Refusal = { ok: false; status: 402; body: UpgradeBody };
/** `counted`: whether this answer used the day's allowance (help and 'needs the online assistant' do not). */
export type AiCommandResult = { ok: true; message: string; source: "online" | "offline"; counted?: boolean } | Refusal;

export function upgradeOffer(offer: UpgradeBody["offer"], code: ApiErrorCode, error: string, values?: ErrorValues): Refusal {
  return {
    ok: false,
    status: 402,
    body: { error, code, ...(values ? { values } : {}), offer, upgrade: { plan: "premium", trialDays: TRIAL_DAYS } },
  };
}

export const LIMIT_MESSAGES: Record<Counter, string> = AI_LIMIT_MESSAGES;
export const LIMIT_CODES: Record<Counter, ApiErrorCode> = { aiCommands: "ai_commands_limit", translations: "translations_limit" };

export function premiumKeywordMessage(keyword: string): string {
  const name = keyword.charAt(0).toUpperCase() + keyword.slice(1);
  return `${name} is a Premium feature. Upgrade to Premium to unlock it — try it free for ${TRIAL_DAYS} days.`;
}

/** The online provider when Workers AI is usable (never in local dev), else null. */
export function onlineProvider(env: AppEnv, mode: AiMode = "auto"): AssistantProvider | null {
  if (mode === "offline" || !servicesStatus(env).workersAi) return null;
  return workersAiProvider(env.AI as unknown as AiRunner);
}
