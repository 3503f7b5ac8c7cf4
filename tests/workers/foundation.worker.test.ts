import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db";
import { listOutbound } from "../../db/queries/outbox";
import { faqSeed } from "../../db/seed-data";
import { sendMessage } from "../../workers/services/messaging";
import { anonymousSession, call } from "./helpers";
import { whatsappMessage } from "./whatsapp";

describe("GET /api/health", () => {
  it("reports the database, the room binding and configured services without secrets", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: "ok", database: { status: "ok", driver: "d1" }, rooms: "ok" });
    expect(body.services).toMatchObject({ twilio: false, stripe: false, workersAi: false });
    expect(JSON.stringify(body)).not.toContain("test-session-secret");
    expect(JSON.stringify(body)).not.toContain("test-twilio-auth-token");
  });
});

describe("errors", () => {
  it("answers unknown API paths with a JSON 404", async () => {
    const res = await call("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found" });
  });

  it("answers the phone channels: USSD with a text/plain screen, an unsigned WhatsApp webhook with 403", async () => {
    const ussd = await call("/ussd", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "sessionId=f1&serviceCode=*384%23&phoneNumber=%2B2348030000001&text=",
    });
    expect(ussd.status).toBe(200);
    expect(await ussd.text()).toMatch(/^CON LinkUp\n/);
    const whatsapp = await call("/webhooks/whatsapp", { method: "POST", body: "From=whatsapp%3A%2B2348030000001&Body=HELP" });
    expect(whatsapp.status).toBe(403);
    expect(await whatsapp.json()).toHaveProperty("error");
  });

  it("refuses a malformed JSON body with 400 and keeps stored data", async () => {
    const { cookie } = await anonymousSession();
    const before = await (await call("/api/me", { cookie })).json<{ user: { nickname: string } }>();
    const res = await call("/api/me", { method: "PATCH", cookie, body: "{nickname:", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Malformed JSON body", code: "malformed_json" });
    const after = await (await call("/api/me", { cookie })).json<{ user: { nickname: string } }>();
    expect(after.user.nickname).toBe(before.user.nickname);
  });

  it("refuses wrong types and ignores unknown fields", async () => {
    const { cookie } = await anonymousSession();
    const bad = await call("/api/me", { method: "PATCH", cookie, json: { meshNetworking: "yes" } });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: string }>()).error).toContain("meshNetworking");
    const ok = await call("/api/me", { method: "PATCH", cookie, json: { nickname: "Ada", isAdmin: true, role: "admin" } });
    expect(ok.status).toBe(200);
    const { user } = await ok.json<{ user: { nickname: string; role: string } }>();
    expect(user).toMatchObject({ nickname: "Ada", role: "user" });
  });

  it("refuses a mutating request from a foreign Origin", async () => {
    const res = await call("/api/auth/anonymous", { method: "POST", headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Cross-origin request refused", code: "cross_origin" });
  });
});

describe("sessions", () => {
  it("sets an opaque HttpOnly SameSite=Lax cookie and stores only its hash", async () => {
    const res = await call("/api/auth/anonymous", { method: "POST" });
    expect(res.status).toBe(201);
    const setCookie = res.headers.getSetCookie()[0];
    expect(setCookie).toMatch(/^linkup_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const token = setCookie.split(";")[0].split("=")[1];
    const rows = await env.DB.prepare("select id from sessions").all<{ id: string }>();
    expect(rows.results.length).toBeGreaterThan(0);
    expect(rows.results.map((r) => r.id)).not.toContain(token);
  });

  it("reports the user on /api/me, and 401 without a session or after sign-out", async () => {
    expect((await call("/api/me")).status).toBe(401);
    const { cookie, user } = await anonymousSession();
    const me = await (await call("/api/me", { cookie })).json<{ user: Record<string, unknown> }>();
    expect(me.user).toMatchObject({ id: user.id, authMode: "anonymous", role: "user", tier: "free" });
    expect((await call("/api/auth/logout", { method: "POST", cookie })).status).toBe(200);
    expect((await call("/api/me", { cookie })).status).toBe(401);
  });

  it("ignores a forged cookie", async () => {
    expect((await call("/api/me", { cookie: "linkup_session=forged-token-value" })).status).toBe(401);
  });
});

describe("dev outbox", () => {
  it("keeps every outgoing message, newest first, while Twilio is not configured", async () => {
    const db = createDb(env);
    await sendMessage(env, db, { to: "+2348011111111", channel: "sms", body: "first" });
    await sendMessage(env, db, { to: "+2348022222222", channel: "whatsapp", body: "second" });
    const res = await call("/api/dev/outbox");
    expect(res.status).toBe(200);
    const { messages } = await res.json<{ messages: { to: string; channel: string; body: string; createdAt: string }[] }>();
    expect(messages.slice(0, 2).map((m) => m.body)).toEqual(["second", "first"]);
    expect(messages[0]).toMatchObject({ to: "+2348022222222", channel: "whatsapp" });
    expect(Date.parse(messages[0].createdAt)).not.toBeNaN();
    expect((await listOutbound(db)).every((m) => m.status === "stored")).toBe(true);
  });
});

describe("seed", () => {
  it("ships market prices, FAQ entries and blog articles", async () => {
    const prices = await (await call("/api/market/prices?commodity=rice&place=kano")).json<{
      prices: { city: string; priceNgn: number }[];
    }>();
    expect(prices.prices.length).toBeGreaterThan(0);
    expect(prices.prices.every((p) => p.city === "Kano" && p.priceNgn > 0)).toBe(true);
    const faq = await (await call("/api/content/faq")).json<{ items: { category: string }[] }>();
    expect(new Set(faq.items.map((f) => f.category))).toEqual(new Set(["bluetooth", "mesh", "ai", "mobile", "emergency", "support"]));
    const blog = await (await call("/api/content/blog")).json<{ articles: unknown[] }>();
    expect(blog.articles).toHaveLength(6);
  });
});

describe("the FAQ in the reader's language", () => {
  type Faq = { items: { id: string; question: string; answer: string }[] };
  const sos = (faq: Faq) => faq.items.find((f) => f.id === "faq-4");

  it("reads the saved language first, then the browser's, and English words equal the seed", async () => {
    const english = sos(await (await call("/api/content/faq")).json<Faq>());
    expect(english?.question).toBe(faqSeed.find((f) => f.id === "faq-4")?.question);
    expect(english?.answer).toBe(faqSeed.find((f) => f.id === "faq-4")?.answer);
    const french = await call("/api/content/faq", { headers: { "accept-language": "fr-FR,fr;q=0.9" } });
    expect(sos(await french.json<Faq>())?.question).toBe("Que se passe-t-il quand j'appuie sur SOS ?");
    const person = await anonymousSession();
    expect((await call("/api/me", { method: "PATCH", cookie: person.cookie, json: { language: "hausa" } })).status).toBe(200);
    const hausa = sos(await (await call("/api/content/faq", { cookie: person.cookie, headers: { "accept-language": "fr" } })).json<Faq>());
    expect(hausa?.question).toBe("Me ke faruwa idan na danna SOS?");
    expect(hausa?.answer).toContain("Koyaushe ka kira 112 ko 199");
  });
});

describe("dev outbox with Twilio configured", () => {
  it("does not exist", async () => {
    const { api } = await import("../../workers/api");
    const configured = { ...env, TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "secret", TWILIO_SMS_FROM: "+15550000000" };
    const res = await api.request("/dev/outbox", {}, configured);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found" });
  });
});

describe("opt-out", () => {
  it("sends nothing unasked to a phone that sent STOP, but still sends a code it requested", async () => {
    const db = createDb(env);
    const phone = "+2348099990000";
    expect((await whatsappMessage(phone, { Body: "STOP" })).reply).toMatch(/^You will get no more messages/);
    const alert = await sendMessage(env, db, { to: phone, channel: "whatsapp", body: "SOS from a neighbour" });
    expect(alert).toMatchObject({ status: "failed", error: "Recipient opted out (STOP)" });
    const code = await sendMessage(env, db, { to: phone, channel: "sms", body: "Your code is 123456" }, { requestedByRecipient: true });
    expect(code.status).toBe("stored");
    const { messages } = await (await call("/api/dev/outbox")).json<{ messages: { to: string; body: string; status: string }[] }>();
    const mine = messages.filter((m) => m.to === phone);
    expect(mine.map((m) => [m.body, m.status])).toEqual([
      ["Your code is 123456", "stored"],
      ["SOS from a neighbour", "failed"],
    ]);
  });
});
