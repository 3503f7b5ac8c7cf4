// The languages LinkUp's screens speak, and how one is chosen for a request (docs/decisions/031-web-app-languages.md):
// the person's saved setting, else the browser's Accept-Language, else English.

/** Languages with a complete catalog: every key, checked by core/i18n/catalogs.test.ts. */
export const UI_LANGUAGES = ["english", "hausa", "yoruba", "igbo", "pidgin", "french", "arabic"] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** BCP 47 tags for <html lang>, Intl and Accept-Language. */
export const LANGUAGE_TAGS: Record<UiLanguage, string> = {
  english: "en",
  hausa: "ha",
  yoruba: "yo",
  igbo: "ig",
  pidgin: "pcm",
  french: "fr",
  arabic: "ar",
};

/** How each language names itself in the picker. */
export const LANGUAGE_NATIVE_NAMES: Record<UiLanguage, string> = {
  english: "English",
  hausa: "Hausa",
  yoruba: "Yorùbá",
  igbo: "Igbo",
  pidgin: "Naijá (Pidgin)",
  french: "Français",
  arabic: "العربية",
};

/** English names, for instructions to the assistant's model. */
export const LANGUAGE_ENGLISH_NAMES: Record<UiLanguage, string> = {
  english: "English",
  hausa: "Hausa",
  yoruba: "Yoruba",
  igbo: "Igbo",
  pidgin: "Nigerian Pidgin",
  french: "French",
  arabic: "Arabic",
};

export const isUiLanguage = (value: string | null | undefined): value is UiLanguage =>
  (UI_LANGUAGES as readonly string[]).includes(value ?? "");

export const directionOf = (language: UiLanguage): "ltr" | "rtl" => (language === "arabic" ? "rtl" : "ltr");

/** The first language of an Accept-Language header that LinkUp speaks, by quality; null when none. */
export function fromAcceptLanguage(header: string | null | undefined): UiLanguage | null {
  if (!header) return null;
  const byTag = new Map(Object.entries(LANGUAGE_TAGS).map(([name, tag]) => [tag, name as UiLanguage]));
  const ranked = header
    .split(",")
    .map((part, i) => {
      const [range, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { primary: range.trim().toLowerCase().split("-")[0], quality: Number.isFinite(quality) ? quality : 0, i };
    })
    .filter((r) => r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.i - b.i);
  for (const r of ranked) {
    const found = byTag.get(r.primary);
    if (found) return found;
  }
  return null;
}

/**
 * The language of a request. A saved setting that LinkUp's screens do not speak yet (one of the other languages
 * settings offer, docs/product/settings-and-notifications.md) falls back to English rather than to the browser:
 * the person chose it, not the browser's language.
 */
export function chooseLanguage(saved: string | null | undefined, acceptLanguage: string | null | undefined): UiLanguage {
  if (saved) return isUiLanguage(saved) ? saved : "english";
  return fromAcceptLanguage(acceptLanguage) ?? "english";
}

/**
 * Namespaces only the server words (push texts, billing notices, FAQ entries, the assistant's first aid): pages never
 * carry them in their HTML (web/app/i18n/messages.server.ts), and core/i18n/catalogs.test.ts keeps screens off them.
 */
export const SERVER_ONLY_NAMESPACES = ["push.", "bill.", "faqc.", "aid."] as const;

export const isServerOnlyKey = (key: string) => SERVER_ONLY_NAMESPACES.some((n) => key.startsWith(n));
