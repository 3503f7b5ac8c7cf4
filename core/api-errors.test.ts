// Every code the API sends has its message in every language the web speaks, with the values the message needs
// (docs/decisions/075-errors-as-codes.md).
import { describe, expect, it } from "vitest";
import { API_ERROR_CODES } from "./api-errors";
import { CATALOGS } from "./i18n/catalogs";
import { en } from "./i18n/en";
import { UI_LANGUAGES } from "./i18n/languages";

describe("API error codes", () => {
  it.each(UI_LANGUAGES)("each has a message in %s", (language) => {
    const catalog = CATALOGS[language] as Record<string, unknown>;
    const missing = API_ERROR_CODES.filter((code) => typeof catalog[`errors.${code}`] !== "string");
    expect(missing).toEqual([]);
  });

  it("are the whole errors.* group: no message waits for a code that is gone", () => {
    const keys = Object.keys(en).filter((k) => k.startsWith("errors."));
    expect(keys.sort()).toEqual(API_ERROR_CODES.map((c) => `errors.${c}`).sort());
  });
});
