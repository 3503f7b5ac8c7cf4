// The assistant's Premium refusals (402), in a module of their own: the server sends them with their codes, and
// screens show the codes' catalog messages (docs/decisions/075-errors-as-codes.md) without the '@ai' grammar.
import { TIER_LIMITS, TRIAL_DAYS } from "./constants";

export const AI_LIMIT_MESSAGES = {
  aiCommands: `You've used your ${TIER_LIMITS.free.aiCommands} free AI commands for today. Upgrade to Premium for unlimited AI commands — try it free for ${TRIAL_DAYS} days.`,
  translations: `You've used your ${TIER_LIMITS.free.translations} free translations for today. Upgrade to Premium for unlimited translation — try it free for ${TRIAL_DAYS} days.`,
} as const;

export const VOICE_PREMIUM_MESSAGE =
  "Voice messages are a Premium feature. Upgrade to Premium for 50 voice messages a month — try it free for 7 days.";
