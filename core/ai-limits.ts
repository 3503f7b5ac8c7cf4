// The assistant's Premium refusals (402), in a module of their own: the server sends them and every screen maps them
// to the person's language (web/app/i18n/api-errors.ts), which must not pull the '@ai' grammar into the first load.
import { TIER_LIMITS, TRIAL_DAYS } from "./constants";

export const AI_LIMIT_MESSAGES = {
  aiCommands: `You've used your ${TIER_LIMITS.free.aiCommands} free AI commands for today. Upgrade to Premium for unlimited AI commands — try it free for ${TRIAL_DAYS} days.`,
  translations: `You've used your ${TIER_LIMITS.free.translations} free translations for today. Upgrade to Premium for unlimited translation — try it free for ${TRIAL_DAYS} days.`,
} as const;

export const VOICE_PREMIUM_MESSAGE =
  "Voice messages are a Premium feature. Upgrade to Premium for 50 voice messages a month — try it free for 7 days.";
