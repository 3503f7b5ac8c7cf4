import { describe, expect, it } from "vitest";
import { lockDue, newPinRecord, parseAppLock, pinMatches } from "./app-lock";

describe("app lock", () => {
  it("keeps the PIN only as a salted PBKDF2 hash that the right PIN matches", async () => {
    const record = await newPinRecord("2580", 1000);
    expect(JSON.stringify(record)).not.toContain("2580");
    expect(await pinMatches("2580", record)).toBe(true);
    expect(await pinMatches("2581", record)).toBe(false);
    expect((await newPinRecord("2580", 1000)).hash).not.toBe(record.hash);
  });

  it("locks once the chosen idle time has passed, and never without a lock set", () => {
    const config = { minutes: 5 as const, pin: null };
    expect(lockDue(config, 0, 4 * 60_000)).toBe(false);
    expect(lockDue(config, 0, 5 * 60_000)).toBe(true);
    expect(lockDue(config, null, 0)).toBe(true);
    expect(lockDue(null, 0, 10 ** 9)).toBe(false);
    expect(parseAppLock('{"minutes":7,"pin":null}')).toBeNull();
    expect(parseAppLock("not json")).toBeNull();
  });
});
