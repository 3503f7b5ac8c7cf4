// The '@ai ' grammar (docs/product/assistant.md, docs/architecture.md §6), shared by web chat, WhatsApp and USSD:
//   @ai translate <text> to <language>   @ai market [commodity] [place]   @ai weather [place]
//   @ai emergency <situation>            @ai help                         @ai <any question>
// and the natural ways people ask for the same in English and Nigerian Pidgin (see `understand` below), and in
// Hausa, Yoruba, Igbo, French and Arabic (core/ai-languages.ts, `understandOther` below; issue 32).
import {
  COMMODITY_WORDS,
  FILLER_WORDS,
  foldText,
  GREETINGS,
  HELP_WORDS,
  PRICE_TERMS,
  SITUATION_WORDS,
  TOMORROW_TERMS,
  TRANSLATE_PATTERNS,
  typedLanguageName,
  WEATHER_TERMS,
} from "./ai-languages";

/** The prefix, with its trailing space: '@ai' alone or '@aimee' is an ordinary message. */
export const AI_PREFIX = "@ai ";

/**
 * The translation languages (docs/product/assistant.md): the product's seven by ISO 639-1 code, and Nigerian
 * Pidgin (ISO 639-3 "pcm"), a language LinkUp's screens speak, so its readers can translate to it as to the others (issue 32; docs/decisions/062).
 */
export const LANGUAGES = {
  en: "English",
  ha: "Hausa",
  ig: "Igbo",
  yo: "Yoruba",
  sw: "Swahili",
  fr: "French",
  ar: "Arabic",
  pcm: "Nigerian Pidgin",
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
  pidgin: "pcm",
  "pidgin english": "pcm",
  naija: "pcm",
};

/** A language by English name or ISO code, in any case ('Hausa', 'HA', 'hausa'); null when not offered. */
export function resolveLanguage(input: string | undefined | null): LanguageCode | null {
  if (!input) return null;
  const key = input.trim().toLowerCase();
  if (key in LANGUAGES) return key as LanguageCode;
  for (const [code, name] of Object.entries(LANGUAGES)) if (name.toLowerCase() === key) return code as LanguageCode;
  return LANGUAGE_ALIASES[key] ?? typedLanguageName(key);
}

export type AiCommand =
  | { kind: "translate"; text: string; target: LanguageCode }
  | { kind: "translate-usage"; reason: "missing-target" | "unknown-language" | "missing-text"; language?: string }
  | { kind: "market"; query: string }
  | { kind: "weather"; place: string; day?: "tomorrow" }
  | { kind: "emergency"; situation: string }
  | { kind: "help" }
  | { kind: "greeting" }
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
  const keyword = first.toLowerCase().replace(/[:,?!.]$/, "");
  const rest = restWords.join(" ").trim();

  switch (keyword) {
    case "translate":
      return parseTranslate(rest);
    case "market":
    case "markets":
    case "price":
    case "prices":
      return { kind: "market", query: marketQuery(rest) };
    case "weather":
    case "forecast":
      return weatherCommand(rest);
    case "emergency":
    case "sos":
      return { kind: "emergency", situation: rest };
    case "help":
      if (!rest || rest === "?") return { kind: "help" };
      break;
  }
  return understand(text) ?? understandOther(text) ?? { kind: "question", question: text };
}

// Natural wording (English and Nigerian Pidgin) for the commands, tried when no keyword starts the message.
// Order matters: a translation request may quote any words, and an emergency outranks weather and prices
// ('fire for market', 'flood after the rain').

const HELP_PHRASES =
  /^(help|help me|menu|commands?|options|what can you do|what (can|do) you (know|do)|what can i ask( you)?|how (do i|to|can i) use (you|this|lia|the assistant)|wetin (you|u) (fit|sabi|dey) (do|help with)?|wetin (you|u) sabi|abeg help|\?)$/;

// Pidgin: 'wetin' is what, 'dey' is -ing / is, 'for' is in or at, 'pikin' a child.
const SAY_PREFIX =
  /^(?:how (?:do|can|would|should) (?:i|you|we|one|people) say|how (?:to|i go|we go|dem dey|una dey|person go|you go|dem) (?:say|talk)|how (?:do|can) (?:i|you) (?:say|write|tell someone)|say|what(?:'s| is) the (?:word|phrase) for)\s+(.+?)\s+(?:in|for|into)\s+(\S+)$/i;
const WHAT_IS_IN = /^(?:what|wetin)(?:'s| is| be| na)?\s+(.+?)\s+(?:in|for)\s+(\S+)$/i;
const LANGUAGE_FOR = /^(\S+)\s+(?:word\s+)?for\s+(.+)$/i;
const MEANING =
  /^(?:what does|wetin|what is the meaning of|meaning of|what do(?:es)? .+? mean by)\s+(.+?)(?:\s+(?:mean|means|mean for english|mean in english))?$/i;

/** Strips quotes around a phrase: 'say "thank you" in hausa'. */
const unquote = (s: string) =>
  s
    .trim()
    .replace(/^["'“‘](.*)["'”’]$/, "$1")
    .trim();

function understandTranslate(text: string): AiCommand | null {
  const say = SAY_PREFIX.exec(text) ?? WHAT_IS_IN.exec(text);
  if (say) {
    const target = resolveLanguage(say[2]);
    if (target && unquote(say[1])) return { kind: "translate", text: unquote(say[1]), target };
  }
  const languageFor = LANGUAGE_FOR.exec(text);
  if (languageFor) {
    const target = resolveLanguage(languageFor[1]);
    if (target && unquote(languageFor[2])) return { kind: "translate", text: unquote(languageFor[2]), target };
  }
  if (/\bmean(s)?$/i.test(text) || /^(what is the )?meaning of\b/i.test(text)) {
    const meaning = MEANING.exec(text);
    if (meaning && unquote(meaning[1])) return { kind: "translate", text: unquote(meaning[1]), target: "en" };
  }
  return null;
}

/**
 * Words that describe an emergency in progress, in English and Pidgin: such a message gets the vetted
 * first-aid and SOS steps at once, whatever the rest of the sentence says.
 */
const SITUATION =
  /\b(bleed\w*|blood|faint\w*|unconscious|pass(ed)? out|collaps\w*|chok\w*|burn(s|t|ed|ing)?|scald\w*|fire|accident|crash(ed)?|knocked down|snake|bitten|seizure|convuls\w*|epilep\w*|poison\w*|overdose|swallow(ed)? (kerosene|bleach|poison|chemical|battery|medicine|drugs)|drown\w*|flood\w*|not breathing|no (dey )?breath\w*|stop(ped)? breathing|chest pain|heart attack|labou?r|dey born|stab(bed)?|gunshot|shot|wound(ed)?|injur\w*|electrocut\w*|first aid)\b/i;

const WEATHER_WORDS = /\b(weather|forecast|rain\w*|temperature|sunny|cloudy|harmattan|sun go shine)\b/i;
const DAY_WORDS = /\b(tomorrow|tmrw|tmr|tomorow|tumoro|tomoro|tomorrow morning|next day)\b/i;
const WEATHER_FILLER = new Set(
  "what what's whats wetin how hows how's is be the weather forecast will it go going to rain raining rainy rainfall fall temperature sunny cloudy harmattan sun shine hot cold like today tomorrow tmrw tmr tomorow tumoro tomoro tonight now morning afternoon evening next day for in at around of a e dey di na please pls abeg tell me check there here this my area side".split(
    " ",
  ),
);

function weatherCommand(rest: string): AiCommand {
  const tomorrow = DAY_WORDS.test(rest);
  const place = rest
    .replace(TRAILING_PUNCTUATION, "")
    .split(" ")
    .filter((w) => w && !WEATHER_FILLER.has(w.toLowerCase().replace(/[?,.!]/g, "")))
    .join(" ")
    .replace(/[?,.!]+$/, "");
  return tomorrow ? { kind: "weather", place, day: "tomorrow" } : { kind: "weather", place };
}

// Price wording; a question about LinkUp's own price is a question, answered from what LinkUp knows.
const PRICE_WORDS = /\b(price|prices|pricing|cost|costs|how much|hw much|market|sell(ing)?|buy(ing)?)\b/i;
const ABOUT_LINKUP = /\b(premium|subscription|plan|linkup|upgrade|trial|enterprise|lia|app|data|sms|voice)\b/i;
const MARKET_FILLER = new Set(
  "what what's whats wetin how is are be na dey the a an of for in at price prices pricing cost costs much market markets bag bags basket baskets tuber tubers current currently today now this week please pls abeg tell me i want to know check sell selling sold buy buying una dem them e di rate per does do go and how's".split(
    " ",
  ),
);

/** The words of a price request that name things and places: 'what is the price of rice in kano' → 'rice kano'. */
export function marketQuery(rest: string): string {
  return rest
    .replace(TRAILING_PUNCTUATION, "")
    .split(" ")
    .map((w) => w.replace(/[?,!]/g, ""))
    .filter((w) => w && !MARKET_FILLER.has(w.toLowerCase()))
    .join(" ");
}

function understand(text: string): AiCommand | null {
  const bare = text.replace(TRAILING_PUNCTUATION, "");
  const lower = bare
    .toLowerCase()
    .replace(/^(please|pls|abeg|lia)[,\s]+/, "")
    .trim();
  if (HELP_PHRASES.test(lower)) return { kind: "help" };
  const cleaned = bare.replace(/^(please|pls|abeg|lia)[,\s]+/i, "");
  const translation = understandTranslate(cleaned);
  if (translation) return translation;
  if (SITUATION.test(lower)) return { kind: "emergency", situation: cleaned };
  if (WEATHER_WORDS.test(lower)) return weatherCommand(cleaned);
  if (PRICE_WORDS.test(lower) && !ABOUT_LINKUP.test(lower)) return { kind: "market", query: marketQuery(cleaned) };
  return null;
}

const hasAny = (folded: string, terms: readonly string[]) =>
  terms.some((t) =>
    /[\u0600-\u06FF]/.test(t)
      ? folded.includes(t)
      : new RegExp(`(^|[^\\p{L}\\p{N}])${t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`, "u").test(folded),
  );

const GREETINGS_LONGEST_FIRST = [...GREETINGS].sort((a, b) => b.length - a.length);
const HELP_SET = new Set(HELP_WORDS);

/** The words of a request that are neither filler nor request words, commodities in English ('shinkafa' → 'rice'). */
function meaningfulWords(text: string, alsoSkip: Set<string>): string {
  return text
    .replace(/[؟?!.,;:"“”]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({ w, f: foldText(w) }))
    .filter(({ f }) => f && !FILLER_WORDS.has(f) && !alsoSkip.has(f))
    .map(({ w, f }) => COMMODITY_WORDS[f] ?? w)
    .join(" ");
}

/**
 * The same requests in the other six languages, as people type them (no tone marks, mixed with English): a
 * greeting alone, or one that starts the request ('how far, wetin you fit do?', 'sannu, farashin shinkafa?').
 */
function understandOther(text: string): AiCommand | null {
  const folded = foldText(text);
  // Help and translation first on the whole message: 'kedu ka esi asi…' and 'bawo ni a se n so…' begin with
  // words that are greetings on their own.
  const whole = helpOrTranslate(folded);
  if (whole) return whole;
  const greeting = GREETINGS_LONGEST_FIRST.find((g) => folded === g || folded.startsWith(`${g} `));
  if (!greeting) return requestIn(folded, text.trim());
  const rest = folded.slice(greeting.length).trim();
  if (!rest || /^(lia|o|oga|madam|sir|bro|my friend|ya|yaya)$/.test(rest)) return { kind: "greeting" };
  // The same words off the original, which keeps the case of names ('Kano').
  const original = text
    .trim()
    .split(/\s+/)
    .slice(greeting.split(" ").length)
    .join(" ")
    .replace(/^[,،\s]+/, "");
  return helpOrTranslate(rest) ?? requestIn(rest, original);
}

function helpOrTranslate(folded: string): AiCommand | null {
  if (HELP_SET.has(folded)) return { kind: "help" };
  for (const pattern of TRANSLATE_PATTERNS) {
    const m = pattern.exec(folded);
    const target = m ? resolveLanguage(m[2]) : null;
    if (m && target && unquote(m[1])) return { kind: "translate", text: unquote(m[1]), target };
  }
  return null;
}

function requestIn(folded: string, original: string): AiCommand | null {
  if (hasAny(folded, SITUATION_WORDS)) return { kind: "emergency", situation: original.replace(TRAILING_PUNCTUATION, "") };
  if (hasAny(folded, WEATHER_TERMS)) {
    const tomorrow = hasAny(folded, TOMORROW_TERMS) || DAY_WORDS.test(folded);
    const place = meaningfulWords(original, new Set([...WEATHER_FILLER, ...TOMORROW_TERMS]));
    return tomorrow ? { kind: "weather", place, day: "tomorrow" } : { kind: "weather", place };
  }
  if (hasAny(folded, PRICE_TERMS)) return { kind: "market", query: meaningfulWords(original, MARKET_FILLER) };
  return null;
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

/** Free-tier messages with one of these get the premium offer instead of an answer (docs/product/plans-and-limits.md). */
export const PREMIUM_KEYWORDS = [
  "advanced analytics",
  "unlimited messages",
  "extended range",
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

/** What a free user sees for voice messages (premium 50 a month, free none: docs/product/plans-and-limits.md). */
export { AI_LIMIT_MESSAGES, VOICE_PREMIUM_MESSAGE } from "./ai-limits";
