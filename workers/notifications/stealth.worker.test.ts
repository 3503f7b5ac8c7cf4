// Stealth mode (issue 15): the setting lives on the server, and a push to a person who has it on says only
// that something arrived — not the title, the text, or who sent it.
import { describe, expect, it } from "vitest";
import { anonymousSession, call } from "../../tests/workers/helpers";
import { payloadFor } from ".";

const SOS = {
  id: "n1",
  type: "emergency" as const,
  title: "SOS nearby: flood",
  content: "Ade needs help at 12 Broad Street",
  priority: "critical" as const,
  url: "/emergency",
};

describe("stealth mode", () => {
  it("is saved with the person's settings", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/me", { method: "PATCH", cookie, json: { stealthMode: true } });
    expect(((await res.json()) as { user: { settings: { stealthMode: boolean } } }).user.settings.stealthMode).toBe(true);
  });

  it("pushes a neutral text instead of the notification's content", () => {
    const neutral = payloadFor(SOS, true);
    expect(neutral).toMatchObject({
      title: "New notification",
      body: "Open the app to read it.",
      url: "/notifications",
      priority: "critical",
    });
    expect(JSON.stringify(neutral)).not.toMatch(/SOS|flood|Ade|Broad|emergency/);
    expect(payloadFor(SOS, false)).toMatchObject({ title: SOS.title, body: SOS.content });
  });
});
