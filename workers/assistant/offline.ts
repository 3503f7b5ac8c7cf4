// The offline assistant (docs/architecture.md §6): answers without any network, locally, in tests and as the fallback.
// It really answers what it can (phrasebook, first aid, SOS, help, LinkUp facts) and says plainly when a
// question needs the online assistant.
import { LANGUAGES, type LanguageCode } from "../../core/ai-command";
import type { SupportCategory } from "../../core/ai-schemas";
import { PRICES_NGN, TRIAL_DAYS } from "../../core/constants";
import { lookupPhrase, PHRASE_SAMPLES } from "./phrasebook";
import { type AssistantProvider, NeedsOnline } from "./provider";
import { foldText } from "../../core/ai-languages";
import type { UiLanguage } from "../../core/i18n/languages";
import type { MessageKey } from "../../core/i18n/en";
import { loadTranslator } from "../../core/i18n/load-catalog";
import { REPLIES, topicWords } from "./replies";

const naira = (n: number) => `₦${n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;

export function helpText(channel: "web" | "whatsapp" | "ussd" = "web"): string {
  if (channel === "ussd")
    return "Ask: translate <text> to <language>, market <item> <place>, weather <place>, emergency <what happened>, or any question.";
  return [
    "I'm LIA, the LinkUp assistant. Start a message with '@ai ' and try:",
    `• translate <text> to <language> (${Object.values(LANGUAGES).join(", ")})`,
    "• market [commodity] [place], e.g. market rice lagos: the median of the prices people reported in the last 14 days",
    channel === "whatsapp"
      ? "• report a price you saw: PRICE rice 50kg 78000 Mile 12 (without @ai)"
      : "• report a price you saw on the Market prices page (/market-prices)",
    "• weather [place]",
    "• emergency <what happened>, for first aid and SOS steps",
    "• any question",
    "Your own words work too, in English or Pidgin: 'price of rice', 'how much be garri for kano', 'how do I say thank you in yoruba', 'weather tomorrow'. With no place named I use your area.",
  ].join("\n");
}

const SOS_STEPS =
  "Call 112 (or 199) now. Press SOS in LinkUp to alert people nearby and your emergency contacts, and share your location. Stay where it is safe.";

// The checked first-aid steps, worded in the catalogs (core/i18n, "aid.*"): English is the checked text; the other
// languages are machine-assisted and each answer says so until a native speaker has reviewed them (docs/i18n-review.md).
const FIRST_AID: { words: string[]; title: MessageKey; steps: MessageKey }[] = [
  { words: ["breath", "cpr", "heart", "collapse", "no pulse", "chest pain"], title: "aid.breath.title", steps: "aid.breath.steps" },
  { words: ["bleed", "blood", "cut", "wound", "stab", "gunshot"], title: "aid.bleed.title", steps: "aid.bleed.steps" },
  { words: ["burn", "scald", "fire"], title: "aid.burn.title", steps: "aid.burn.steps" },
  { words: ["chok"], title: "aid.chok.title", steps: "aid.chok.steps" },
  { words: ["faint", "unconscious", "passed out", "collapsed"], title: "aid.faint.title", steps: "aid.faint.steps" },
  { words: ["snake", "bite", "sting"], title: "aid.snake.title", steps: "aid.snake.steps" },
  { words: ["seizure", "fit", "convuls", "epilep"], title: "aid.seizure.title", steps: "aid.seizure.steps" },
  { words: ["poison", "swallow", "overdose", "chemical"], title: "aid.poison.title", steps: "aid.poison.steps" },
  { words: ["flood", "water rising", "drown"], title: "aid.flood.title", steps: "aid.flood.steps" },
  { words: ["accident", "crash", "collision", "knocked"], title: "aid.accident.title", steps: "aid.accident.steps" },
  { words: ["labour", "labor", "pregnan", "birth", "dey born"], title: "aid.labour.title", steps: "aid.labour.steps" },
];

/** First-aid and SOS guidance for a situation, always with the emergency numbers. */
export async function emergencyGuidance(situation: string): Promise<string> {
  const s = situation.toLowerCase();
  const topics = FIRST_AID.filter((t) => t.words.some((w) => s.includes(w))).slice(0, 2);
  const lines = ["🚨 Emergency guidance", SOS_STEPS];
  // The steps' words are in the English catalog, read on first use like every catalog (docs/decisions/082).
  const t = topics.length ? await loadTranslator("english") : null;
  if (t) for (const topic of topics) lines.push(`${t(topic.title)}: ${t(topic.steps)}`);
  else
    lines.push(
      "Tell me what happened for first-aid steps, e.g. '@ai emergency bleeding', 'burn', 'choking', 'unconscious', 'snake bite', 'flood' or 'accident'.",
    );
  return lines.join("\n");
}

/** The same guidance for a person writing in another language: its words (workers/assistant/replies.ts), its steps. */
export async function emergencyGuidanceIn(language: UiLanguage, situation: string): Promise<string> {
  if (language === "english") return emergencyGuidance(situation);
  const texts = REPLIES[language];
  const s = `${situation.toLowerCase()} ${topicWords(foldText(situation))}`;
  const topics = FIRST_AID.filter((t) => t.words.some((w) => s.includes(w))).slice(0, 2);
  const lines = [texts.emergencyTitle, texts.sosSteps];
  const t = await loadTranslator(language);
  // The steps in the asker's language, with the line that says they await a native speaker's review.
  if (topics.length) lines.push(...topics.map((topic) => `${t(topic.title)}: ${t(topic.steps)}`), `(${t("aid.reviewNote")})`);
  else lines.push(texts.tellMeWhat);
  return lines.join("\n");
}

export function weatherNeedsConnection(place: string, day?: "tomorrow"): string {
  const where = `${place ? ` for ${place}` : ""}${day ? ` ${day}` : ""}`;
  return `The weather forecast${where} needs a connection to the forecast service, which isn't available right now. Please try again when you're online.`;
}

export function needsOnlineText(question?: string): string {
  const about = question ? ` "${question.length > 80 ? `${question.slice(0, 77)}...` : question}"` : "";
  return `That question${about} needs the online assistant, which isn't reachable right now. Offline I can translate common phrases, give market prices, first-aid and SOS steps, and help with LinkUp. Type '@ai help' to see how.`;
}

// LinkUp facts the offline assistant answers by keyword.
const KNOWLEDGE: { words: string[]; answer: () => string }[] = [
  {
    words: ["hello", "hi", "hey", "good morning", "good afternoon", "good evening", "sannu", "ndewo", "bawo", "jambo"],
    answer: () =>
      "Hello! I'm LIA, the LinkUp assistant. Ask me to translate, check market prices, or help in an emergency. Type '@ai help' for examples.",
  },
  {
    words: ["sos", "emergency", "alert"],
    answer: () =>
      "To send an SOS, press the red SOS button: LinkUp alerts people in your area, your emergency contacts and nearby phones. On a basic phone, dial the LinkUp USSD code and choose SOS. In danger, call 112 or 199.",
  },
  {
    words: ["premium", "price of linkup", "subscription", "upgrade", "trial", "cost"],
    answer: () =>
      `Premium costs ${naira(PRICES_NGN.premium.monthly)} a month with a ${TRIAL_DAYS}-day free trial: unlimited AI commands and translation, 50 voice messages a month and an SOS that reaches about 10 km. Enterprise is ${naira(PRICES_NGN.enterprise.monthly)} a month.`,
  },
  {
    words: ["verify", "verification", "phone number", "code"],
    answer: () =>
      "Verify your phone in Settings: we send a 6-digit code by WhatsApp (or SMS). Verification unlocks smart replies, file sharing and premium.",
  },
  {
    words: ["language", "languages", "translate"],
    answer: () =>
      `I translate between ${Object.values(LANGUAGES).join(", ")}. Try '@ai translate good morning to hausa'. Offline I know common phrases; longer text needs the online assistant.`,
  },
  {
    words: ["what is linkup", "about linkup", "who are you", "what can you do"],
    answer: () => helpText(),
  },
  {
    words: ["ussd", "whatsapp", "basic phone", "feature phone"],
    answer: () =>
      "On a basic phone, dial the LinkUp USSD code for SOS, the assistant, market prices and translation, or message the LinkUp WhatsApp number with '@ai ' and your question.",
  },
];

function hasWord(text: string, word: string): boolean {
  if (word.includes(" ")) return text.includes(word);
  return new RegExp(`(^|[^a-z])${word}([^a-z]|$)`).test(text);
}

/** A question asking for help with a first-aid situation: answered with the vetted guidance on every connection. */
export function isFirstAidQuestion(question: string): boolean {
  const q = question.toLowerCase();
  return FIRST_AID.some((t) => t.words.some((w) => q.includes(w))) && /(help|what (do|should|can) i do|first aid|injur|hurt)/.test(q);
}

/** Whether the offline assistant has a real answer to a question (else it says it needs the online one). */
export function knowsOffline(question: string): boolean {
  const q = question.toLowerCase();
  return isFirstAidQuestion(question) || KNOWLEDGE.some((k) => k.words.some((w) => hasWord(q, w)));
}

/** An answer from what the offline assistant knows, or the honest 'needs the online assistant'. */
export async function offlineAnswer(question: string): Promise<string> {
  const q = question.toLowerCase();
  if (isFirstAidQuestion(question)) return emergencyGuidance(question);
  const known = KNOWLEDGE.find((k) => k.words.some((w) => hasWord(q, w)));
  return known ? known.answer() : needsOnlineText(question);
}

const SMART_REPLY_RULES: { test: RegExp; replies: string[] }[] = [
  { test: /(sos|emergency|help me|accident|danger|fire|bleeding|hurt)/i, replies: ["Are you safe?", "I'm on my way", "Call 112 now"] },
  { test: /(thank|thanks|na gode|daalu|asante|merci)/i, replies: ["You're welcome", "Anytime!", "Happy to help"] },
  {
    test: /^(hi|hello|hey|good (morning|afternoon|evening)|sannu|ndewo|bawo|jambo)\b/i,
    replies: ["Hello!", "Good to hear from you", "How are you?"],
  },
  { test: /(how are you|how far|how body)/i, replies: ["I'm fine, thank you", "All good, and you?", "Doing well"] },
  {
    test: /(price|market|how much|cost|sell|buy)/i,
    replies: ["Let me check the price", "How many do you need?", "I'll send the price soon"],
  },
  { test: /(where are you|location|where is)/i, replies: ["Share location", "I'm nearby", "On my way"] },
  { test: /(meet|come|tomorrow|today|tonight|later)/i, replies: ["Okay, see you then", "What time?", "I can't make it"] },
  { test: /\?\s*$/, replies: ["Yes", "No", "Let me check"] },
];

export function offlineSmartReplies(message: string): string[] {
  return SMART_REPLY_RULES.find((r) => r.test.test(message.trim()))?.replies ?? ["Got it", "Thank you", "Okay, talk soon"];
}

const CLASSIFY_RULES: { category: SupportCategory; words: string[] }[] = [
  {
    category: "emergency",
    words: ["emergency", "sos", "urgent", "danger", "accident", "attack", "fire", "injured", "bleeding", "kidnap", "robbery"],
  },
  {
    category: "pricing",
    words: [
      "price",
      "pricing",
      "how much",
      "cost",
      "pay",
      "payment",
      "naira",
      "₦",
      "subscription",
      "subscribe",
      "premium",
      "plan",
      "trial",
      "refund",
      "billing",
      "charge",
      "cancel",
    ],
  },
  {
    category: "business",
    words: [
      "enterprise",
      "business",
      "company",
      "partner",
      "partnership",
      "team",
      "api",
      "organisation",
      "organization",
      "ngo",
      "bulk",
      "reseller",
      "invest",
    ],
  },
  {
    category: "comparison",
    words: ["whatsapp", "telegram", "signal", "compare", "comparison", "better than", "vs", "versus", "difference", "competitor"],
  },
  {
    category: "technical",
    words: [
      "not working",
      "error",
      "bug",
      "crash",
      "bluetooth",
      "connect",
      "login",
      "log in",
      "sign in",
      "can't",
      "cannot",
      "problem",
      "issue",
      "slow",
      "broken",
      "code",
      "install",
      "battery",
      "notification",
    ],
  },
  {
    category: "features",
    words: [
      "feature",
      "how do i",
      "how to",
      "can i",
      "translate",
      "translation",
      "ai",
      "voice",
      "file",
      "mesh",
      "offline",
      "encryption",
      "group",
      "language",
      "market",
    ],
  },
  { category: "greeting", words: ["hello", "hi", "hey", "good morning", "good afternoon", "good evening", "greetings"] },
];

/** Keyword classification of a support message: the category with the most matching words, if any matched. */
export function classifyOffline(message: string): { category: SupportCategory; matched: boolean } {
  const q = message.toLowerCase();
  let best: { category: SupportCategory; hits: number } | null = null;
  for (const rule of CLASSIFY_RULES) {
    const hits = rule.words.filter((w) => hasWord(q, w) || (w.length > 4 && q.includes(w))).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { category: rule.category, hits };
  }
  if (!best) return { category: "features", matched: false };
  return { category: best.category, matched: true };
}

export function offlineProvider(): AssistantProvider {
  return {
    name: "offline",
    async chat(input) {
      return offlineAnswer(input.question);
    },
    async translate(text, target: LanguageCode, source?: LanguageCode) {
      const hit = lookupPhrase(text, target);
      if (!hit) throw new NeedsOnline("Translating this text");
      return { translatedText: hit.translatedText, sourceLanguage: source ?? hit.sourceLanguage };
    },
    async smartReplies(message) {
      return offlineSmartReplies(message);
    },
    async transcribe() {
      throw new NeedsOnline("Transcribing a voice message");
    },
    async classify(message) {
      return { category: classifyOffline(message).category };
    },
  };
}

/** What the offline assistant says when a phrase is not in its book. */
export function phrasebookMiss(text: string, target: LanguageCode): string {
  return `I can't translate "${text}" to ${LANGUAGES[target]} offline: that needs the online assistant, which isn't reachable right now. Offline I know common phrases such as ${PHRASE_SAMPLES.map((p) => `'${p}'`).join(", ")}.`;
}
