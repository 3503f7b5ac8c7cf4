// The root's loader is skipped only after actions that cannot have changed the visitor (docs/decisions/057).
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import { rootShouldRevalidate } from "./revalidate";

function submitted(formAction: string, fields: Record<string, string>, actionResult?: unknown): ShouldRevalidateFunctionArgs {
  const formData = new FormData();
  for (const [k, v] of Object.entries(fields)) formData.set(k, v);
  const url = new URL(`http://localhost${formAction}`);
  return {
    currentUrl: url,
    currentParams: {},
    nextUrl: url,
    nextParams: {},
    formMethod: "POST",
    formAction,
    formData,
    actionResult,
    actionStatus: 200,
    defaultShouldRevalidate: true,
  } as ShouldRevalidateFunctionArgs;
}

describe("the root loader after an action", () => {
  it("is not asked again after an SOS sent with the visitor's own session", () => {
    expect(
      rootShouldRevalidate(submitted("/emergency", { intent: "broadcast" }, { intent: "broadcast", ok: true, visitorChanged: false })),
    ).toBe(false);
  });

  it("is asked again when the SOS had to start a session (a new visitor)", () => {
    expect(
      rootShouldRevalidate(submitted("/emergency", { intent: "broadcast" }, { intent: "broadcast", ok: true, visitorChanged: true })),
    ).toBe(true);
    // An answer that does not say (a redirect, an error page) keeps React Router's default.
    expect(rootShouldRevalidate(submitted("/emergency", { intent: "contact-add" }, undefined))).toBe(true);
  });

  it("is not asked again after the chat's room forms, but is after the town is set", () => {
    expect(rootShouldRevalidate(submitted("/chat", { intent: "block", userId: "u1" }))).toBe(false);
    expect(rootShouldRevalidate(submitted("/chat?room=dm%3Aa%3Ab", { intent: "accept-request", roomId: "dm:a:b" }))).toBe(false);
    expect(rootShouldRevalidate(submitted("/chat", { intent: "set-town", town: "Yaba" }))).toBe(true);
    expect(rootShouldRevalidate(submitted("/chat", { phone: "08031234567" }))).toBe(true);
  });

  it("is asked again after any other page's action (settings change the language, the stealth icon)", () => {
    expect(rootShouldRevalidate(submitted("/settings", { intent: "save" }, { ok: true, visitorChanged: false }))).toBe(true);
    expect(rootShouldRevalidate(submitted("/notifications", { intent: "read" }))).toBe(true);
  });
});
