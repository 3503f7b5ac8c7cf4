import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../../core/i18n/catalogs";
import { UI_LANGUAGES } from "../../../core/i18n/languages";
import { decodeWords, encodeWords } from "./words-codec";

describe("a page's words as one string", () => {
  it.each(UI_LANGUAGES)("gives back every message of the %s catalog as it was, plurals included", (language) => {
    const catalog = CATALOGS[language];
    expect(decodeWords(encodeWords(catalog))).toEqual(catalog);
  });

  it("holds no words for an empty set", () => {
    expect(decodeWords(encodeWords({}))).toEqual({});
  });
});
