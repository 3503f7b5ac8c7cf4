// The live figures of /machine-learning: answered assistant commands counted from usage_daily, nothing invented.
import { describe, expect, it } from "vitest";
import type { AssistantUsageStats } from "../../core/assistant-models";
import { anonymousSession, call } from "../../tests/workers/helpers";

async function stats() {
  const res = await call("/api/stats/assistant");
  expect(res.status).toBe(200);
  return (await res.json()) as AssistantUsageStats;
}

describe("assistant usage figures", () => {
  it("an answered @ai translate adds one question answered and one translation, all time and this week", async () => {
    const before = await stats();
    const { cookie } = await anonymousSession();
    const res = await call("/api/ai/chat", { method: "POST", cookie, json: { message: "translate hello to Hausa" } });
    expect(res.status).toBe(200);
    const after = await stats();
    expect(after.allTime.aiCommands - before.allTime.aiCommands).toBe(1);
    expect(after.allTime.translations - before.allTime.translations).toBe(1);
    expect(after.lastSevenDays.aiCommands - before.lastSevenDays.aiCommands).toBe(1);
  });
});
