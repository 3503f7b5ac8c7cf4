import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED_DIGITS, redactMessageBody } from "./redact";

describe("redactMessageBody", () => {
  it("hides a verification code, phone numbers and links, and keeps the words", () => {
    expect(redactMessageBody("Your LinkUp verification code is 031911. Never share it.")).toBe(
      "Your LinkUp verification code is ••••••. Never share it.",
    );
    expect(redactMessageBody("Call +234 803 555 0101 or 0803-555-0101")).toBe("Call •••••• or ••••••");
    expect(redactMessageBody("Map: https://maps.google.com/?q=9.07650,7.39860 now")).toBe("Map: [link] now");
    expect(redactMessageBody("Premium renews on day 3 for ₦2,500")).toBe("Premium renews on day 3 for ₦2,500");
  });

  it("leaves no run of four digits, whatever surrounds a code", () => {
    fc.assert(
      fc.property(fc.string(), fc.stringMatching(/^\d{4,8}$/), fc.string(), (before, code, after) => {
        const kept = redactMessageBody(`${before} ${code} ${after}`);
        expect(kept).not.toMatch(/\d(?:[\s.-]?\d){3}/);
        expect(kept).toContain(REDACTED_DIGITS);
      }),
    );
  });
});
