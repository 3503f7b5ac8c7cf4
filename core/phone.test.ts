import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nicknameFromPhone } from "./identity";
import { normalizePhone, parsePhone } from "./phone";

describe("normalizePhone: one strict E.164 parser, Nigeria by default", () => {
  it.each([
    ["08031234567", "+2348031234567"],
    ["0803 123 4567", "+2348031234567"],
    ["8031234567", "+2348031234567"],
    ["+2348031234567", "+2348031234567"],
    ["2348031234567", "+2348031234567"],
    ["+234 0803 123 4567", "+2348031234567"],
    ["234 0803 123 4567", "+2348031234567"],
    ["00234 803 123 4567", "+2348031234567"],
    ["(0803) 123-4567", "+2348031234567"],
    ["+234-803-123-4567", "+2348031234567"],
    ["09012345678", "+2349012345678"],
    ["+44 7911 123456", "+447911123456"],
  ])("%s → %s", async (input, expected) => {
    expect(await normalizePhone(input)).toBe(expected);
  });

  it.each([
    ["80312345678", "11 digits without the leading 0"],
    ["0803123456", "one digit short"],
    ["080312345678", "one digit too many"],
    ["+234803123456789", "too long for E.164 in Nigeria"],
    ["+234 803 123 4567 ext 12", "an extension"],
    ["08031234567x12", "an extension"],
    ["0803abc4567", "letters"],
    ["0800 000 0000", "a toll-free number cannot get a code"],
    ["+1 555 0100", "too short for its country"],
    ["12345", "too short"],
  ])("refuses %s (%s)", async (input) => {
    expect(await parsePhone(input)).toEqual({ ok: false, reason: "invalid" });
    expect(await normalizePhone(input)).toBeNull();
  });

  it("tells an empty answer from an invalid one", async () => {
    expect(await parsePhone("   ")).toEqual({ ok: false, reason: "empty" });
    expect(await parsePhone("  call me ")).toEqual({ ok: false, reason: "invalid" });
  });

  it("gives every written form of a Nigerian mobile number the same E.164 number (property)", async () => {
    const prefixes = ["803", "806", "813", "816", "703", "706", "903", "906", "805", "807", "815", "905"];
    const forms = (p: string, rest: string) => [
      `0${p}${rest}`,
      `${p}${rest}`,
      `234${p}${rest}`,
      `+234${p}${rest}`,
      `+234 0${p} ${rest.slice(0, 3)} ${rest.slice(3)}`,
      `(0${p}) ${rest.slice(0, 3)}-${rest.slice(3)}`,
      `00234${p}${rest}`,
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...prefixes), fc.stringMatching(/^\d{7}$/), async (p, rest) => {
        for (const form of forms(p, rest)) expect(await normalizePhone(form)).toBe(`+234${p}${rest}`);
      }),
    );
  });

  it("never gives anything but E.164, and is stable on its own answer (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 24 }), async (input) => {
        const phone = await normalizePhone(input);
        if (phone === null) return;
        expect(phone).toMatch(/^\+[1-9]\d{6,14}$/);
        expect(await normalizePhone(phone)).toBe(phone);
      }),
    );
  });

  it("names a chat joiner 'User ' plus the last 4 characters", () => {
    expect(nicknameFromPhone("08031234567")).toBe("User 4567");
  });
});
