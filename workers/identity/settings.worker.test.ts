// Profile and settings live on the server (docs/product/settings-and-notifications.md): saved with
// PATCH /api/me, read back with GET /api/me, kept across sign-out and sign-in on another device.
import { describe, expect, it } from "vitest";
import { anonymousSession, call, setTier, signInByCode } from "../../tests/workers/helpers";

/** Signs a browser (cookie or none) in with a phone; returns the verified session cookie. */
async function signInWithPhone(phone: string, cookie?: string) {
  const signed = await signInByCode(phone, { cookie });
  expect(signed.status).toBe(200);
  return signed.cookie;
}

type MeBody = {
  user: {
    id: string;
    nickname: string;
    tier: string;
    role: string;
    authMode: string;
    locationText: string | null;
    settings: Record<string, unknown>;
  };
};

async function me(cookie: string) {
  return call("/api/me", { cookie });
}

const ALL_SETTINGS = {
  language: "yoruba",
  quietStart: "23:15",
  quietEnd: "06:30",
  networkRange: "long",
  powerSaving: "battery",
  autoDelete: "1week",
  meshNetworking: false,
  pushEnabled: false,
  anonymousMode: true,
  stealthMode: true,
};

describe("settings", () => {
  it("start with the product's defaults", async () => {
    const { cookie } = await anonymousSession();
    const { user } = await (await me(cookie)).json<MeBody>();
    expect(user.settings).toEqual({
      language: "english",
      quietStart: "22:00",
      quietEnd: "07:00",
      networkRange: "auto",
      powerSaving: "balanced",
      autoDelete: "never",
      meshNetworking: true,
      pushEnabled: true,
      anonymousMode: false,
      stealthMode: false,
    });
    expect(user).toMatchObject({ authMode: "anonymous", role: "user", tier: "free" });
  });

  it("saves every settings field and the profile on the server", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/me", { method: "PATCH", cookie, json: { nickname: "Efe", locationText: "Warri", ...ALL_SETTINGS } });
    expect(res.status).toBe(200);
    const { user } = await (await me(cookie)).json<MeBody>();
    expect(user).toMatchObject({ nickname: "Efe", locationText: "Warri", settings: ALL_SETTINGS });
  });

  it("refuses values outside the offered options", async () => {
    const { cookie } = await anonymousSession();
    for (const bad of [
      { language: "klingon" },
      { quietStart: "25:00" },
      { networkRange: "huge" },
      { autoDelete: "1year" },
      { nickname: "" },
    ]) {
      const res = await call("/api/me", { method: "PATCH", cookie, json: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await res.json<{ error: string }>()).error).toMatch(/^Invalid request: /);
    }
  });

  it("survive sign-out and sign-in with the phone on another device", async () => {
    const phone = "+2348070001234";
    const first = await signInWithPhone(phone);
    await call("/api/me", { method: "PATCH", cookie: first, json: { nickname: "Halima", ...ALL_SETTINGS } });
    const out = await call("/api/auth/logout", { method: "POST", cookie: first });
    expect(out.status).toBe(200);
    // Sign-out ends the session on the server: the old cookie no longer works.
    expect((await me(first)).status).toBe(401);

    const other = await anonymousSession();
    const second = await signInWithPhone(phone, other.cookie);
    const { user } = await (await me(second)).json<MeBody>();
    expect(user).toMatchObject({ nickname: "Halima", authMode: "verified", settings: ALL_SETTINGS });
  });

  it("report the tier the server holds", async () => {
    const { cookie, user } = await anonymousSession();
    await setTier(user.id, "premium");
    expect((await (await me(cookie)).json<MeBody>()).user.tier).toBe("premium");
    // A client cannot give itself a tier or a role.
    await call("/api/me", { method: "PATCH", cookie, json: { tier: "enterprise", subscriptionTier: "enterprise", role: "admin" } });
    expect((await (await me(cookie)).json<MeBody>()).user).toMatchObject({ tier: "premium", role: "user" });
  });
});
