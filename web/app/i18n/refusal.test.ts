// Refusals reach the person in their language by code, never by matching English words
// (docs/decisions/075-errors-as-codes.md).
import { describe, expect, it } from "vitest";
import { HttpError } from "../../../core/http";
import { CATALOGS, translator } from "../../../core/i18n/catalogs";
import type { UiLanguage } from "../../../core/i18n/languages";
import { offerOf, refusalOf, sayRefusal, type Said, type SayOptions } from "./refusal";

const say = (language: UiLanguage, said: Said, options?: SayOptions) =>
  sayRefusal(said, translator(language), (key) => key in CATALOGS[language], options);

describe("saying a refusal", () => {
  it("says the API's code in the language, filled with its values", () => {
    const body = {
      error: "You've used your 50 file transfers for this month. They renew on the 1st.",
      code: "file_month_full",
      values: { limit: 50 },
    };
    expect(say("hausa", body)).toBe("Ka yi amfani da tura fayiloli 50 na wannan wata. Za su sabunta a ranar 1 ga wata.");
    expect(say("english", body)).toBe(body.error);
    expect(
      say("yoruba", { error: "Type DELETE MY ACCOUNT to confirm", code: "delete_phrase_wrong", values: { phrase: "DELETE MY ACCOUNT" } }),
    ).toBe("Tẹ DELETE MY ACCOUNT láti jẹ́rìísí");
  });

  it("does not read the English words: a changed sentence with a known code is still translated", () => {
    expect(say("french", { error: "Some other wording", code: "two_factor_wrong_code" })).toBe(
      translator("french")("errors.two_factor_wrong_code"),
    );
    // Words without a code LinkUp knows are shown as they came, even when they are a sentence a catalog holds.
    expect(say("hausa", { error: "Room not found" })).toBe("Room not found");
    expect(say("hausa", { error: "Room not found", code: "no_such_code" })).toBe("Room not found");
    expect(say("hausa", "Room not found")).toBe("Room not found");
  });

  it("says an invalid field in the screen's own words", () => {
    const body = {
      error: "Invalid request: unit: Give a unit such as 50kg",
      code: "invalid_request",
      values: { field: "unit", detail: "Give a unit such as 50kg" },
    };
    expect(say("french", body, { fields: { unit: "mp.err.unit" } })).toBe(
      "Indiquez une unité comme 50kg, sac, tubercule, panier ou litre.",
    );
    expect(say("english", body)).toBe("Invalid request: Give a unit such as 50kg");
  });

  it("reads an HTTP error's body, and says the web's own refusals by their key", () => {
    const refused = new HttpError(429, JSON.stringify({ error: "Too many SOS", code: "too_many_sos" }));
    expect(say("pidgin", refused)).toBe(translator("pidgin")("errors.too_many_sos"));
    expect(say("yoruba", { key: "sec.triesLeft", vars: { count: 2 } })).toBe(translator("yoruba")("sec.triesLeft", { count: 2 }));
    expect(say("hausa", null)).toBe("");
  });

  it("keeps a body's refusal and its offer apart", () => {
    expect(refusalOf({ error: "x", code: "voice_premium", offer: "premium_feature", upgrade: {} })).toEqual({
      error: "x",
      code: "voice_premium",
    });
    expect(offerOf({ error: "x", code: "ai_commands_limit", offer: "limit_reached" })).toEqual({
      error: { error: "x", code: "ai_commands_limit" },
      code: "limit_reached",
    });
    expect(refusalOf("not a body")).toBeNull();
  });
});
