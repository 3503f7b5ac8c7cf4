// The API's English file and call refusals reach the person in their language (docs/decisions/031-web-app-languages.md).
import { describe, expect, it } from "vitest";
import { translator } from "../../../core/i18n/catalogs";
import { translateApiError } from "./api-errors";

describe("file and call refusals", () => {
  const t = translator("hausa");

  it("translates a month's file limit with its number", () => {
    expect(translateApiError("You've used your 50 file transfers for this month. They renew on the 1st.", t)).toBe(
      "Ka yi amfani da tura fayiloli 50 na wannan wata. Za su sabunta a ranar 1 ga wata.",
    );
  });

  it("translates a call the room refused", () => {
    expect(translateApiError("A call is already on in this chat.", t)).toBe("Akwai kira da ake yi a wannan hira.");
    expect(translateApiError("Voice calling requires phone verification. Verify your phone in Settings.", translator("french"))).toContain(
      "vérification du téléphone",
    );
  });
});

describe("security refusals", () => {
  it("translates a wrong second-factor code and the tries left", () => {
    const yo = translator("yoruba");
    expect(translateApiError("Invalid code. Please try again.", yo)).toBe("Kóòdù kò tọ̀nà. Jọ̀ọ́ gbìyànjú lẹ́ẹ̀kan sí i.");
    expect(translateApiError("2 tries left.", translator("french"))).toBe("Encore 2 essais.");
    expect(translateApiError("1 try left.", translator("english"))).toBe("1 try left.");
  });

  it("keeps the confirmation phrase and the passkey limit as they are", () => {
    expect(translateApiError("Type DELETE MY ACCOUNT to confirm", translator("hausa"))).toBe("Rubuta DELETE MY ACCOUNT don tabbatarwa");
    expect(translateApiError("You can keep at most 10 passkeys", translator("pidgin"))).toBe("You fit keep only 10 passkeys");
  });
});

describe("price report refusals", () => {
  it("translates the schema's reason and the day's limit (core/price-reports.ts)", () => {
    expect(translateApiError("Invalid request: unit: Give a unit such as 50kg, bag, tuber, basket or litre", translator("french"))).toBe(
      "Indiquez une unité comme 50kg, sac, tubercule, panier ou litre.",
    );
    expect(translateApiError("You have reported the most prices for today. Try again tomorrow.", translator("hausa"))).toBe(
      "Ka kai iyakar farashin da za ka bayar yau. Gwada gobe.",
    );
  });
});
