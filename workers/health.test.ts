// The placeholders /api/health refuses in production are exactly wrangler.toml's development values.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_PLACEHOLDERS } from "./health";

describe("development placeholders", () => {
  it("match wrangler.toml's [vars]", () => {
    const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
    for (const [name, value] of Object.entries(DEVELOPMENT_PLACEHOLDERS)) {
      expect(new RegExp(`^${name} = "(.*)"$`, "m").exec(toml)?.[1], name).toBe(value);
    }
  });
});
