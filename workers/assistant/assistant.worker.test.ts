// The assistant in workerd with real D1 and R2: the '@ai' APIs, limits and their reset, 402 shapes, the
// provider fallback (Workers AI faked at the binding edge), support and voice messages.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db";
import { anonymousSession, call, ORIGIN, setTier, signInByCode } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { runAiCommand, smartReplies, translateText } from "./index";
import { INSTRUCT_MODEL, SPEECH_MODEL, TRANSLATION_MODEL } from "./workers-ai";

const db = () => createDb(env as unknown as AppEnv);

async function chat(cookie: string, message: string) {
  return call("/api/ai/chat", {
    method: "POST",
    cookie,
    json: { message, userId: "x", context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" } },
  });
}

const UPGRADE = { plan: "premium", trialDays: 7 };

/** Workers AI as the binding edge sees it: records calls, answers per model or fails as told. */
function fakeAi(behaviour: "answer" | "throw" | "hang" | "garbage") {
  const calls: { model: string; input: Record<string, unknown> }[] = [];
  const ai = {
    async run(model: string, input: Record<string, unknown>) {
      calls.push({ model, input });
      if (behaviour === "throw") throw new Error("3040: Capacity temporarily exceeded");
      if (behaviour === "hang") return new Promise(() => {});
      if (behaviour === "garbage") return { result: { text: 42 } };
      if (model === TRANSLATION_MODEL) return { translated_text: "Je voudrais acheter du riz" };
      if (model === SPEECH_MODEL) return { text: "Please bring two bags of rice tomorrow" };
      return { response: "Abuja is the capital of Nigeria." };
    },
  };
  const online = { ...(env as unknown as AppEnv), ENVIRONMENT: "production", AI: ai } as unknown as AppEnv;
  return { env: online, calls };
}

describe("POST /api/ai/chat", () => {
  it("translates a phrase to Hausa with the offline assistant", async () => {
    const { cookie } = await anonymousSession();
    const res = await chat(cookie, "translate good morning to hausa");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "🌍 Hausa: Barka da safiya", source: "offline", usage: { aiCommands: 1 } });
  });

  it("accepts the whole message with its '@ai ' prefix", async () => {
    const { cookie } = await anonymousSession();
    const res = await chat(cookie, "@ai translate thank you to yoruba");
    expect((await res.json<{ message: string }>()).message).toContain("Ẹ ṣé");
  });

  it("answers market prices from the database and emergencies with the numbers", async () => {
    const { cookie } = await anonymousSession();
    const market = await (await chat(cookie, "market rice lagos")).json<{ message: string }>();
    expect(market.message).toMatch(/Rice \(local\), Mile 12 Market \(Lagos\): ₦[\d,]+ per 50kg bag/);
    expect(market.message).not.toContain("Kano");
    const loose = await (await chat(cookie, "market maize in kano please")).json<{ message: string }>();
    expect(loose.message).toMatch(/Maize, Dawanau Market \(Kano\): ₦[\d,]+ per 100kg bag/);
    const byMarket = await (await chat(cookie, "market yam bodija")).json<{ message: string }>();
    expect(byMarket.message).toContain("Yam, Bodija Market (Ibadan)");
    const nowhere = await (await chat(cookie, "market rice timbuktu")).json<{ message: string }>();
    expect(nowhere.message).toContain("I have no prices for Rice (foreign), Rice (local) in timbuktu");
    const sos = await (await chat(cookie, "emergency my brother is bleeding")).json<{ message: string }>();
    expect(sos.message).toContain("112");
    expect(sos.message).toContain("Press firmly on the wound");
    const weather = await (await chat(cookie, "weather kano")).json<{ message: string }>();
    expect(weather.message).toContain("needs a connection");
    const unknown = await (await chat(cookie, "what is the capital of Nigeria?")).json<{ message: string }>();
    expect(unknown.message).toContain("needs the online assistant");
  });

  it("needs a session and a message", async () => {
    expect((await call("/api/ai/chat", { method: "POST", json: { message: "help" } })).status).toBe(401);
    const { cookie } = await anonymousSession();
    const res = await call("/api/ai/chat", { method: "POST", cookie, json: { message: "   " } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_request", error: "Invalid request: message: Message required" });
  });

  it("gives a free user 10 AI commands a day, then the premium offer with status 402", async () => {
    const { cookie } = await anonymousSession();
    for (let i = 0; i < 10; i++) expect((await chat(cookie, "market maize")).status).toBe(200);
    const res = await chat(cookie, "market maize");
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      error: "You've used your 10 free AI commands for today. Upgrade to Premium for unlimited AI commands — try it free for 7 days.",
      code: "ai_commands_limit",
      offer: "limit_reached",
      upgrade: UPGRADE,
    });
  });

  it("answers a free user's premium keyword with the offer, without counting it", async () => {
    const { cookie, user } = await anonymousSession();
    const res = await chat(cookie, "send a voice message to my group");
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      error: "Voice message is a Premium feature. Upgrade to Premium to unlock it — try it free for 7 days.",
      code: "premium_keyword",
      values: { feature: "Voice message", days: 7 },
      offer: "premium_feature",
      upgrade: UPGRADE,
    });
    const usage = await (await call("/api/ai/usage", { cookie })).json<{ aiCommands: { used: number } }>();
    expect(usage.aiCommands.used).toBe(0);
    await setTier(user.id, "premium");
    expect((await chat(cookie, "send a voice message to my group")).status).toBe(200);
  });
});

describe("limits per tier, counted by UTC date", () => {
  it("resets the count on a new date", async () => {
    const { user } = await anonymousSession();
    const day1 = new Date("2026-03-01T23:59:00Z");
    const day2 = new Date("2026-03-02T00:00:30Z");
    const run = (now: Date) => runAiCommand(env as unknown as AppEnv, db(), { userId: user.id, text: "market maize", channel: "web", now });
    for (let i = 0; i < 10; i++) expect((await run(day1)).ok).toBe(true);
    expect(await run(day1)).toMatchObject({ ok: false, status: 402, body: { code: "ai_commands_limit", offer: "limit_reached" } });
    expect(await run(day2)).toMatchObject({ ok: true });
  });

  it("gives a free user 5 translations a day; '@ai translate' counts one AI command and one translation", async () => {
    const { cookie, user } = await anonymousSession();
    const translate = (json: unknown) => call("/api/ai/translate", { method: "POST", cookie, json });
    for (let i = 0; i < 4; i++) expect((await translate({ text: "thank you", targetLanguage: "HA" })).status).toBe(200);
    expect((await chat(cookie, "translate good night to igbo")).status).toBe(200);
    const sixth = await translate({ text: "thank you", targetLanguage: "hausa" });
    expect(sixth.status).toBe(402);
    expect(await sixth.json()).toEqual({
      error: "You've used your 5 free translations for today. Upgrade to Premium for unlimited translation — try it free for 7 days.",
      code: "translations_limit",
      offer: "limit_reached",
      upgrade: UPGRADE,
    });
    // Translations are full; the refused '@ai translate' must not eat an AI command either.
    expect((await chat(cookie, "translate hello to french")).status).toBe(402);
    const usage = await (await call("/api/ai/usage", { cookie })).json<{ aiCommands: { used: number }; translations: { used: number } }>();
    expect(usage).toMatchObject({ aiCommands: { used: 1 }, translations: { used: 5 } });
    // Other commands still work.
    expect((await chat(cookie, "help")).status).toBe(200);
    await setTier(user.id, "premium");
    expect((await translate({ text: "thank you", targetLanguage: "sw" })).status).toBe(200);
  });

  it("is unlimited for premium and enterprise", async () => {
    for (const tier of ["premium", "enterprise"] as const) {
      const { user } = await anonymousSession();
      await setTier(user.id, tier);
      for (let i = 0; i < 12; i++) {
        const r = await runAiCommand(env as unknown as AppEnv, db(), {
          userId: user.id,
          text: "translate hello to swahili",
          channel: "web",
        });
        expect(r).toMatchObject({ ok: true, message: "🌍 Swahili: Habari" });
      }
    }
  });

  it("gives USSD users a help text that fits one 182-character screen", async () => {
    const { user } = await anonymousSession();
    const r = await runAiCommand(env as unknown as AppEnv, db(), { userId: user.id, text: "help", channel: "ussd", mode: "offline" });
    expect(r.ok && r.message.length).toBeLessThanOrEqual(182);
    expect(r.ok && r.message).not.toContain("@ai");
  });

  it("counts a command once when a second answer is sent with countUsage false", async () => {
    const { cookie, user } = await anonymousSession();
    const first = await runAiCommand(env as unknown as AppEnv, db(), {
      userId: user.id,
      text: "market maize",
      channel: "ussd",
      mode: "offline",
    });
    const second = await runAiCommand(env as unknown as AppEnv, db(), {
      userId: user.id,
      text: "market maize",
      channel: "ussd",
      mode: "auto",
      countUsage: false,
    });
    expect(first.ok && second.ok).toBe(true);
    const usage = await (await call("/api/ai/usage", { cookie })).json<{ aiCommands: { used: number } }>();
    expect(usage.aiCommands.used).toBe(1);
  });
});

describe("POST /api/ai/translate", () => {
  it("answers a translation result, with languages by name or code in any case", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/ai/translate", {
      method: "POST",
      cookie,
      json: { text: "Where is the hospital?", targetLanguage: "SWAHILI" },
    });
    expect(await res.json()).toEqual({
      originalText: "Where is the hospital?",
      translatedText: "Hospitali iko wapi?",
      sourceLanguage: "English",
      targetLanguage: "Swahili",
      source: "offline",
    });
    const fromHausa = await call("/api/ai/translate", { method: "POST", cookie, json: { text: "na gode", targetLanguage: "fr" } });
    expect(await fromHausa.json()).toMatchObject({ translatedText: "Merci", sourceLanguage: "Hausa" });
  });

  it("refuses empty text and unknown languages with clear errors", async () => {
    const { cookie } = await anonymousSession();
    const empty = await call("/api/ai/translate", { method: "POST", cookie, json: { text: " ", targetLanguage: "ha" } });
    expect(await empty.json()).toMatchObject({
      code: "invalid_request",
      error: "Invalid request: text: Text required - Please enter text to translate",
    });
    const klingon = await call("/api/ai/translate", { method: "POST", cookie, json: { text: "hello", targetLanguage: "klingon" } });
    expect(klingon.status).toBe(400);
    expect((await klingon.json<{ error: string }>()).error).toContain("English, Hausa, Igbo, Yoruba, Swahili, French, Arabic");
  });

  it("says offline when a sentence is not in the phrasebook, and does not charge for it", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/ai/translate", {
      method: "POST",
      cookie,
      json: { text: "The rain ruined my maize harvest", targetLanguage: "yo" },
    });
    expect(res.status).toBe(503);
    expect((await res.json<{ error: string }>()).error).toContain("needs the online assistant");
    const usage = await (await call("/api/ai/usage", { cookie })).json<{ translations: { used: number } }>();
    expect(usage.translations.used).toBe(0);
  });
});

describe("provider fallback (Workers AI faked at the binding)", () => {
  it("uses Workers AI's instruct model when it answers", async () => {
    const { user } = await anonymousSession();
    const fake = fakeAi("answer");
    const r = await runAiCommand(fake.env, db(), { userId: user.id, text: "what is the capital of Nigeria?", channel: "web" });
    expect(r).toEqual({ ok: true, message: "Abuja is the capital of Nigeria.", source: "online", counted: true });
    expect(fake.calls[0].model).toBe(INSTRUCT_MODEL);
  });

  it("answers a first-aid question with the vetted guidance even when online", async () => {
    const { user } = await anonymousSession();
    const fake = fakeAi("answer");
    const r = await runAiCommand(fake.env, db(), { userId: user.id, text: "my friend is choking what should I do", channel: "web" });
    expect(fake.calls).toHaveLength(0);
    expect(r.ok && r.message).toContain("give up to 5 firm back blows");
  });

  it("falls back to the offline assistant when the binding throws", async () => {
    const { user } = await anonymousSession();
    const fake = fakeAi("throw");
    const r = await runAiCommand(fake.env, db(), { userId: user.id, text: "what is the capital of Nigeria?", channel: "web" });
    expect(fake.calls).toHaveLength(1);
    expect(r).toMatchObject({ ok: true, source: "offline" });
    expect(r.ok && r.message).toContain("needs the online assistant");
  });

  it("falls back to the offline assistant when the binding is too slow", async () => {
    const { user } = await anonymousSession();
    const fake = fakeAi("hang");
    const started = Date.now();
    const r = await runAiCommand(fake.env, db(), { userId: user.id, text: "hello there", channel: "web", timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r).toMatchObject({ ok: true, source: "offline" });
    expect(r.ok && r.message).toContain("I'm LIA");
  });

  it("falls back when the binding answers in an unexpected shape", async () => {
    const { user } = await anonymousSession();
    const fake = fakeAi("garbage");
    const r = await runAiCommand(fake.env, db(), { userId: user.id, text: "how do I send an SOS?", channel: "web" });
    expect(fake.calls).toHaveLength(1);
    expect(r).toMatchObject({ ok: true, source: "offline" });
    expect(r.ok && r.message).toContain("press the red SOS button");
  });

  it("uses m2m100 between languages it covers and the instruct model for Hausa, Igbo, Yoruba and Swahili", async () => {
    const { user } = await anonymousSession();
    await setTier(user.id, "premium");
    const fake = fakeAi("answer");
    const fr = await translateText(fake.env, db(), { userId: user.id, text: "I would like to buy rice", target: "fr", source: "en" });
    expect(fr).toMatchObject({
      ok: true,
      source: "online",
      translation: { translatedText: "Je voudrais acheter du riz", targetLanguage: "French" },
    });
    expect(fake.calls.at(-1)?.model).toBe(TRANSLATION_MODEL);
    await translateText(fake.env, db(), { userId: user.id, text: "I would like to buy rice", target: "ha", source: "en" });
    expect(fake.calls.at(-1)?.model).toBe(INSTRUCT_MODEL);
    expect(JSON.stringify(fake.calls.at(-1)?.input)).toContain("into Hausa");
  });

  it("never uses the binding in local development", async () => {
    const { user } = await anonymousSession();
    const fake = fakeAi("answer");
    const local = { ...fake.env, ENVIRONMENT: "development" } as AppEnv;
    const r = await runAiCommand(local, db(), { userId: user.id, text: "what is the capital of Nigeria?", channel: "web" });
    expect(r).toMatchObject({ source: "offline" });
    expect(fake.calls).toHaveLength(0);
  });

  it("falls back for smart replies too", async () => {
    const out = await smartReplies(fakeAi("throw").env, { message: "Thank you so much!" });
    expect(out.source).toBe("offline");
    expect(out.replies.map((r) => r.text)).toEqual(["You're welcome", "Anytime!", "Happy to help"]);
  });
});

describe("POST /api/ai/smart-replies", () => {
  it("needs a verified phone and answers a list of { id, text }, with no confidence figure nobody measured", async () => {
    const anonymous = await anonymousSession();
    const json = { message: "Are you coming to the market tomorrow?" };
    const refused = await call("/api/ai/smart-replies", { method: "POST", cookie: anonymous.cookie, json });
    expect(refused.status).toBe(403);
    // The same browser proves a phone (and is given a new session cookie for it).
    const verified = await signInByCode("08030000001", { cookie: anonymous.cookie });
    expect(verified.status).toBe(200);
    const { cookie } = verified;
    const res = await call("/api/ai/smart-replies", { method: "POST", cookie, json });
    expect(res.status).toBe(200);
    const replies = await res.json<{ id: string; text: string }[]>();
    expect(replies).toHaveLength(3);
    expect(replies[0]).toEqual({ id: "reply-1", text: "Let me check the price" });
    const empty = await call("/api/ai/smart-replies", { method: "POST", cookie, json: { message: "" } });
    expect(await empty.json()).toEqual({
      error: "Invalid request: message: Message required - Please enter a message to generate smart replies",
      code: "invalid_request",
      values: { field: "message", detail: "Message required - Please enter a message to generate smart replies" },
    });
  });
});

describe("support bot", () => {
  const ask = (json: unknown, cookie?: string) => call("/api/support/query", { method: "POST", json, cookie });

  it.each([
    ["Hello there", "greeting", false],
    ["How much does premium cost per month?", "pricing", false],
    ["The app is not working, bluetooth will not connect", "technical", true],
    ["We are a company and want enterprise for our team", "business", true],
    ["Is LinkUp better than WhatsApp?", "comparison", false],
  ])("%j is %s", async (message, category, followUp) => {
    const res = await ask({ message });
    expect(res.status).toBe(200);
    const body = await res.json<{
      category: string;
      escalateToHuman: boolean;
      followUpRequired: boolean;
      response: string;
    }>();
    expect(body.category).toBe(category);
    expect(body.followUpRequired).toBe(followUp);
    expect(body.escalateToHuman).toBe(false);
    expect(body).not.toHaveProperty("confidence");
  });

  it("answers the seeded market prices", async () => {
    const body = await (await ask({ message: "what is the price of premium" })).json<{ response: string }>();
    expect(body.response).toContain("₦2,500 a month");
    expect(body.response).toContain("7-day free trial");
  });

  it("escalates to a human and opens a call-back ticket with the phone", async () => {
    const res = await ask({ message: "Please call me, I want to talk to a person about my payment", userPhone: "0803 123 4567" });
    const body = await res.json<{ escalateToHuman: boolean; ticketId: string; response: string }>();
    expect(body.escalateToHuman).toBe(true);
    expect(body.response).toContain("+2348031234567");
    const ticket = await env.DB.prepare("select phone, status, category, message from support_tickets where id = ?")
      .bind(body.ticketId)
      .first();
    expect(ticket).toEqual({
      phone: "+2348031234567",
      status: "open",
      category: "pricing",
      message: "Please call me, I want to talk to a person about my payment",
    });
  });

  it("asks for a phone when escalating without one, and treats emergencies as urgent", async () => {
    const body = await (await ask({ message: "Emergency! There was an accident near me" })).json<Record<string, unknown>>();
    expect(body).toMatchObject({ category: "emergency", escalateToHuman: true });
    expect(body.ticketId).toBeUndefined();
    expect(body.response).toContain("112");
    expect(body.response).toContain("Leave your phone number");
  });

  it("says honestly when it did not understand, and offers a person", async () => {
    const body = await (await ask({ message: "zxqv blorp" })).json<{ response: string }>();
    expect(body.response).toContain("I'm not sure I understood");
    expect(body.response).toContain("+2348000000000");
  });

  it("follows up, and a phone in the follow-up opens a ticket", async () => {
    const plain = await call("/api/support/followup", {
      method: "POST",
      json: { originalQuery: "app not working", response: "try again" },
    });
    expect((await plain.json<{ followUp: string }>()).followUp).toContain("Did those steps fix it?");
    const withPhone = await call("/api/support/followup", {
      method: "POST",
      json: { originalQuery: "app not working", response: "try again", userPhone: "08055555555" },
    });
    const body = await withPhone.json<{ followUp: string; ticketId: string }>();
    expect(body.followUp).toContain("+2348055555555");
    const ticket = await env.DB.prepare("select phone from support_tickets where id = ?").bind(body.ticketId).first();
    expect(ticket).toEqual({ phone: "+2348055555555" });
  });

  it("keeps at most 3 open call-back tickets a day for one phone", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const body = await (await ask({ message: `please call me back ${i}`, userPhone: "08077777777" })).json<{ ticketId: string }>();
      ids.add(body.ticketId);
    }
    expect(ids.size).toBe(3);
    const count = await env.DB.prepare("select count(*) as n from support_tickets where phone = '+2348077777777'").first<{ n: number }>();
    expect(count?.n).toBe(3);
  });

  it("refuses an empty message", async () => {
    expect((await ask({ message: "" })).status).toBe(400);
  });
});

describe("voice messages", () => {
  const audio = new Uint8Array([26, 69, 223, 163, 1, 2, 3, 4]);
  const send = (cookie: string) =>
    call("/api/ai/voice", { method: "POST", cookie, body: audio, headers: { "content-type": "audio/webm" } });

  it("are a premium feature for free users", async () => {
    const { cookie } = await anonymousSession();
    const res = await send(cookie);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: "voice_premium", offer: "premium_feature", upgrade: UPGRADE });
  });

  it("store the audio in R2 for premium users and count 50 a month", async () => {
    const { cookie, user } = await anonymousSession();
    await setTier(user.id, "premium");
    const res = await send(cookie);
    expect(res.status).toBe(201);
    const body = await res.json<{ id: string; transcript: string; source: string; usedThisMonth: number; monthlyLimit: number }>();
    expect(body).toMatchObject({ transcript: "", source: "offline", usedThisMonth: 1, monthlyLimit: 50 });
    const back = await call(`/api/ai/voice/${body.id}`, { cookie });
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(audio);
    const stranger = await anonymousSession();
    expect((await call(`/api/ai/voice/${body.id}`, { cookie: stranger.cookie })).status).toBe(404);

    // The month's other 49, sent as the person would.
    for (let i = 2; i <= 50; i++) expect(await (await send(cookie)).json()).toMatchObject({ usedThisMonth: i });
    const full = await send(cookie);
    expect(full.status).toBe(402);
    expect(await full.json()).toMatchObject({ code: "voice_month_full", offer: "limit_reached", values: { limit: 50 } });
  });

  it("refuse what is not audio, and empty recordings", async () => {
    const { cookie, user } = await anonymousSession();
    await setTier(user.id, "premium");
    // From the site, as a browser sends it (without an Origin a text/plain body is refused before the route).
    const text = await call("/api/ai/voice", {
      method: "POST",
      cookie,
      body: "hello",
      headers: { "content-type": "text/plain", origin: ORIGIN },
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ error: "Send the recording as audio (webm, ogg, mp4, mpeg or wav)", code: "voice_audio_type" });
    const empty = await call("/api/ai/voice", {
      method: "POST",
      cookie,
      body: new Uint8Array(),
      headers: { "content-type": "audio/webm" },
    });
    expect(empty.status).toBe(400);
    const usage = await (await call("/api/ai/usage", { cookie })).json();
    expect(usage).toEqual({
      tier: "premium",
      aiCommands: { used: 0, limit: null },
      translations: { used: 0, limit: null },
      voiceMessages: { usedThisMonth: 0, limit: 50 },
    });
  });

  it("are refused for a private chat (nothing readable of it reaches the server), taken for an area room", async () => {
    const { cookie, user } = await anonymousSession();
    await setTier(user.id, "premium");
    const to = (room: string) =>
      call(`/api/ai/voice?room=${encodeURIComponent(room)}`, {
        method: "POST",
        cookie,
        body: audio,
        headers: { "content-type": "audio/webm" },
      });
    for (const room of [`dm:${user.id}:someone`, "group:market-women-01"]) {
      const refused = await to(room);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: "Voice messages in private chats are not sent to the server for transcription.",
        code: "voice_private",
      });
    }
    expect((await to("not a room")).status).toBe(400);
    expect((await (await call("/api/ai/voice", { cookie })).json<{ messages: unknown[] }>()).messages).toEqual([]);
    expect((await to("nearby:s1v0g")).status).toBe(201);
  });

  it("recorded offline are listed and can be transcribed later, once the online assistant answers", async () => {
    const { cookie, user } = await anonymousSession();
    await setTier(user.id, "premium");
    const { id } = await (await send(cookie)).json<{ id: string }>();
    const list = await (await call("/api/ai/voice", { cookie })).json<{ messages: { id: string; transcript: string }[] }>();
    expect(list.messages).toEqual([expect.objectContaining({ id, transcript: "" })]);
    const offline = await call(`/api/ai/voice/${id}/transcribe`, { method: "POST", cookie });
    expect(offline.status).toBe(503);

    const { users } = await import("../../db/schema");
    const { eq } = await import("drizzle-orm");
    const { retranscribe } = await import("./voice");
    const row = await db().select().from(users).where(eq(users.id, user.id)).get();
    const fake = fakeAi("answer");
    expect(await retranscribe(fake.env, db(), row!, id)).toEqual({ found: true, transcript: "Please bring two bags of rice tomorrow" });
    const after = await (await call("/api/ai/voice", { cookie })).json<{ messages: { transcript: string }[] }>();
    expect(after.messages[0].transcript).toBe("Please bring two bags of rice tomorrow");
    const usage = await (await call("/api/ai/usage", { cookie })).json<{ voiceMessages: { usedThisMonth: number } }>();
    expect(usage.voiceMessages.usedThisMonth).toBe(1);
  });

  it("are transcribed by Workers AI's speech model when online", async () => {
    const { user } = await anonymousSession();
    await setTier(user.id, "enterprise");
    const fake = fakeAi("answer");
    const { transcribeVoiceMessage } = await import("./voice");
    const { users } = await import("../../db/schema");
    const { eq } = await import("drizzle-orm");
    const row = await db().select().from(users).where(eq(users.id, user.id)).get();
    const r = await transcribeVoiceMessage(fake.env, db(), { user: row!, audio: audio.buffer, mime: "audio/webm" });
    expect(r).toMatchObject({ ok: true, transcript: "Please bring two bags of rice tomorrow", source: "online", monthlyLimit: null });
    expect(fake.calls[0].model).toBe(SPEECH_MODEL);
    expect(typeof fake.calls[0].input.audio).toBe("string");
  });
});
