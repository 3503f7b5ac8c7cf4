// The Workers AI models the assistant runs (docs/decisions/005-assistant-models.md), shared so the
// /machine-learning page names exactly what the server calls.

/** One instruct model for chat, support, smart replies and the languages m2m100 does not cover. */
export const INSTRUCT_MODEL = "@cf/google/gemma-3-12b-it";
/** m2m100 is documented for ten languages; of ours it covers English, French and Arabic. */
export const TRANSLATION_MODEL = "@cf/meta/m2m100-1.2b";
export const SPEECH_MODEL = "@cf/openai/whisper-large-v3-turbo";
/** Every online call runs under this timeout, then the offline assistant answers. */
export const AI_TIMEOUT_MS = 5000;

/** Assistant use counted in usage_daily: answered commands, translations and voice messages. */
export interface AssistantUsageStats {
  allTime: { aiCommands: number; translations: number; voiceMessages: number };
  lastSevenDays: { aiCommands: number; translations: number; voiceMessages: number };
}
