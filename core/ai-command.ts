// The '@ai ' grammar (spec part 1 §5, DESIGN.md §6), shared by web chat, WhatsApp and USSD:
//   @ai translate <text> to <language>   @ai market [commodity] [place]   @ai weather [place]
//   @ai emergency <situation>            @ai help                         @ai <any question>

/** The prefix, with its trailing space: '@ai' alone or '@aimee' is an ordinary message. */
export const AI_PREFIX = "@ai ";

/** The seven translation languages of the spec, by ISO 639-1 code. */
export const LANGUAGES = {
  en: "English",
  ha: "Hausa",
  ig: "Igbo",
  yo: "Yoruba",
  sw: "Swahili",
  fr: "French",
  ar: "Arabic",
} as const;
export type LanguageCode = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as LanguageCode[];

// Names people type for the languages, beyond the English name and the code.
const LANGUAGE_ALIASES: Record<string, LanguageCode> = {
  kiswahili: "sw",
  francais: "fr",
  français: "fr",
  arabi: "ar",
  العربية: "ar",
  yorùbá: "yo",
  yoruba: "yo",
  hausa: "ha",
  igbo: "ig",
};

/** A language by English name or ISO code, in any case ('Hausa', 'HA', 'hausa'); null when not offered. */
export function resolveLanguage(input: string | undefined | null): LanguageCode | null {
  if (!input) return null;
  const key = input.trim().toLowerCase();
  if (key in LANGUAGES) return key as LanguageCode;
  for (const [code, name] of Object.entries(LANGUAGES)) if (name.toLowerCase() === key) return code as LanguageCode;
  return LANGUAGE_ALIASES[key] ?? null;
}

export type AiCommand =
  | { kind: "translate"; text: string; target: LanguageCode }
  | { kind: "translate-usage"; reason: "missing-target" | "unknown-language" | "missing-text"; language?: string }
  | { kind: "market"; query: string }
  | { kind: "weather"; place: string }
  | { kind: "emergency"; situation: string }
  | { kind: "help" }
  | { kind: "question"; question: string }
  | { kind: "empty" };

/** The text after '@ai ' when a chat message is an assistant command, else null. */
export function extractAiText(message: string): string | null {
  const trimmed = message.trimStart();
  if (trimmed.slice(0, AI_PREFIX.length).toLowerCase() !== AI_PREFIX) return null;
  return trimmed.slice(AI_PREFIX.length).trim();
}

const TRAILING_PUNCTUATION = /[\s.!?]+$/;

/** Parses what follows '@ai ' into a command. Keywords are matched in any case; the rest keeps its case. */
export function parseAiCommand(input: string): AiCommand {
  const text = input.trim().replace(/\s+/g, " ");
  if (!text) return { kind: "empty" };
  const [first = "", ...restWords] = text.split(" ");
  const keyword = first.toLowerCase().replace(/[:,]$/, "");
  const rest = restWords.join(" ").trim();

  switch (keyword) {
    case "translate":
      return parseTranslate(rest);
    case "market":
    case "markets":
    case "price":
    case "prices":
      return { kind: "market", query: rest.replace(TRAILING_PUNCTUATION, "") };
    case "weather":
    case "forecast":
      return { kind: "weather", place: rest.replace(/^(in|for|at)\s+/i, "").replace(TRAILING_PUNCTUATION, "") };
    case "emergency":
    case "sos":
      return { kind: "emergency", situation: rest };
    case "help":
      if (!rest || rest === "?") return { kind: "help" };
      return { kind: "question", question: text };
    default:
      return { kind: "question", question: text };
  }
}

function parseTranslate(rest: string): AiCommand {
  const body = rest.replace(TRAILING_PUNCTUATION, "");
  // The last ' to ' / ' into ' splits text from language, so 'translate go to school to hausa' works.
  const match = /^(.*)\s+(?:to|into|in)\s+([^\s]+)$/i.exec(body);
  if (!match) {
    if (!body) return { kind: "translate-usage", reason: "missing-text" };
    return { kind: "translate-usage", reason: "missing-target" };
  }
  const phrase = match[1]
    .trim()
    .replace(/^["'“‘](.*)["'”’]$/, "$1")
    .trim();
  const target = resolveLanguage(match[2]);
  if (!target) return { kind: "translate-usage", reason: "unknown-language", language: match[2] };
  if (!phrase) return { kind: "translate-usage", reason: "missing-text" };
  return { kind: "translate", text: phrase, target };
}

/** Free-tier messages with one of these get the premium offer instead of an answer (spec part 1 §5). */
export const PREMIUM_KEYWORDS = [
  "advanced analytics",
  "unlimited messages",
  "extended range",
  "24/7 support",
  "voice message",
  "priority access",
  "military-grade",
  "bulk translate",
  "emergency broadcast",
  "premium feature",
] as const;

/** The first premium keyword in a message (any case), or null. */
export function findPremiumKeyword(message: string): (typeof PREMIUM_KEYWORDS)[number] | null {
  const lower = message.toLowerCase();
  return PREMIUM_KEYWORDS.find((k) => lower.includes(k)) ?? null;
}

/** Sample prompts, shown by the help answer and by the chat's 'LIA Assistant' fallback. */
export const AI_SAMPLE_PROMPTS = [
  "@ai translate good morning to hausa",
  "@ai market rice lagos",
  "@ai weather kano",
  "@ai emergency someone fainted",
  "@ai how do I send an SOS?",
] as const;

/** What a free user sees for voice messages (spec part 1 §5: premium 50 a month, free none). */
export const VOICE_PREMIUM_MESSAGE =
  "Voice messages are a Premium feature. Upgrade to Premium for 50 voice messages a month — try it free for 7 days.";
