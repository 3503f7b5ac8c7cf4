// Every catalog, for the server only: the root loader sends one language's messages to the page
// (docs/decisions/031-web-app-languages.md), and the Worker formats push and channel texts with them.
import { ar } from "./ar";
import { type Catalog, en, type MessageKey } from "./en";
import { fr } from "./fr";
import { ha } from "./ha";
import { ig } from "./ig";
import { LANGUAGE_TAGS, type UiLanguage } from "./languages";
import { pcm } from "./pcm";
import { formatMessage, type Vars } from "./translate";
import { yo } from "./yo";

export const CATALOGS: Record<UiLanguage, Catalog> = { english: en, hausa: ha, yoruba: yo, igbo: ig, pidgin: pcm, french: fr, arabic: ar };

/** A translator for server code (push texts, notifications): English for a key a catalog lacks. */
export function translator(language: UiLanguage) {
  const catalog = CATALOGS[language];
  const tag = LANGUAGE_TAGS[language];
  return (key: MessageKey, vars?: Vars) => formatMessage(catalog[key] ?? en[key], tag, vars, key);
}
