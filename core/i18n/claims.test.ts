// Every word true (docs/decisions/060-every-claim-true.md): the catalogs and the words the server writes itself
// (support bot, assistant, USSD and WhatsApp texts, the seeded FAQ and blog) make no claim the code does not keep.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TIER_LIMITS } from "../constants";
import { CATALOGS } from "./catalogs";
import { UI_LANGUAGES, type UiLanguage } from "./languages";
import type { Message } from "./translate";

const texts = (m: Message) => (typeof m === "string" ? [m] : Object.values(m).filter((s): s is string => typeof s === "string"));
const entries = (language: UiLanguage) =>
  Object.entries(CATALOGS[language] as Record<string, Message>).flatMap(([key, m]) => texts(m).map((text) => ({ key, text })));

/** Nobody staffs support around the clock (docs/decisions/018-billing.md). */
const AROUND_THE_CLOCK = /24\s*\/\s*7|24\s*h\s*\/\s*24|7\s*j\s*\/\s*7|awa 24 kullum|awa 24 kwa ụbọchị|wákàtí 24 lójoojúmọ́|على مدار الساعة/i;
/** How each language says "unlimited", and "voice" (messages). */
const UNLIMITED: Record<UiLanguage, RegExp> = {
  english: /unlimited/i,
  pidgin: /unlimited|no get limit|no limit/i,
  hausa: /mara iyaka|marasa iyaka/i,
  yoruba: /láìní òpin|láìlópin/i,
  igbo: /na-enweghị njedebe|na-enweghị oke/i,
  french: /illimité/i,
  arabic: /بلا حدود|غير محدود/,
};
const VOICE: Record<UiLanguage, RegExp> = {
  english: /voice/i,
  pidgin: /voice/i,
  hausa: /murya/i,
  yoruba: /ohùn/i,
  igbo: /olu\b/i,
  french: /vocal|vocaux/i,
  arabic: /صوت/,
};
/** An accuracy LinkUp never measured (docs/decisions/060-every-claim-true.md): a percentage next to "confidence". */
const CONFIDENCE = /confidence|confiance|sure\b|tabbaci|ìdánilójú|ntụkwasị obi|ثقة/i;
/** "N languages" in each language's words. */
const LANGUAGE_COUNT = /(\d+)\s+(languages|langues|harsuna|èdè|asụsụ|لغة)|(harsuna|èdè|asụsụ)\s+(\d+)/i;
/** Enterprise's voice messages really have no cap: a message about Enterprise may say so. */
const ENTERPRISE_KEYS = new Set(["pricing.f.uncapped"]);

const SERVER_WORDS = [
  "workers/assistant/support.ts",
  "workers/assistant/offline.ts",
  "workers/assistant/market.ts",
  "core/ussd-texts.ts",
  "core/whatsapp-texts.ts",
  "core/ai-command.ts",
  "db/seed-data.ts",
].map((f) => ({ file: f, text: readFileSync(join(__dirname, "../..", f), "utf8") }));

describe("every claim true", () => {
  it.each(UI_LANGUAGES)("%s promises no support around the clock", (language) => {
    expect(entries(language).filter((e) => AROUND_THE_CLOCK.test(e.text))).toEqual([]);
  });

  it.each(UI_LANGUAGES)("%s calls voice messages unlimited only with Premium's monthly figure, or for Enterprise", (language) => {
    const premiumVoice = String(TIER_LIMITS.premium.voiceMessages);
    const wrong = entries(language).filter(
      (e) =>
        UNLIMITED[language].test(e.text) &&
        VOICE[language].test(e.text) &&
        !e.text.includes(premiumVoice) &&
        !e.text.includes("{voice}") &&
        !ENTERPRISE_KEYS.has(e.key),
    );
    expect(wrong).toEqual([]);
    expect(TIER_LIMITS.enterprise.voiceMessages).toBeNull();
  });

  it.each(UI_LANGUAGES)("%s shows no confidence percentage", (language) => {
    const wrong = entries(language).filter((e) => CONFIDENCE.test(e.text) && /%|\{percent\}/.test(e.text));
    expect(wrong).toEqual([]);
  });

  it.each(UI_LANGUAGES)("%s counts only the complete catalogs as languages", (language) => {
    const counts = entries(language)
      .map((e) => LANGUAGE_COUNT.exec(e.text))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1] ?? m[4]));
    expect(counts.filter((n) => n !== UI_LANGUAGES.length)).toEqual([]);
  });

  it.each(SERVER_WORDS)("$file writes no 24/7 promise, no confidence percentage and no unlimited voice", ({ text }) => {
    expect(text).not.toMatch(AROUND_THE_CLOCK);
    expect(text).not.toMatch(/\d+\s*%\s*confiden|confidence[^.\n]{0,20}\d+\s*%/i);
    // "Unlimited AI and translation, 50 voice messages" is true; "unlimited AI, voice messages" is not.
    expect(text).not.toMatch(/unlimited(?:(?!\d+ voice|\$\{TIER_LIMITS[^}]*\} voice)[^.\n]){0,40}voice|voice[^.\n]{0,20}unlimited/i);
    expect(text).not.toMatch(/\b(?!7\b)\d+ languages\b/);
  });
});
