// The same server with ENVIRONMENT other than "development": no local stand-in answers, and a feature whose
// outside service is missing refuses clearly (docs/decisions/010-production-is-not-development.md).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../db";
import { listOutbound } from "../../db/queries/outbox";
import type { AppEnv } from "../../workers/env";
import { createServer } from "../../workers/server";
import { sendMessage } from "../../workers/services/messaging";
import { fakeTwilio, ORIGIN } from "./helpers";

afterEach(() => vi.restoreAllMocks());

// As wrangler hands a deployed Worker its bindings: ENVIRONMENT unset, Twilio, Stripe and USSD not configured.
const production = { ...(env as unknown as AppEnv), ENVIRONMENT: undefined } as unknown as AppEnv;
const server = createServer(async () => new Response("page", { headers: { "x-linkup-page": "1" } }));

async function request(path: string, init: RequestInit = {}, bindings: AppEnv = production) {
  const ctx = createExecutionContext();
  const res = await server.fetch(new Request(`${ORIGIN}${path}`, init), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function anonymousCookie(): Promise<string> {
  const res = await request("/api/auth/anonymous", { method: "POST" });
  expect(res.status).toBe(201);
  return res.headers.getSetCookie()[0].split(";")[0];
}

describe("production without Twilio", () => {
  it("has no dev outbox", async () => {
    const res = await request("/api/dev/outbox");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found" });
  });

  it("answers phone verification with 503 messaging_unavailable and stores no code", async () => {
    const cookie = await anonymousCookie();
    const res = await request("/api/auth/register", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ phoneNumber: "+2348031234567", channel: "whatsapp" }),
    });
    expect(res.status).toBe(503);
    const body = await res.json<{ code: string; error: string }>();
    expect(body.code).toBe("messaging_unavailable");
    expect(body.error).toMatch(/not available/);
    const codes = await env.DB.prepare("select count(*) as n from verifications where phone = ?")
      .bind("+2348031234567")
      .first<{ n: number }>();
    expect(codes?.n).toBe(0);
  });

  it("refuses to send WhatsApp or SMS instead of keeping them in the outbox", async () => {
    const db = createDb(production);
    const before = (await listOutbound(db, 500)).length;
    const sent = await sendMessage(production, db, { to: "+2348037654321", channel: "sms", body: "SOS from a neighbour" });
    expect(sent).toMatchObject({ status: "failed", unavailable: true });
    expect((await listOutbound(db, 500)).length).toBe(before);
  });

  it("reports degraded health naming what is missing, never values", async () => {
    // Its own address and support number set (placeholders fail health: workers/health.worker.test.ts).
    const configured = {
      ...production,
      APP_URL: "https://linkup.example",
      SUPPORT_PHONE: "+2348031234567",
      USSD_CODE: "*347*88#",
    } as AppEnv;
    const res = await request("/api/health", {}, configured);
    expect(res.status).toBe(200);
    const body = await res.json<{ status: string; missing: string[] }>();
    expect(body.status).toBe("degraded");
    expect(body.missing).toEqual(expect.arrayContaining(["TWILIO_ACCOUNT_SID", "STRIPE_SECRET_KEY", "USSD_SHARED_SECRET"]));
    expect(body.missing).not.toContain("TWILIO_AUTH_TOKEN");
    // Billing by name, like the other services: no provider configured, so it cannot take payments.
    expect((body as unknown as { billing: unknown }).billing).toEqual({
      mode: "unconfigured",
      ready: false,
      missing: ["STRIPE_SECRET_KEY"],
    });
    const halfStripe = { ...configured, STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" } as AppEnv;
    const half = await (await request("/api/health", {}, halfStripe)).json<{ billing: unknown; missing: string[] }>();
    expect(half.billing).toEqual({ mode: "stripe", ready: false, missing: ["STRIPE_WEBHOOK_SECRET"] });
    expect(half.missing).toContain("STRIPE_WEBHOOK_SECRET");
    expect(half.missing).not.toContain("STRIPE_SECRET_KEY");
    expect(JSON.stringify(half)).not.toContain("sk_live_x");
    expect(JSON.stringify(body)).not.toContain("test-twilio-auth-token");
    expect(JSON.stringify(body)).not.toContain("test-session-secret");
  });
});

describe("production USSD callback", () => {
  const form = () =>
    new URLSearchParams({ sessionId: "prod-1", serviceCode: "*384#", phoneNumber: "+2348030009999", networkCode: "62130", text: "" });

  it("refuses every request, and logs it, while USSD_SHARED_SECRET is not set", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await request("/ussd", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form() });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "USSD is not configured on this server", code: "ussd_not_configured" });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("USSD_SHARED_SECRET is not set"));
    const users = await env.DB.prepare("select count(*) as n from users where phone = ?").bind("+2348030009999").first<{ n: number }>();
    expect(users?.n).toBe(0);
  });

  it("answers with the secret once it is set, and refuses without it", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const configured = { ...production, USSD_SHARED_SECRET: "prod-ussd-secret-0123" } as AppEnv;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const refused = await request("/ussd", { method: "POST", headers, body: form() }, configured);
    expect(refused.status).toBe(403);
    const ok = await request("/ussd?secret=prod-ussd-secret-0123", { method: "POST", headers, body: form() }, configured);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/^CON LinkUp\n/);
  });
});

describe("production with Twilio", () => {
  it("sends the code but keeps no code, phone number or link in the outbound record", async () => {
    const twilio = fakeTwilio((impl) => vi.spyOn(globalThis, "fetch").mockImplementation(impl));
    const withTwilio = { ...production, ...twilio.bindings } as AppEnv;
    const cookie = (await (await request("/api/auth/anonymous", { method: "POST" }, withTwilio)).headers.getSetCookie())[0].split(";")[0];
    const phone = "+2348031112233";
    const reg = await request(
      "/api/auth/register",
      {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ phoneNumber: phone, channel: "sms" }),
      },
      withTwilio,
    );
    expect(reg.status).toBe(200);
    const code = twilio.sent.at(-1)!.body.match(/\b(\d{6})\b/)![1];
    const db = createDb(withTwilio);
    const stored = (await listOutbound(db, 500)).filter((m) => m.to === phone);
    expect(stored).toHaveLength(1);
    expect(stored[0].status).toBe("sent");
    expect(stored[0].body).not.toContain(code);
    expect(stored[0].body).toContain("Your LinkUp verification code is ••••••.");
    // The code Twilio carried still signs in.
    const verified = await request(
      "/api/auth/verify",
      { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ phoneNumber: phone, code }) },
      withTwilio,
    );
    expect(verified.status).toBe(200);

    // An SOS to an emergency contact: the sender's number and the map link reach the contact, not the record.
    const alert = "🚨 SOS from Ada (+2348035550101): medical. Help! Location: https://maps.google.com/?q=9.07650,7.39860 (Wuse)";
    await sendMessage(withTwilio, db, { to: "+2348039990001", channel: "whatsapp", body: alert });
    expect(twilio.sent.at(-1)!.body).toBe(alert);
    const [kept] = (await listOutbound(db, 500)).filter((m) => m.to === "+2348039990001");
    expect(kept.body).toBe("🚨 SOS from Ada (••••••): medical. Help! Location: [link] (Wuse)");
  });
});

describe("the browser tests' SQL door (/api/dev/sql)", () => {
  const sql = (bindings: AppEnv, key?: string) =>
    request(
      "/api/dev/sql",
      {
        method: "POST",
        headers: { "content-type": "application/json", ...(key ? { "x-test-sql-token": key } : {}) },
        body: JSON.stringify({ sql: "INSERT INTO phone_channels (phone) VALUES ('+2348030009999')" }),
      },
      bindings,
    );
  const count = async () =>
    (await env.DB.prepare("select count(*) as n from phone_channels where phone = '+2348030009999'").first<{ n: number }>())?.n;
  const development = env as unknown as AppEnv;

  it("is shut in production even with the key, and in development without the harness's key or with a wrong one", async () => {
    const keyed = { ...production, TEST_SQL_TOKEN: "k-123" } as AppEnv;
    expect((await sql(keyed, "k-123")).status).toBe(404);
    expect((await sql(development, "k-123")).status).toBe(404);
    expect((await sql({ ...development, TEST_SQL_TOKEN: "k-123" } as AppEnv)).status).toBe(404);
    expect((await sql({ ...development, TEST_SQL_TOKEN: "k-123" } as AppEnv, "k-124")).status).toBe(404);
    expect(await count()).toBe(0);
  });

  it("runs the statement in development with the harness's key", async () => {
    expect((await sql({ ...development, TEST_SQL_TOKEN: "k-123" } as AppEnv, "k-123")).status).toBe(200);
    expect(await count()).toBe(1);
  });
});

describe("development", () => {
  it("keeps the stand-ins: the dev outbox answers and health is ok", async () => {
    expect((await request("/api/dev/outbox", {}, env as unknown as AppEnv)).status).toBe(200);
    const health = await (await request("/api/health", {}, env as unknown as AppEnv)).json<{ status: string; billing: unknown }>();
    expect(health.status).toBe("ok");
    expect(health.billing).toEqual({ mode: "local", ready: true, missing: [] });
  });
});
