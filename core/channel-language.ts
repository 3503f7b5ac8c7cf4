// The five languages of the phone channels (USSD, WhatsApp, SMS) and the placeholder filler their texts use; the texts
// themselves are in ./ussd-texts.ts, which re-exports these.
export const CHANNEL_LANGUAGES = ["english", "hausa", "yoruba", "igbo", "pidgin"] as const;
export type ChannelLanguage = (typeof CHANNEL_LANGUAGES)[number];

/** How each language names itself on the language screen and in WhatsApp's LANG answer. */
export const CHANNEL_LANGUAGE_NAMES: Record<ChannelLanguage, string> = {
  english: "English",
  hausa: "Hausa",
  yoruba: "Yoruba",
  igbo: "Igbo",
  pidgin: "Pidgin",
};

/** A channel language from what a person types: 'Hausa', 'ha', 'naija', 'pcm' … ; null when not offered. */
export function resolveChannelLanguage(input: string | null | undefined): ChannelLanguage | null {
  const key = (input ?? "").trim().toLowerCase();
  if (!key) return null;
  const aliases: Record<string, ChannelLanguage> = {
    en: "english",
    eng: "english",
    english: "english",
    ha: "hausa",
    hausa: "hausa",
    yo: "yoruba",
    yoruba: "yoruba",
    yorùbá: "yoruba",
    ig: "igbo",
    igbo: "igbo",
    pidgin: "pidgin",
    "nigerian pidgin": "pidgin",
    "pidgin english": "pidgin",
    naija: "pidgin",
    pcm: "pidgin",
  };
  return aliases[key] ?? null;
}

/** Fills {name} placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
