// Rules and texts of identity: phone verification and onboarding (docs/product/identity.md). No zod here, so the
// screens that import it stay small; the request schemas are in identity-schemas.ts.

export const VERIFICATION_CHANNELS = ["whatsapp", "sms"] as const;
export type VerificationChannel = (typeof VERIFICATION_CHANNELS)[number];

/** Code rules (docs/product/identity.md and issue 3). */
export const VERIFICATION = {
  codeLength: 6,
  ttlMs: 10 * 60 * 1000,
  maxAttempts: 5,
  resendAfterMs: 60 * 1000,
  maxCodesPerPhonePerHour: 5,
  maxCodesPerIpPerHour: 30,
} as const;

/** The product's wording (docs/product/identity.md), used by the API and the screens alike. */
export const IDENTITY_TEXT = {
  codeFormat: "Please enter a 6-digit verification code",
  invalidCode: "Invalid verification code. Please try again.",
  sendFailed: "Failed to send verification code. Please try again.",
  messagingUnavailable: "Phone verification is not available right now: this server cannot send WhatsApp or SMS messages yet.",
  phoneRequiredTitle: "Phone Required",
  phoneRequired: "Please enter your phone number to continue",
  // The prototype had no format check; this is the one message for a number we cannot message.
  phoneInvalid: "Please enter a valid phone number",
  nicknameRequiredTitle: "Nickname Required",
  nicknameRequired: "Please enter a nickname for your profile",
  welcome: "Welcome to LinkUp",
} as const;

/** Digits only, at most 6 (docs/product/identity.md): what the code input keeps of what is typed. */
export function cleanCode(input: string): string {
  return input.replace(/\D/g, "").slice(0, VERIFICATION.codeLength);
}

export function isSixDigitCode(input: string): boolean {
  return /^\d{6}$/.test(input);
}

/** Interests offered in the onboarding profile step. */
export const INTERESTS = ["Farming", "Trading", "Education", "Health", "Family", "Faith", "Sports", "Music", "Technology", "Business"];

/** The answer of a sent code: when it expires and when a new one may be asked for. */
export interface PendingVerification {
  phone: string;
  channel: VerificationChannel;
  expiresAt: string;
  resendAt: string;
}

/** 'User ' plus the last 4 characters of the phone as entered: the chat join form's nickname rule. */
export function nicknameFromPhone(phone: string): string {
  return `User ${phone.trim().slice(-4)}`;
}
