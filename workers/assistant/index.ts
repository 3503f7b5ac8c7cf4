// The assistant (docs/architecture.md §6): one entry per use (an '@ai' command, translation, smart replies, support,
// voice), with the plans' limits (docs/product/plans-and-limits.md) applied on the server. Every channel calls these.
import { marketWords, weatherWords } from "./wording";
import { recordEvent } from "../analytics";
import { chooseLanguage, LANGUAGE_ENGLISH_NAMES } from "../../core/i18n/languages";
import { type AiCommand, findPremiumKeyword, LANGUAGES, type LanguageCode, parseAiCommand } from "../../core/ai-command";
import { answerLanguage } from "../../core/ai-languages";
import type { UiLanguage } from "../../core/i18n/languages";
import { REPLIES } from "./replies";
import { loadTranslator } from "../../core/i18n/load-catalog";
import { replyKeysFor } from "../../core/smart-reply-rules";
import type { SmartReply, Translation } from "../../core/ai-schemas";
import { type Tier, TRIAL_DAYS } from "../../core/constants";
import type { Db } from "../../db";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { type AppEnv, isDevelopment } from "../env";
import { marketAnswer } from "./market";
import { type AreaHint, askerArea } from "./area";
import {
  emergencyGuidanceIn,
  helpText,
  isFirstAidQuestion,
  knowsOffline,
  offlineProvider,
  phrasebookMiss,
  weatherNeedsConnection,
} from "./offline";
import { detectPhraseLanguage } from "./phrasebook";
import {
  AI_TIMEOUT_MS,
  type AiCommandResult,
  type AiMode,
  LIMIT_CODES,
  LIMIT_MESSAGES,
  onlineProvider,
  premiumKeywordMessage,
  type Refusal,
  upgradeOffer,
} from "./common";
import { type AssistantProvider, NeedsOnline, withFallback } from "./provider";
import { ANON_AI_BUDGET_SPENT, takeAddressToken } from "../limits";
import { type Counter, consume, refund } from "./usage";
import { forecast } from "./weather";

export {
  AI_TIMEOUT_MS,
  type AiMode,
  type AiCommandResult,
  LIMIT_MESSAGES,
  onlineProvider,
  type Refusal,
  type UpgradeBody,
  upgradeOffer,
} from "./common";
export { salesEnquiry, supportFollowup, supportQuery } from "./support";
export { transcribeVoiceMessage, voiceAllowed, voiceAudio } from "./voice";

export async function loadUser(db: Db, userId: string): Promise<User> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`assistant: unknown user ${userId}`);
  return user;
}

function tierOf(user: User): Tier {
  return user.subscriptionTier;
}

export interface AiCommandInput {
  userId: string;
  /** What follows '@ai '. */
  text: string;
  channel: "web" | "whatsapp" | "ussd";
  mode?: AiMode;
  /** false for a second answer to a command already counted (e.g. the SMS after a USSD screen). */
  countUsage?: boolean;
  /** The web caller's address: anonymous visitors share its daily AI budget across sessions (workers/limits). */
  address?: string | null;
  /** Recent chat lines for context (web: the last 5 messages). */
  history?: string[];
  timeoutMs?: number;
  now?: Date;
  /** Where the channel knows the person is (WhatsApp location, USSD town); the profile's area otherwise. */
  area?: AreaHint;
}

/**
 * Answers one '@ai' command for a user, applying the tier's daily limits once per command: every answered
 * command counts one AI command, a translation also counts one translation. Help, usage hints, the premium
 * offer and answers that only say the online assistant is needed count nothing (docs/decisions/016-assistant-wording-area-and-counting.md).
 */
/**
 * The default reply language follows the person's language setting (docs/decisions/031-web-app-languages.md);
 * a question written in another language is still answered in that one.
 */
export function replyLanguage(setting: string, asked?: UiLanguage): string | undefined {
  // A question in one of the other six languages is answered in it (issue 32), whatever the setting says.
  if (asked && asked !== "english") return `Answer in ${LANGUAGE_ENGLISH_NAMES[asked]}: the person wrote in it.`;
  const language = chooseLanguage(setting, null);
  if (language === "english") return undefined;
  return `The person reads ${LANGUAGE_ENGLISH_NAMES[language]} best: answer in ${LANGUAGE_ENGLISH_NAMES[language]} unless their message is in another language.`;
}

export async function runAiCommand(env: AppEnv, db: Db, input: AiCommandInput): Promise<AiCommandResult> {
  const user = await loadUser(db, input.userId);
  const tier = tierOf(user);
  const command = parseAiCommand(input.text);
  // USSD users pick the assistant from a menu, so its help speaks of commands without the '@ai ' prefix.
  // Long answers are the USSD channel's to split: the screen shows the start, the SMS the whole answer.
  const screen = input.channel === "ussd" ? "ussd" : "web";
  // Answers come in the language the person wrote in (issue 32); English keeps offline.ts's texts.
  const asked = answerLanguage(input.text, chooseLanguage(user.language, null));
  const local = asked === "english" ? null : REPLIES[asked];
  if (command.kind === "empty" || command.kind === "help")
    return { ok: true, message: local && command.kind === "help" ? local.help : helpText(screen), source: "offline" };
  if (command.kind === "greeting") return { ok: true, message: local?.greeting ?? GREETING, source: "offline" };
  if (command.kind === "translate-usage") return { ok: true, message: translateUsage(command), source: "offline" };

  if (tier === "free") {
    const keyword = findPremiumKeyword(input.text);
    if (keyword)
      return upgradeOffer("premium_feature", "premium_keyword", premiumKeywordMessage(keyword), {
        feature: keyword.charAt(0).toUpperCase() + keyword.slice(1),
        days: TRIAL_DAYS,
      });
  }
  const counters: Counter[] = command.kind === "translate" ? ["aiCommands", "translations"] : ["aiCommands"];
  if (input.countUsage !== false) {
    const used = await consume(db, user.id, tier, counters, input.now);
    if (!used.ok) return upgradeOffer("limit_reached", LIMIT_CODES[used.full], LIMIT_MESSAGES[used.full]);
    // A new anonymous session would otherwise bring a fresh free allowance: the address keeps a daily budget.
    const anonymous = tier === "free" && user.authMode !== "verified";
    if (anonymous && !(await takeAddressToken(env, db, "anonAi", input.address ?? null, input.now)).ok) {
      for (const c of counters) await refund(db, user.id, c, input.now);
      return upgradeOffer("limit_reached", "anonymous_ai_spent", ANON_AI_BUDGET_SPENT);
    }
  }

  const answer = await answerCommand(env, db, user, command, input);
  const counted = input.countUsage !== false && answer.counts;
  if (answer.counts) await recordEvent(db, `ai.${command.kind}`, { userId: user.id });
  if (!answer.counts && input.countUsage !== false) for (const c of counters) await refund(db, user.id, c, input.now);
  return { ok: true, message: answer.message, source: answer.source, counted };
}

type Answer = { message: string; source: "online" | "offline"; counts: boolean };
type CountedCommand = Exclude<AiCommand, { kind: "empty" | "help" | "greeting" | "translate-usage" }>;

const GREETING =
  "Hello! I'm LIA, the LinkUp assistant. Ask me to translate, check market prices, or help in an emergency. Type '@ai help' for examples.";

function translateUsage(command: Extract<AiCommand, { kind: "translate-usage" }>): string {
  const why =
    command.reason === "unknown-language"
      ? `I can't translate to "${command.language}" yet.`
      : command.reason === "missing-text"
        ? "Tell me what to translate."
        : "Tell me which language to translate to.";
  return `${why} Use '@ai translate <text> to <language>' with ${Object.values(LANGUAGES).join(", ")}. For example: '@ai translate good morning to hausa'.`;
}

async function answerCommand(env: AppEnv, db: Db, user: User, command: CountedCommand, input: AiCommandInput): Promise<Answer> {
  const mode = input.mode ?? "auto";
  const online = onlineProvider(env, mode);
  const offline = offlineProvider();
  const timeoutMs = input.timeoutMs ?? AI_TIMEOUT_MS;
  const area = askerArea(input.area, user);
  const asked = answerLanguage(input.text, chooseLanguage(user.language, null));
  const local = asked === "english" ? null : REPLIES[asked];

  switch (command.kind) {
    case "emergency":
      // First-aid steps are vetted text, never generated: the same answer on every channel and connection.
      return { message: await emergencyGuidanceIn(asked, command.situation), source: "offline", counts: true };
    case "market":
      return {
        message: await marketAnswer(db, command.query, area, undefined, undefined, isDevelopment(env), marketWords(asked)),
        source: "offline",
        counts: true,
      };
    case "weather": {
      const named = command.place || area?.name || "";
      const needs = () => (local ? local.weatherNeeds(named ? ` (${named})` : "") : weatherNeedsConnection(named, command.day));
      if (!online) return { message: needs(), source: "offline", counts: false };
      try {
        const message = await forecast(command.place, area, timeoutMs, command.day ?? "today", weatherWords(asked));
        return { message, source: "online", counts: true };
      } catch (e) {
        console.warn("assistant: forecast failed:", e instanceof Error ? e.message : e);
        return { message: needs(), source: "offline", counts: false };
      }
    }
    case "translate": {
      const result = await translateWith(online, offline, command.text, command.target, undefined, timeoutMs);
      if (!result) {
        const miss = local
          ? local.phrasebookMiss(command.text, local.languages[command.target])
          : phrasebookMiss(command.text, command.target);
        return { message: miss, source: "offline", counts: false };
      }
      const name = local ? local.languages[command.target] : LANGUAGES[command.target];
      return { message: `🌍 ${name}: ${result.translation.translatedText}`, source: result.source, counts: true };
    }
    case "question": {
      // First aid is never left to a generated answer, online or not.
      if (isFirstAidQuestion(command.question))
        return { message: await emergencyGuidanceIn(asked, command.question), source: "offline", counts: true };
      const answer = await withFallback(
        online,
        offline,
        (p) => p.chat({ question: command.question, history: input.history, system: replyLanguage(user.language, asked) }),
        timeoutMs,
      );
      // The offline 'needs the online assistant' reply answers nothing, so it costs nothing.
      const counts = answer.source === "online" || knowsOffline(command.question);
      // Offline, an unknown question in another language is told so in that language.
      if (local && answer.source === "offline" && !knowsOffline(command.question))
        return { message: local.needsOnline, source: "offline", counts };
      return { message: answer.value, source: answer.source, counts };
    }
  }
}

/** Phrasebook first (instant and exact), then the online model, then null when nobody can translate it. */
async function translateWith(
  online: AssistantProvider | null,
  offline: AssistantProvider,
  text: string,
  target: LanguageCode,
  source: LanguageCode | undefined,
  timeoutMs: number,
): Promise<{ translation: Translation; source: "online" | "offline" } | null> {
  const detected = source ?? detectPhraseLanguage(text) ?? undefined;
  const shape = (out: { translatedText: string; sourceLanguage: string }): Translation => ({
    originalText: text,
    translatedText: out.translatedText,
    sourceLanguage: out.sourceLanguage === "auto" ? "auto" : LANGUAGES[out.sourceLanguage as LanguageCode],
    targetLanguage: LANGUAGES[target],
  });
  try {
    const hit = await offline.translate(text, target, detected);
    return { translation: shape(hit), source: "offline" };
  } catch (e) {
    if (!(e instanceof NeedsOnline)) throw e;
  }
  if (!online) return null;
  try {
    const out = await withFallback(online, offline, (p) => p.translate(text, target, detected), timeoutMs);
    return { translation: shape(out.value), source: out.source };
  } catch (e) {
    if (e instanceof NeedsOnline) return null;
    throw e;
  }
}

export type TranslateResult =
  | { ok: true; translation: Translation; source: "online" | "offline" }
  | Refusal
  | { ok: false; status: 503; code: "phrasebook_miss"; error: string };

/** POST /api/ai/translate: counts one translation (free: 5 a day); a phrase nobody could translate is not charged. */
export async function translateText(
  env: AppEnv,
  db: Db,
  input: { userId: string; text: string; target: LanguageCode; source?: LanguageCode; mode?: AiMode; timeoutMs?: number; now?: Date },
): Promise<TranslateResult> {
  const user = await loadUser(db, input.userId);
  const used = await consume(db, user.id, tierOf(user), ["translations"], input.now);
  if (!used.ok) return upgradeOffer("limit_reached", "translations_limit", LIMIT_MESSAGES.translations);
  const result = await translateWith(
    onlineProvider(env, input.mode),
    offlineProvider(),
    input.text,
    input.target,
    input.source,
    input.timeoutMs ?? AI_TIMEOUT_MS,
  );
  if (!result) {
    await refund(db, user.id, "translations", input.now);
    return { ok: false, status: 503, code: "phrasebook_miss", error: phrasebookMiss(input.text, input.target) };
  }
  return { ok: true, ...result };
}

/**
 * Smart replies for the last message of a chat (not counted: they are suggestions, not commands). Offline, a
 * person whose screens are not in English gets the rules' replies in their language (core/smart-reply-rules.ts).
 */
export async function smartReplies(
  env: AppEnv,
  input: { message: string; context?: string[]; mode?: AiMode; timeoutMs?: number; language?: UiLanguage },
): Promise<{ replies: SmartReply[]; source: "online" | "offline" }> {
  if (input.language && input.language !== "english" && !onlineProvider(env, input.mode)) {
    const t = await loadTranslator(input.language);
    return { replies: replyKeysFor(input.message).map((key, i) => ({ id: `reply-${i + 1}`, text: t(key) })), source: "offline" };
  }
  const out = await withFallback(
    onlineProvider(env, input.mode),
    offlineProvider(),
    (p) => p.smartReplies(input.message, input.context),
    input.timeoutMs ?? AI_TIMEOUT_MS,
  );
  return {
    replies: out.value.slice(0, 3).map((text, i) => ({ id: `reply-${i + 1}`, text })),
    source: out.source,
  };
}
