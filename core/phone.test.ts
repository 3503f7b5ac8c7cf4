import { describe, expect, it } from "vitest";
import { nicknameFromPhone, normalizePhone } from "./phone";

describe("normalizePhone (spec part 2 §5)", () => {
  it.each([
    ["08031234567", "+2348031234567"],
    ["0803 123 4567", "+2348031234567"],
    ["8031234567", "+2348031234567"],
    ["+2348031234567", "+2348031234567"],
    ["2348031234567", "+2348031234567"],
    ["+44 20 7946 0958", "+442079460958"],
    ["(0803) 123-4567", "+2348031234567"],
  ])("%s → %s", (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it("gives null when there are no digits", () => {
    expect(normalizePhone("  call me ")).toBeNull();
  });

  it("names a chat joiner 'User ' plus the last 4 characters", () => {
    expect(nicknameFromPhone("08031234567")).toBe("User 4567");
  });
});
