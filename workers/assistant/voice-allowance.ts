// A voice message's size and type limits and the month's allowance (docs/product/plans-and-limits.md): read by the
// upload limits (workers/body.ts) and file uploads on every request, so they import nothing of the assistant itself
// (docs/decisions/070-light-enough-for-2g.md). workers/assistant/voice.ts re-exports them.
import { VOICE_PREMIUM_MESSAGE } from "../../core/ai-command";
import { TIER_LIMITS } from "../../core/constants";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { type Refusal, upgradeOffer } from "./common";
import { takeVoiceMessageOfMonth, voiceMessagesThisMonth } from "./usage";

export const VOICE_MAX_BYTES = 5 * 1024 * 1024;
export const VOICE_MIME = /^audio\/(webm|ogg|mp4|mpeg|wav|x-wav|aac|m4a)(;.*)?$/;

export { VOICE_PREMIUM_MESSAGE };
export const VOICE_LIMIT_MESSAGE = `You've used your ${TIER_LIMITS.premium.voiceMessages} voice messages for this month. They renew on the 1st.`;

/** The refusal a user gets before recording, or null when they may send a voice message now. */
export async function voiceAllowed(db: Db, user: User, now = new Date()): Promise<Refusal | null> {
  const limit = TIER_LIMITS[user.subscriptionTier].voiceMessages;
  if (limit === 0) return upgradeOffer("premium_feature", "voice_premium", VOICE_PREMIUM_MESSAGE);
  if (limit !== null && (await voiceMessagesThisMonth(db, user.id, now)) >= limit)
    return upgradeOffer("limit_reached", "voice_month_full", VOICE_LIMIT_MESSAGE, { limit: TIER_LIMITS.premium.voiceMessages ?? 0 });
  return null;
}

/**
 * Takes one of the month's voice messages in one conditional write, or answers the refusal: parallel recordings
 * never pass the month's limit (docs/decisions/047-limits-taken-atomically.md).
 */
export async function takeVoiceAllowance(db: Db, user: User, now = new Date()): Promise<Refusal | null> {
  const limit = TIER_LIMITS[user.subscriptionTier].voiceMessages;
  if (limit === 0) return upgradeOffer("premium_feature", "voice_premium", VOICE_PREMIUM_MESSAGE);
  if (await takeVoiceMessageOfMonth(db, user.id, limit, now)) return null;
  return upgradeOffer("limit_reached", "voice_month_full", VOICE_LIMIT_MESSAGE, { limit: TIER_LIMITS.premium.voiceMessages ?? 0 });
}
