// The FAQ in the reader's language (docs/decisions/031-web-app-languages.md): the entries LinkUp wrote (the seed,
// db/seed-data.ts) have their words in every catalog, keyed by the entry's stable id; an entry staff add later has
// no translation and reads as written.
import { loadTranslator } from "../../core/i18n/load-catalog";
import type { MessageKey } from "../../core/i18n/en";
import { chooseLanguage } from "../../core/i18n/languages";

const FAQ_TEXT: Record<string, { question: MessageKey; answer: MessageKey }> = {
  "faq-1": { question: "faqc.1.q", answer: "faqc.1.a" },
  "faq-2": { question: "faqc.2.q", answer: "faqc.2.a" },
  "faq-3": { question: "faqc.3.q", answer: "faqc.3.a" },
  "faq-4": { question: "faqc.4.q", answer: "faqc.4.a" },
  "faq-5": { question: "faqc.5.q", answer: "faqc.5.a" },
  "faq-6": { question: "faqc.6.q", answer: "faqc.6.a" },
  "faq-7": { question: "faqc.7.q", answer: "faqc.7.a" },
  "faq-8": { question: "faqc.8.q", answer: "faqc.8.a" },
  "faq-9": { question: "faqc.9.q", answer: "faqc.9.a" },
  "faq-10": { question: "faqc.10.q", answer: "faqc.10.a" },
  "faq-11": { question: "faqc.11.q", answer: "faqc.11.a" },
  "faq-12": { question: "faqc.12.q", answer: "faqc.12.a" },
};

/** The saved language first, then the browser's, then English (core/i18n/languages.ts). */
export async function localizeFaq<T extends { id: string; question: string; answer: string }>(
  items: T[],
  saved: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Promise<T[]> {
  const language = chooseLanguage(saved, acceptLanguage);
  if (language === "english") return items;
  const t = await loadTranslator(language);
  return items.map((f) => {
    const keys = FAQ_TEXT[f.id];
    return keys ? { ...f, question: t(keys.question), answer: t(keys.answer) } : f;
  });
}
