// The staff desk's dead letters say how many people a replay would alert: one person is one person, in every
// screen language (plural forms chosen by Intl.PluralRules, core/i18n/translate.ts).
import { describe, expect, it } from "vitest";
import { translator } from "./catalogs";
import type { UiLanguage } from "./languages";

describe("the staff desk's count of people in a dead letter", () => {
  it("reads one person as one, and many as many, in all seven languages", () => {
    const cases: [UiLanguage, number, string][] = [
      ["english", 1, "1 person"],
      ["english", 3, "3 people"],
      ["pidgin", 1, "1 person"],
      ["pidgin", 50, "50 people"],
      ["french", 1, "1 personne"],
      ["french", 2, "2 personnes"],
      ["hausa", 1, "mutum 1"],
      ["hausa", 7, "mutane 7"],
      ["yoruba", 1, "ènìyàn 1"],
      ["igbo", 1, "mmadụ 1"],
      ["arabic", 1, "شخص واحد"],
      ["arabic", 2, "شخصان"],
      ["arabic", 3, "3 أشخاص"],
    ];
    for (const [language, count, text] of cases)
      expect([language, translator(language)("sd.deadPeople", { count })]).toEqual([language, text]);
  });
});
