// Security events and the security score (issue 15, docs/product/security.md): events are written where the thing happens,
// the score follows the account's stored state, and the overview lists only the newest 4 events.
import { env } from "cloudflare:test";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { SECURITY_EVENTS_SHOWN } from "../../core/security";
import { anonymousSession, call, signInByCode, verifiedSession } from "../../tests/workers/helpers";

type Overview = {
  score: number;
  label: string;
  features: { id: string; enabled: boolean }[];
  events: { kind: string; type: string; severity: string; message: string }[];
  backupCodesLeft: number;
};

const overview = async (cookie: string) => (await call("/api/security/overview", { cookie })).json<Overview>();
const kinds = async (userId: string) =>
  (
    await env.DB.prepare("select kind from security_events where user_id = ? order by created_at, rowid")
      .bind(userId)
      .all<{ kind: string }>()
  ).results.map((r) => r.kind);
const totpNow = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
// 32 bytes in base64url: a syntactically valid X25519 public key.
const key = (fill: string) => fill.repeat(43);

describe("security events", () => {
  it("record two-factor on, a wrong code and two-factor off, and the score follows", async () => {
    const { cookie, id } = await verifiedSession("0816");
    const before = await overview(cookie);
    // Only end-to-end encryption is on for a new account: 1 of 8.
    expect(before).toMatchObject({ score: 13, label: "Poor", backupCodesLeft: 0 });

    const setup = await call("/api/security/two-factor/setup", { method: "POST", cookie, json: {} });
    const { setup: s } = await setup.json<{ setup: { secret: string } }>();
    expect((await call("/api/security/two-factor/enable", { method: "POST", cookie, json: { code: "000000" } })).status).toBe(400);
    const on = await call("/api/security/two-factor/enable", { method: "POST", cookie, json: { code: totpNow(s.secret) } });
    const { backupCodes } = await on.json<{ backupCodes: string[] }>();
    const after = await overview(cookie);
    expect(after).toMatchObject({ score: 25, backupCodesLeft: 10 });
    expect(after.features.find((f) => f.id === "two_factor")?.enabled).toBe(true);
    expect(after.events[0]).toMatchObject({ kind: "two_factor_on", type: "audit", message: "Two-factor authentication turned on" });
    expect(after.events[1]).toMatchObject({ kind: "failed_code", type: "breach_attempt", severity: "medium" });

    await call("/api/security/two-factor/disable", { method: "POST", cookie, json: { code: backupCodes[0] } });
    expect(await kinds(id)).toEqual(["failed_code", "two_factor_on", "two_factor_off"]);
    expect((await overview(cookie)).score).toBe(13);
  });

  it("count stealth mode and anonymity in the score from the stored settings", async () => {
    const { cookie } = await anonymousSession();
    await call("/api/me", { method: "PATCH", cookie, json: { stealthMode: true, anonymousMode: true } });
    expect(await overview(cookie)).toMatchObject({ score: 38, label: "Poor" });
  });

  it("record a new device key and a changed key, not a key published again", async () => {
    const { cookie, user } = await anonymousSession();
    const put = (publicKey: string) => call("/api/keys", { method: "PUT", cookie, json: { deviceId: "phone-1", publicKey } });
    await put(key("A"));
    await put(key("A"));
    await put(key("B"));
    await call("/api/keys/phone-1", { method: "DELETE", cookie });
    expect(await kinds(user.id)).toEqual(["key_added", "key_changed", "key_removed"]);
    expect((await overview(cookie)).events[1]).toMatchObject({ type: "encryption", severity: "high" });
  });

  it("record a sign-in from another browser and panic use; the overview shows the newest 4", async () => {
    const first = await verifiedSession("0817");
    // The same phone proven in a second browser is a sign-in to the existing account.
    expect((await signInByCode(first.local)).status).toBe(200);
    expect(await kinds(first.id)).toEqual(["sign_in"]);
    expect((await overview(first.cookie)).events[0].message).toBe("New sign-in to your account: A browser on the LinkUp web app");

    for (const fill of ["C", "D", "E", "F"])
      await call("/api/keys", { method: "PUT", cookie: first.cookie, json: { deviceId: `dev-${fill}`, publicKey: key(fill) } });
    expect((await overview(first.cookie)).events).toHaveLength(SECURITY_EVENTS_SHOWN);
    await call("/api/security/panic", { method: "POST", cookie: first.cookie, json: {} });
    expect((await kinds(first.id)).at(-1)).toBe("panic");
  });

  it("answer 401 without a session", async () => {
    expect((await call("/api/security/overview")).status).toBe(401);
  });
});
