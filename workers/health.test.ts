// The placeholders /api/health refuses in production are the values local runs use: wrangler.toml's APP_URL, and
// the example support line and USSD code that only development shows (wrangler.toml leaves both unset).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_PLACEHOLDERS } from "./health";

describe("development placeholders", () => {
  it("are wrangler.toml's APP_URL, and the examples development shows while wrangler.toml leaves the others unset", () => {
    const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
    const value = (name: string) => new RegExp(`^${name} = "(.*)"$`, "m").exec(toml)?.[1];
    expect(value("APP_URL")).toBe(DEVELOPMENT_PLACEHOLDERS.APP_URL);
    expect(value("SUPPORT_PHONE")).toBe("");
    expect(value("USSD_CODE")).toBe("");
    expect(DEVELOPMENT_PLACEHOLDERS.SUPPORT_PHONE).toBe("+2348000000000");
    expect(DEVELOPMENT_PLACEHOLDERS.USSD_CODE).toBe("*384*1234#");
  });
});
