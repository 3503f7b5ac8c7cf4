// The language of a page request and the messages the page gets (docs/decisions/031-web-app-languages.md).
// Server only: the catalogs never enter the JavaScript bundle; one language's messages ride in the root
// loader's data, so a page renders in its language on the server with no flash of English.
import { loadCatalog } from "../../../core/i18n/load-catalog";
import type { Catalog } from "../../../core/i18n/en";
import { chooseLanguage, directionOf, isServerOnlyKey, LANGUAGE_TAGS, type UiLanguage } from "../../../core/i18n/languages";

export interface PageLanguage {
  language: UiLanguage;
  tag: string;
  dir: "ltr" | "rtl";
  messages: Partial<Catalog>;
}

// One filtered copy per language: the words only the server sends (notices, pushes, FAQ entries) stay out of pages.
const PAGE_MESSAGES = new Map<UiLanguage, Partial<Catalog>>();
async function pageMessages(language: UiLanguage): Promise<Partial<Catalog>> {
  let messages = PAGE_MESSAGES.get(language);
  if (!messages) {
    messages = Object.fromEntries(Object.entries(await loadCatalog(language)).filter(([key]) => !isServerOnlyKey(key))) as Partial<Catalog>;
    PAGE_MESSAGES.set(language, messages);
  }
  return messages;
}

export async function pageLanguage(saved: string | null | undefined, request: Request): Promise<PageLanguage> {
  const language = chooseLanguage(saved, request.headers.get("accept-language"));
  return { language, tag: LANGUAGE_TAGS[language], dir: directionOf(language), messages: await pageMessages(language) };
}
