// Every complete language has every key, no key is left unused, and the machinery picks and formats the
// language a person reads (docs/decisions/031-web-app-languages.md).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGS, translator } from "./catalogs";
import { en } from "./en";
import { chooseLanguage, directionOf, fromAcceptLanguage, isServerOnlyKey, UI_LANGUAGES } from "./languages";
import { formatAgo, formatDistanceIn, formatKm, formatMessage, formatNaira, type Message } from "./translate";

const placeholders = (m: Message) =>
  [...new Set((typeof m === "string" ? [m] : Object.values(m)).flatMap((s) => [...(s ?? "").matchAll(/\{(\w+)\}/g)].map((x) => x[1])))]
    .filter((p) => p !== "count")
    .sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" || name === "+types" ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("message catalogs", () => {
  const keys = Object.keys(en).sort();

  it.each(UI_LANGUAGES)("%s has exactly the English keys, with the same placeholders", (language) => {
    const catalog = CATALOGS[language] as Record<string, Message>;
    expect(Object.keys(catalog).sort()).toEqual(keys);
    for (const key of keys) {
      const message = catalog[key];
      expect(typeof message === "string" ? message.trim() : message.other.trim(), `${language} ${key}`).not.toBe("");
      expect(placeholders(message), `${language} ${key}`).toEqual(placeholders((en as Record<string, Message>)[key]));
    }
  });

  it("has no key that no code uses", () => {
    const roots = ["web/app", "workers", "core"].map((d) => join(__dirname, "../..", d));
    const code = roots
      .flatMap(sourceFiles)
      .filter((f) => !f.includes(join("core", "i18n")))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    // The errors.* keys are reached by code (core/api-errors.ts; core/api-errors.test.ts checks them).
    const unused = keys.filter((k) => !k.startsWith("errors.") && !code.includes(`"${k}"`));
    expect(unused).toEqual([]);
  });

  it("keeps screens off the words only the server sends, which pages do not carry", () => {
    const screens = sourceFiles(join(__dirname, "../..", "web/app"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const onScreens = keys.filter((k) => isServerOnlyKey(k) && screens.includes(`"${k}"`));
    expect(onScreens).toEqual([]);
    expect(keys.filter(isServerOnlyKey).length).toBeGreaterThan(0);
  });
});

describe("choosing the language", () => {
  it("takes the saved setting first, then Accept-Language, then English", () => {
    expect(chooseLanguage("hausa", "fr-FR,fr;q=0.9")).toBe("hausa");
    expect(chooseLanguage(null, "fr-FR,fr;q=0.9,en;q=0.5")).toBe("french");
    expect(chooseLanguage(undefined, "de-DE, yo;q=0.8, ha;q=0.9")).toBe("hausa");
    expect(chooseLanguage(null, "de-DE")).toBe("english");
    expect(chooseLanguage(null, null)).toBe("english");
  });

  it("shows English screens for a saved language the web app does not speak yet", () => {
    expect(chooseLanguage("swahili", "ha")).toBe("english");
  });

  it("reads Pidgin's tag and ignores refused languages", () => {
    expect(fromAcceptLanguage("pcm-NG")).toBe("pidgin");
    expect(fromAcceptLanguage("ar;q=0, ig;q=0.3")).toBe("igbo");
  });

  it("writes Arabic right to left", () => {
    expect(directionOf("arabic")).toBe("rtl");
    expect(directionOf("hausa")).toBe("ltr");
  });
});

describe("formatting", () => {
  it("fills placeholders and picks plural forms by the language's rules", () => {
    const t = translator("english");
    expect(t("sos.reachedRoom", { count: 1 })).toBe("1 person in your area room");
    expect(t("sos.reachedRoom", { count: 3 })).toBe("3 people in your area room");
    expect(translator("hausa")("sos.call", { number: "112" })).toBe("Kira 112");
    expect(formatMessage({ one: "شخص واحد", two: "شخصان", few: "{count} أشخاص", other: "{count} شخصًا" }, "ar", { count: 2 })).toBe("شخصان");
  });

  it("writes naira the way Nigerians read it", () => {
    expect(formatNaira(2500, "en")).toBe("₦2,500");
    expect(formatNaira(2500, "ha")).toContain("2,500");
  });

  it("says how long ago and how far in the language", () => {
    const now = Date.UTC(2026, 10, 23, 12);
    expect(formatAgo(now - 5 * 60_000, "en", now)).toBe("5 minutes ago");
    expect(formatAgo(now - 3 * 3_600_000, "fr", now)).toBe("il y a 3 heures");
    // Browsers carry no Hausa, Yoruba or Igbo relative times: the words are LinkUp's own (issue 32).
    expect(formatAgo(now - 2 * 60_000, "ha", now)).toBe("minti 2 da suka wuce");
    expect(formatAgo(now - 2 * 86_400_000, "yo", now)).toBe("ọjọ́ 2 sẹ́yìn");
    expect(formatKm(2.54, "en")).toBe("2.5 km");
    expect(formatKm(12, "fr")).toMatch(/^12\skm$/);
    expect(formatDistanceIn(143, "en")).toBe("140 m");
    expect(formatDistanceIn(2449, "en")).toBe("2.4 km");
    expect(formatDistanceIn(2449, "fr")).toMatch(/^2,4\skm$/);
  });
});
