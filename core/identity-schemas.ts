// zod schemas and texts of identity: phone verification (spec part 2 §4–§5, §8) and the settings forms.
// Unknown fields are stripped; wrong types are refused with 400.
import { z } from "zod";

export const VERIFICATION_CHANNELS = ["whatsapp", "sms"] as const;
export type VerificationChannel = (typeof VERIFICATION_CHANNELS)[number];

/** Code rules (spec part 2 §5, §9 and issue 3). */
export const VERIFICATION = {
  codeLength: 6,
  ttlMs: 10 * 60 * 1000,
  maxAttempts: 5,
  resendAfterMs: 60 * 1000,
  maxCodesPerPhonePerHour: 5,
  maxCodesPerIpPerHour: 30,
} as const;

/** The spec's wording, used by the API and the screens alike. */
export const IDENTITY_TEXT = {
  codeFormat: "Please enter a 6-digit verification code",
  invalidCode: "Invalid verification code. Please try again.",
  sendFailed: "Failed to send verification code. Please try again.",
  phoneRequiredTitle: "Phone Required",
  phoneRequired: "Please enter your phone number to continue",
  nicknameRequiredTitle: "Nickname Required",
  nicknameRequired: "Please enter a nickname for your profile",
  welcome: "Welcome to LinkUp",
} as const;

/** POST /api/auth/register — the documented shape (spec part 2 §3) plus the channel. */
export const RegisterSchema = z.object({
  phoneNumber: z.string().max(40),
  nickname: z.string().trim().max(40).optional(),
  // Documented by the spec's API page; accepted and validated, not used by the web client.
  deviceToken: z.string().max(512).optional(),
  channel: z.enum(VERIFICATION_CHANNELS).default("whatsapp"),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

/** POST /api/auth/verify. The code is checked for its 6 digits by the domain, to answer with the spec's text. */
export const VerifySchema = z.object({
  phoneNumber: z.string().max(40),
  code: z.string().max(20),
});
export type VerifyInput = z.infer<typeof VerifySchema>;

/** Digits only, at most 6 (spec part 2 §5): what the code input keeps of what is typed. */
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
