// t() for screens: the messages come from the root loader (web/app/i18n/messages.server.ts), so this module
// carries no catalog. A key a language lacks shows the key itself, which the catalog test forbids.
import { useRef } from "react";
import { useRouteLoaderData } from "react-router";
import { isUiLanguage, LANGUAGE_NATIVE_NAMES, UI_LANGUAGES } from "../../../core/i18n/languages";
import type { MessageKey } from "../../../core/i18n/en";
import { formatMessage, formatNaira, type Message, type Vars } from "../../../core/i18n/translate";
import { type Said, type SayOptions, sayRefusal } from "./refusal";

interface LanguageData {
  i18n: { language: string; tag: string; dir: "ltr" | "rtl"; messages: Record<string, Message> };
}

const ENGLISH: LanguageData["i18n"] = { language: "english", tag: "en", dir: "ltr", messages: {} };

// The messages this page was given. When a navigation's data request fails, the root's error boundary renders
// without the root's loader data; the page keeps speaking the language it already had instead of showing keys.
let lastKnown: LanguageData["i18n"] | null = null;
function pageI18n(data: LanguageData | undefined): LanguageData["i18n"] {
  if (data?.i18n) {
    if (typeof window !== "undefined") lastKnown = data.i18n;
    return data.i18n;
  }
  return lastKnown ?? ENGLISH;
}

export type T = ((key: MessageKey, vars?: Vars) => string) & {
  tag: string;
  language: string;
  /** A refusal in the page's language: the API's by its code, the web's own by its key (./refusal.ts). */
  error: (said: Said, options?: SayOptions) => string;
  naira: (amount: number) => string;
};

export function useT(): T {
  const i18n = pageI18n(useRouteLoaderData<LanguageData>("root"));
  // One t per language: every revalidation brings a new copy of the same messages, and effects that list t
  // among their dependencies (toasts after an action) must not run again for it.
  const ref = useRef<{ language: string; t: T } | null>(null);
  if (ref.current?.language !== i18n.language) ref.current = { language: i18n.language, t: makeT(i18n) };
  return ref.current.t;
}

function makeT(i18n: LanguageData["i18n"]): T {
  const t = ((key: MessageKey, vars?: Vars) => formatMessage(i18n.messages[key], i18n.tag, vars, key)) as T;
  t.tag = i18n.tag;
  t.language = i18n.language;
  t.error = (said, options) => sayRefusal(said, t, (key) => i18n.messages[key] !== undefined, options);
  t.naira = (amount) => formatNaira(amount, i18n.tag);
  return t;
}

export function usePageLanguage() {
  return pageI18n(useRouteLoaderData<LanguageData>("root"));
}

/** The language picker's labels: complete languages by their own names, the others marked as English screens. */
export function languageLabels(t: T, options: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    options.map((o) => [
      o,
      isUiLanguage(o) ? LANGUAGE_NATIVE_NAMES[o] : t("settings.languageIncomplete", { name: o[0].toUpperCase() + o.slice(1) }),
    ]),
  );
}

export const completeLanguageNames = () => UI_LANGUAGES.map((l) => LANGUAGE_NATIVE_NAMES[l]).join(", ");

/** A page <title> in the page's language, for a route's meta (which has no hooks): from the root's messages. */
export function metaTitle(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[], key: MessageKey, english: string) {
  // React Router 8 gives a meta match its loader's data as `loaderData` (it no longer has `data`).
  const root = matches.find((m) => m?.id === "root")?.loaderData as Partial<LanguageData> | undefined;
  const title = root?.i18n?.messages[key];
  return typeof title === "string" ? title : english;
}
