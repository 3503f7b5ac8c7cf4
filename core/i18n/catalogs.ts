// Every catalog in one table, for the tests that read them all. Code that runs in the Worker loads one language
// at a time through core/i18n/load-catalog.ts (docs/decisions/070-light-enough-for-2g.md), so this module stays
// out of its build.
import { ar } from "./ar";
import { type Catalog, en } from "./en";
import { fr } from "./fr";
import { ha } from "./ha";
import { ig } from "./ig";
import type { UiLanguage } from "./languages";
import { translatorOf } from "./load-catalog";
import { pcm } from "./pcm";
import { yo } from "./yo";

export const CATALOGS: Record<UiLanguage, Catalog> = { english: en, hausa: ha, yoruba: yo, igbo: ig, pidgin: pcm, french: fr, arabic: ar };

/** A translator for server code (push texts, notifications): English for a key a catalog lacks. */
export function translator(language: UiLanguage) {
  return translatorOf(CATALOGS[language], language, en);
}
