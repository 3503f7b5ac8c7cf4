import type { Me } from "../../core/api-types";
import type { User } from "../../db/schema";

/** What `/api/me` says of a user: the client mirrors this and nothing else decides access. */
export function toMe(user: User): Me {
  return {
    id: user.id,
    nickname: user.nickname,
    phone: user.phone,
    authMode: user.authMode,
    role: user.role,
    tier: user.subscriptionTier,
    locationText: user.locationText,
    hasLocation: user.latitude !== null,
    interests: user.interests,
    onboardingCompleted: user.onboardingCompletedAt !== null,
    settings: {
      language: user.language,
      quietStart: user.quietStart,
      quietEnd: user.quietEnd,
      networkRange: user.networkRange,
      powerSaving: user.powerSaving,
      autoDelete: user.autoDelete,
      meshNetworking: user.meshNetworking,
      pushEnabled: user.pushEnabled,
      anonymousMode: user.anonymousMode,
      stealthMode: user.stealthMode,
    },
    createdAt: user.createdAt.toISOString(),
  };
}
