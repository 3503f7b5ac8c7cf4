// The one message formatter of the web app, the push texts and the phone channels: {name} placeholders and
// plural forms chosen by Intl.PluralRules for the language. No catalog here, so screens that import it stay small.

/** A message: plain text, or its plural forms keyed by Intl.PluralRules category ('other' always present). */
export type Message = string | ({ other: string } & Partial<Record<Intl.LDMLPluralRule, string>>);
export type Vars = Record<string, string | number>;

export function fillPlaceholders(template: string, vars: Vars = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** Formats one message; a plural message picks its form by `vars.count`. */
export function formatMessage(message: Message | undefined, tag: string, vars: Vars = {}, fallback = ""): string {
  if (message === undefined) return fallback;
  if (typeof message === "string") return fillPlaceholders(message, vars);
  const count = Number(vars.count ?? 0);
  // 'zero' is offered for languages (such as Arabic) whose rules name it; a catalog may also spell out 0.
  const form = (count === 0 && message.zero) || message[new Intl.PluralRules(tag).select(count)] || message.other;
  return fillPlaceholders(form, { ...vars, count: new Intl.NumberFormat(tag).format(count) });
}

/** Naira as people read it: ₦2,500 (no kobo for whole amounts). */
export function formatNaira(amount: number, tag: string): string {
  return new Intl.NumberFormat([`${tag}-NG`, "en-NG"], {
    style: "currency",
    currency: "NGN",
    currencyDisplay: "narrowSymbol",
    maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
}

export function formatDate(value: string | number | Date, tag: string, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat([`${tag}-NG`, tag, "en-NG"], { timeZone: "Africa/Lagos", ...options }).format(new Date(value));
}

export function formatTime(value: string | number | Date, tag: string) {
  return formatDate(value, tag, { hour: "numeric", minute: "2-digit" });
}

// "… ago" for the languages browsers' Intl data leaves out (Chrome ships no Hausa, Yoruba or Igbo relative
// times, so they read "2 minutes ago", issue 32). The same words on the server and the phone, so they also match
// when a page hydrates. Written by the team, not yet by native speakers (docs/i18n-review.md).
const AGO: Record<string, Record<"minute" | "hour" | "day", string>> = {
  ha: { minute: "minti {n} da suka wuce", hour: "awa {n} da suka wuce", day: "kwana {n} da suka wuce" },
  yo: { minute: "ìṣẹ́jú {n} sẹ́yìn", hour: "wákàtí {n} sẹ́yìn", day: "ọjọ́ {n} sẹ́yìn" },
  ig: { minute: "nkeji {n} gara aga", hour: "awa {n} gara aga", day: "ụbọchị {n} gara aga" },
};

/** "5 minutes ago" in the language, from a past time; languages Intl lacks read English rather than a code. */
export function formatAgo(past: number, tag: string, now = Date.now()): string {
  const minutes = Math.max(1, Math.round((now - past) / 60_000));
  const [value, unit]: [number, "minute" | "hour" | "day"] =
    minutes < 60 ? [minutes, "minute"] : minutes < 1440 ? [Math.round(minutes / 60), "hour"] : [Math.round(minutes / 1440), "day"];
  const own = AGO[tag];
  if (own) return own[unit].replace("{n}", new Intl.NumberFormat(tag).format(value));
  return new Intl.RelativeTimeFormat([tag, "en"], { numeric: "always" }).format(-value, unit);
}

/** A distance in kilometres, one decimal at most, with the language's digits and unit ("2.5 km"). */
export function formatKm(km: number, tag: string): string {
  return new Intl.NumberFormat([`${tag}-NG`, tag, "en-NG"], { style: "unit", unit: "kilometer", maximumFractionDigits: 1 }).format(km);
}

/** A distance from metres: under 1 km in metres rounded to 10 ("140 m"), else kilometres ("2.4 km"), in the language. */
export function formatDistanceIn(metres: number, tag: string): string {
  if (metres >= 1000) return formatKm(Math.floor(metres / 100) / 10, tag);
  return new Intl.NumberFormat([`${tag}-NG`, tag, "en-NG"], { style: "unit", unit: "meter" }).format(Math.round(metres / 10) * 10);
}
