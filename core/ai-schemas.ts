// zod schemas of the assistant's APIs (docs/product/assistant.md) and the shapes they answer.
import { z } from "zod";
import { LANGUAGES, type LanguageCode, resolveLanguage } from "./ai-command";

const language = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .transform((value, ctx): LanguageCode => {
    const code = resolveLanguage(value);
    if (!code) {
      ctx.addIssue({ code: "custom", message: `Language must be one of ${Object.values(LANGUAGES).join(", ")}` });
      return z.NEVER;
    }
    return code;
  });

const historyItem = z.union([
  z.string().max(2000),
  z.object({ content: z.string().max(2000).optional(), text: z.string().max(2000).optional(), isAI: z.boolean().optional() }).passthrough(),
]);

/** POST /api/ai/chat: the text after '@ai ' and the chat's context (docs/product/assistant.md). */
export const AiChatRequestSchema = z.object({
  message: z.string().trim().min(1, "Message required").max(2000),
  userId: z.string().max(100).optional(),
  context: z
    .object({
      messageHistory: z.array(historyItem).max(5).optional(),
      userLocation: z.string().max(100).optional(),
      meshStatus: z.string().max(40).optional(),
    })
    .optional(),
});
export type AiChatRequest = z.infer<typeof AiChatRequestSchema>;

export const TranslateRequestSchema = z.object({
  text: z.string().trim().min(1, "Text required - Please enter text to translate").max(2000),
  targetLanguage: language,
  sourceLanguage: language.optional(),
});

export const SmartRepliesRequestSchema = z.object({
  message: z.string().trim().min(1, "Message required - Please enter a message to generate smart replies").max(2000),
  context: z.union([z.string().max(2000), z.array(z.string().max(2000)).max(5)]).optional(),
});

/**
 * Translation result (docs/product/assistant.md). No confidence figure: the assistant's accuracy was never measured, and a
 * constant would read as one (docs/decisions/060-every-claim-true.md).
 */
export const TranslationSchema = z.object({
  originalText: z.string(),
  translatedText: z.string(),
  sourceLanguage: z.string(),
  targetLanguage: z.string(),
});
export type Translation = z.infer<typeof TranslationSchema>;

export const SmartReplySchema = z.object({ id: z.string(), text: z.string() });
export type SmartReply = z.infer<typeof SmartReplySchema>;
export const SmartRepliesResponseSchema = z.array(SmartReplySchema);

export const SUPPORT_CATEGORIES = [
  "greeting",
  "pricing",
  "technical",
  "features",
  "business",
  "emergency",
  "comparison",
  "followup",
  "error",
] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

export const SupportQueryRequestSchema = z.object({
  message: z.string().trim().min(1, "Message required").max(2000),
  userPhone: z.string().trim().max(30).optional(),
});

export const SupportAnswerSchema = z.object({
  response: z.string(),
  category: z.enum(SUPPORT_CATEGORIES),
  escalateToHuman: z.boolean(),
  followUpRequired: z.boolean(),
  ticketId: z.string().optional(),
});
export type SupportAnswer = z.infer<typeof SupportAnswerSchema>;

export const SupportFollowupRequestSchema = z.object({
  originalQuery: z.string().trim().min(1).max(2000),
  response: z.string().max(4000).default(""),
  userPhone: z.string().trim().max(30).optional(),
});

/** A sales enquiry from /contact-sales: it becomes a call-back ticket staff see (docs/decisions/060-every-claim-true.md). */
export const SalesEnquirySchema = z.object({
  phone: z.string().trim().min(1, "Phone number required").max(30),
  message: z.string().trim().min(1, "Tell us what your organisation needs").max(2000),
});

/** The 402 body of an over-limit or premium-keyword request. */
export const UpgradeOfferSchema = z.object({
  error: z.string(),
  code: z.enum(["limit_reached", "premium_feature"]),
  upgrade: z.object({ plan: z.literal("premium"), trialDays: z.number() }),
});
export type UpgradeOffer = z.infer<typeof UpgradeOfferSchema>;

export const AiChatResponseSchema = z.object({ message: z.string(), source: z.enum(["online", "offline"]).optional() });

export const VoiceMessageResponseSchema = z.object({
  id: z.string(),
  transcript: z.string(),
  source: z.enum(["online", "offline"]),
  usedThisMonth: z.number(),
  monthlyLimit: z.number().nullable(),
});
export type VoiceMessageResponse = z.infer<typeof VoiceMessageResponseSchema>;
