import { afterEach, describe, expect, it } from "vitest";
import { armFault, faultPoint, faultPointsPassed, InjectedFault, resetFaults } from "./faults";

describe("fault points", () => {
  afterEach(resetFaults);

  it("pass silently unless armed, and an armed point fails as many times as asked", async () => {
    await expect(faultPoint("a")).resolves.toBeUndefined();
    armFault("a", 2);
    await expect(faultPoint("a")).rejects.toBeInstanceOf(InjectedFault);
    await expect(faultPoint("b")).resolves.toBeUndefined();
    await expect(faultPoint("a")).rejects.toThrow("injected fault at a");
    await expect(faultPoint("a")).resolves.toBeUndefined();
    expect(faultPointsPassed()).toEqual(["a", "a", "b", "a", "a"]);
  });

  it("hang only in development, where the SIGKILL runner asked for it", async () => {
    await expect(faultPoint("x", { ENVIRONMENT: "production", FAULT_HANG_AT: "x" })).resolves.toBeUndefined();
    const hung = await Promise.race([
      faultPoint("x", { ENVIRONMENT: "development", FAULT_HANG_AT: "x" }).then(() => "returned"),
      new Promise((r) => setTimeout(() => r("still waiting"), 20)),
    ]);
    expect(hung).toBe("still waiting");
  });
});
