import { describe, expect, it } from "vitest";
import { missedCallText } from "./calls";

const entry = (meta: Record<string, unknown>, senderId = "system", type = "system") => ({ senderId, type, meta });
const missed = { event: "missed-call", callId: "c1", callerId: "ada", callerName: "Ada", calleeId: "bola", reason: "missed" };

describe("the missed-call entry", () => {
  it("reads from each side of the call", () => {
    expect(missedCallText(entry(missed), "bola")).toBe("Missed call from Ada");
    expect(missedCallText(entry(missed), "ada")).toBe("Call not answered");
    expect(missedCallText(entry({ ...missed, reason: "declined" }), "bola")).toBe("You declined a call from Ada");
    expect(missedCallText(entry({ ...missed, reason: "declined" }), "ada")).toBe("Call declined");
  });

  it("is only the room's own system entry, never a member's message", () => {
    expect(missedCallText(entry(missed, "ada", "text"), "bola")).toBeNull();
    expect(missedCallText(entry(missed, "ada"), "bola")).toBeNull();
    expect(missedCallText(entry({ event: "other" }), "bola")).toBeNull();
  });
});
