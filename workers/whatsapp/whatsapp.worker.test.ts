// The WhatsApp webhook end to end in workerd: real D1, the real assistant, SOS and verification modules.
// Requests are signed the way Twilio signs them (core/whatsapp-signature.ts, checked against Twilio's own
// helper in core/whatsapp-signature.test.ts); Twilio's REST API is faked only at the outbound fetch edge.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeGeohash } from "../../core/geohash";
import { createDb } from "../../db";
import { emergencyBroadcasts, outboundMessages, phoneChannels, usageDaily, users } from "../../db/schema";
import { adminSession, anonymousSession, call, fakeTwilio, setBanned } from "../../tests/workers/helpers";
import { userForPhone } from "../channels";
import type { AppEnv } from "../env";
import { createServer } from "../server";
import { until } from "../../tests/workers/until";
import {
  signWhatsapp as signed,
  TWILIO_TEST_TOKEN as TOKEN,
  whatsappForm as fields,
  whatsappMessage as send,
  WHATSAPP_URL as URL_,
} from "../../tests/workers/whatsapp";

const db = createDb(env);
let n = 0;
// 0813 is a mobile range throughout (core/phone.ts accepts only valid mobile numbers).
const newPhone = () => `+234813${String(Date.now() % 1e5).padStart(5, "0")}${String(n++).padStart(2, "0")}`;

async function outboxTo(phone: string) {
  const res = await call("/api/dev/outbox?limit=200");
  const { messages } = (await res.json()) as { messages: { to: string; channel: string; body: string }[] };
  return messages.filter((m) => m.to === phone);
}

const channelRow = (phone: string) => db.select().from(phoneChannels).where(eq(phoneChannels.phone, phone)).get();

afterEach(() => vi.restoreAllMocks());

describe("X-Twilio-Signature", () => {
  it("accepts a signed request and answers TwiML", async () => {
    const res = await send(newPhone(), { Body: "HELP" });
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/xml");
    expect(res.xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Message>LinkUp on WhatsApp:/);
  });

  it("refuses a missing signature, a tampered body and a signature for another URL, with no side effect", async () => {
    const phone = newPhone();
    const stop = fields(phone, { Body: "STOP" });
    const attempts: { body: URLSearchParams; signature?: string }[] = [
      { body: stop },
      { body: stop, signature: await signed(fields(phone, { Body: "HELP" })) },
      { body: stop, signature: await signed(stop, "https://evil.example/webhooks/whatsapp") },
      { body: fields(phone, { Body: "123456" }), signature: "not-a-signature" },
    ];
    // Tampered: signed as sent, then one field changed.
    const original = fields(phone, { Body: "hello" });
    const sig = await signed(original);
    original.set("Body", "STOP");
    attempts.push({ body: original, signature: sig });
    for (const a of attempts) {
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
      if (a.signature) headers["x-twilio-signature"] = a.signature;
      const res = await SELF.fetch(URL_, { method: "POST", headers, body: a.body });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid or missing Twilio signature", code: "twilio_signature" });
    }
    expect(await channelRow(phone)).toBeUndefined();
    expect(await db.select().from(users).where(eq(users.phone, phone))).toHaveLength(0);
  });
});

describe("commands", () => {
  it("STOP opts out and is obeyed until START", async () => {
    const phone = newPhone();
    expect((await send(phone, { Body: "stop" })).reply).toBe("You will get no more messages from LinkUp. Send START to come back.");
    expect((await channelRow(phone))?.optedOut).toBe(true);
    for (const Body of ["HELP", "@ai help", "SOS fire", "LANG hausa"]) {
      const res = await send(phone, { Body });
      expect(res.status).toBe(200);
      expect(res.xml).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    }
    // Nothing was done for it: no AI use counted, no language change, no SOS.
    const user = await db.select().from(users).where(eq(users.phone, phone)).get();
    if (user) {
      expect(await db.select().from(usageDaily).where(eq(usageDaily.userId, user.id))).toHaveLength(0);
      expect(await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id))).toHaveLength(0);
    }
    expect((await channelRow(phone))?.language).toBe("english");
    expect((await send(phone, { Body: "START" })).reply).toBe("Welcome back to LinkUp. Send HELP to see what I can do.");
    expect((await send(phone, { Body: "help" })).reply).toContain("LinkUp on WhatsApp:");
  });

  it("LANG sets the language the bot answers in", async () => {
    const phone = newPhone();
    expect((await send(phone, { Body: "LANG klingon" })).reply).toBe("Send LANG and one of: English, Hausa, Yoruba, Igbo, Pidgin.");
    expect((await send(phone, { Body: "lang Hausa" })).reply).toBe("An saita harshe: Hausa.");
    expect((await send(phone, { Body: "HELP" })).reply).toMatch(/^LinkUp a WhatsApp:/);
    expect((await send(phone, { Body: "LANG pidgin" })).reply).toBe("Language don set: Pidgin.");
  });

  it("@ai answers with the same assistant as the web, counted per phone with the free tier's limit", async () => {
    const phone = newPhone();
    expect((await send(phone, { Body: "@ai translate good morning to hausa" })).reply).toBe("🌍 Hausa: Barka da safiya");
    for (let i = 0; i < 9; i++) expect((await send(phone, { Body: "@ai market maize" })).status).toBe(200);
    expect((await send(phone, { Body: "@ai market maize" })).reply).toMatch(
      /^You've used your 10 free AI commands for today\. Upgrade to Premium/,
    );
  });

  it("tells what it can do for media and unknown text", async () => {
    const phone = newPhone();
    expect(
      (await send(phone, { NumMedia: "1", MediaContentType0: "audio/ogg", MediaUrl0: "https://api.twilio.com/media/1" })).reply,
    ).toMatch(/^I can read text messages and locations/);
    expect((await send(phone, { Body: "hello there" })).reply).toMatch(/^I did not understand\. Send @ai/);
  });

  it("refuses a signed but malformed message with 400", async () => {
    const form = new URLSearchParams({ From: "+2348000000000", Body: "HELP" });
    const res = await SELF.fetch(URL_, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": await signed(form) },
      body: form,
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain("From");
  });

  it("a code replied from the phone links only the WhatsApp number: the browser that asked must type it", async () => {
    const phone = newPhone();
    const web = await anonymousSession();
    const reg = await call("/api/auth/register", { method: "POST", cookie: web.cookie, json: { phoneNumber: phone, channel: "whatsapp" } });
    expect(reg.status).toBe(200);
    const message = (await outboxTo(phone))[0]?.body ?? "";
    expect(message).toContain("signs in only the browser where you asked for it");
    expect(message).toContain("If this was not you, ignore this message.");
    const code = /\b(\d{6})\b/.exec(message)?.[1] ?? "";
    expect((await send(phone, { Body: "000000" })).reply).toBe("Invalid verification code. Please try again.");
    expect((await send(phone, { Body: code })).reply).toMatch(
      /^✅ This WhatsApp number is now linked to LinkUp\. Nobody was signed in on the web/,
    );
    const row = await db.select().from(phoneChannels).where(eq(phoneChannels.phone, phone)).get();
    expect(row?.confirmedAt).toBeInstanceOf(Date);
    // The browser is still anonymous until the code is typed there.
    const before = await (await call("/api/me", { cookie: web.cookie })).json<{ user: { authMode: string } }>();
    expect(before.user.authMode).toBe("anonymous");
    const verified = await call("/api/auth/verify", { method: "POST", cookie: web.cookie, json: { phoneNumber: phone, code } });
    expect(verified.status).toBe(200);
    expect((await verified.json<{ user: { authMode: string } }>()).user.authMode).toBe("verified");
  });

  it("an attacker who asks a code for someone's number is not signed in when that person replies it on WhatsApp", async () => {
    const phone = newPhone();
    // The victim has a verified account with this phone.
    const victim = await anonymousSession();
    await call("/api/auth/register", { method: "POST", cookie: victim.cookie, json: { phoneNumber: phone } });
    const victimCode = /\b(\d{6})\b/.exec((await outboxTo(phone))[0]?.body ?? "")?.[1] ?? "";
    const victimRes = await call("/api/auth/verify", {
      method: "POST",
      cookie: victim.cookie,
      json: { phoneNumber: phone, code: victimCode },
    });
    expect(victimRes.status).toBe(200);
    const victimCookie = victimRes.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    const victimId = (await victimRes.json<{ user: { id: string } }>()).user.id;

    const attacker = await anonymousSession();
    const reg = await call("/api/auth/register", { method: "POST", cookie: attacker.cookie, json: { phoneNumber: phone } });
    expect(reg.status).toBe(200);
    const code = /\b(\d{6})\b/.exec((await outboxTo(phone))[0]?.body ?? "")?.[1] ?? "";
    // The victim innocently replies with the code.
    expect((await send(phone, { Body: code })).reply).toMatch(/^✅ This WhatsApp number is now linked to LinkUp/);

    const me = await call("/api/me", { cookie: attacker.cookie });
    const attackerNow = await me.json<{ user: { id: string; authMode: string; phone: string | null } }>();
    expect(attackerNow.user).toMatchObject({ id: attacker.user.id, authMode: "anonymous", phone: null });
    expect(attackerNow.user.id).not.toBe(victimId);
    // The victim's account is untouched, and it hears of the WhatsApp sign-in.
    const centre = await (await call("/api/notifications", { cookie: victimCookie })).json<{
      notifications: { title: string; content: string }[];
    }>();
    expect(centre.notifications.find((x) => x.title === "New sign-in to your account")?.content).toBe(
      `WhatsApp signed in with ${phone}. If this was not you, call support.`,
    );
    expect((await call("/api/me", { cookie: victimCookie })).status).toBe(200);
  });
});

describe("a suspended phone", () => {
  it("is answered with the suspension for everything but SOS, its location and STOP/START; unban restores the bot", async () => {
    const admin = await adminSession();
    const phone = newPhone();
    const user = await userForPhone(db, phone);
    await setBanned(admin, user.id, true);
    const refused =
      "This account is suspended. Contact LinkUp support if you think this is a mistake. SOS still works: send SOS and a few words. In danger? Call 112 or 199.";
    for (const Body of ["@ai what is malaria", "HELP", "hello", "LANG hausa", "123456"])
      expect((await send(phone, { Body })).reply).toBe(refused);
    expect(await db.select().from(usageDaily).where(eq(usageDaily.userId, user.id))).toHaveLength(0);

    // SOS by phone stays open on purpose, with the location it waits for.
    expect((await send(phone, { Body: "SOS fire in the market" })).reply).toMatch(/^To send your SOS I need your location/);
    expect((await send(phone, { Latitude: "9.0765", Longitude: "7.3986", Address: "Wuse Market, Abuja" })).reply).toBe(
      "🚨 Sending your SOS now. In danger? Call 112 or 199.",
    );
    await until(async () => (await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id))).length === 1);
    expect(await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id))).toHaveLength(1);
    expect((await send(phone, { Body: "STOP" })).reply).toMatch(/^You will get no more messages/);
    expect((await send(phone, { Body: "START" })).reply).toMatch(/^Welcome back/);

    await setBanned(admin, user.id, false);
    expect((await send(phone, { Body: "HELP" })).reply).toMatch(/^LinkUp on WhatsApp:/);
  });
});

describe("SOS over WhatsApp", () => {
  it("asks for a location first, sends the SOS when it arrives, and reports the reach afterwards", async () => {
    const phone = newPhone();
    expect((await send(phone, { Body: "SOS fire in the market" })).reply).toMatch(/^To send your SOS I need your location/);
    const user = await userForPhone(db, phone);
    expect(await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id))).toHaveLength(0);

    // Sharing the location sends the waiting SOS at once.
    const shared = await send(phone, { Latitude: "9.0765", Longitude: "7.3986", Address: "Wuse Market, Abuja" });
    expect(shared.reply).toBe("🚨 Sending your SOS now. In danger? Call 112 or 199.");
    await until(async () => (await outboxTo(phone)).some((m) => m.body.startsWith("✅ SOS sent")));
    const later = (await outboxTo(phone)).find((m) => m.body.startsWith("✅ SOS sent"));
    expect(later).toMatchObject({ channel: "whatsapp" });
    expect(later?.body).toMatch(/Nearby with LinkUp open or by push alert: \d+\. Contacts reached: 0\./);
    const [row] = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id));
    expect(row).toMatchObject({
      channel: "whatsapp",
      emergencyType: "fire",
      message: "fire in the market",
      locationText: "Wuse Market, Abuja",
      geohash: encodeGeohash(9.0765, 7.3986),
    });
    // The waiting SOS went once: another location only saves the place.
    expect((await send(phone, { Latitude: "9.08", Longitude: "7.40" })).reply).toBe(
      "📍 Location saved. Send SOS and a few words to alert people near you.",
    );
    // With a shared location, SOS goes at once.
    expect((await send(phone, { Body: "SOS robbers at the gate" })).reply).toBe("🚨 Sending your SOS now. In danger? Call 112 or 199.");
    await until(async () => (await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id))).length === 2);
    const rows = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id));
    expect(rows.map((r) => r.emergencyType).sort()).toEqual(["fire", "security"]);
  });

  it("sends the later answer through Twilio's REST API, retrying after a 503", async () => {
    const phone = newPhone();
    const twilioEnv = {
      ...env,
      TWILIO_ACCOUNT_SID: "AC11111111111111111111111111111111",
      TWILIO_WHATSAPP_FROM: "+14155238886",
      TWILIO_API_BASE: "http://twilio.loopback",
    } as AppEnv;
    const hits: { url: string; auth: string | null; body: URLSearchParams }[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith("http://twilio.loopback/")) return realFetch(input, init);
      hits.push({
        url: req.url,
        auth: req.headers.get("authorization"),
        body: new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer())),
      });
      if (hits.length === 1) return new Response("busy", { status: 503 });
      return Response.json({ sid: "SM_loopback_1" }, { status: 201 });
    });
    const post = async (extra: Record<string, string>) => {
      const form = fields(phone, extra);
      const url = "https://linkup.example/webhooks/whatsapp";
      const ctx = createExecutionContext();
      // The whole server (as the test entry builds it), with this test's Twilio configuration.
      const res = await createServer(async () => new Response("page")).fetch(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": await signed(form, url) },
          body: form,
        }),
        twilioEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    expect((await post({ Latitude: "6.5", Longitude: "3.35" })).status).toBe(200);
    expect((await post({ Body: "SOS" })).status).toBe(200);

    expect(hits).toHaveLength(2);
    expect(hits[0].url).toBe("http://twilio.loopback/2010-04-01/Accounts/AC11111111111111111111111111111111/Messages.json");
    expect(hits[1].auth).toBe(`Basic ${btoa(`AC11111111111111111111111111111111:${TOKEN}`)}`);
    expect(hits[1].body.get("To")).toBe(`whatsapp:${phone}`);
    expect(hits[1].body.get("From")).toBe("whatsapp:+14155238886");
    expect(hits[1].body.get("Body")).toMatch(/^✅ SOS sent\./);
    const [out] = await db.select().from(outboundMessages).where(eq(outboundMessages.to, phone));
    expect(out).toMatchObject({ channel: "whatsapp", status: "sent", attempts: 2, providerId: "SM_loopback_1" });
  });

  it("with the online assistant configured, acknowledges an @ai question at once and sends the answer afterwards", async () => {
    const phone = newPhone();
    // Outside development the later answer goes through Twilio, faked at its HTTP edge.
    const twilio = fakeTwilio((impl) => vi.spyOn(globalThis, "fetch").mockImplementation(impl));
    const onlineEnv = {
      ...env,
      ...twilio.bindings,
      ENVIRONMENT: "production",
      // Workers AI faked at the binding's edge: the assistant's real provider code runs on its answer.
      AI: { run: async () => ({ response: "Plant maize when the rains are steady, usually April to May in the south." }) },
    } as unknown as AppEnv;
    const form = fields(phone, { Body: "@ai when should I plant maize?" });
    const url = "https://linkup.example/webhooks/whatsapp";
    const ctx = createExecutionContext();
    const res = await createServer(async () => new Response("page")).fetch(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": await signed(form, url) },
        body: form,
      }),
      onlineEnv,
      ctx,
    );
    expect(await res.text()).toContain("<Message>🤖 Thinking… the answer follows in a moment.</Message>");
    await waitOnExecutionContext(ctx);
    const [out] = await db.select().from(outboundMessages).where(eq(outboundMessages.to, phone));
    expect(out).toMatchObject({ channel: "whatsapp", body: "Plant maize when the rains are steady, usually April to May in the south." });
    expect(twilio.sent).toEqual([
      { to: `whatsapp:${phone}`, body: "Plant maize when the rains are steady, usually April to May in the south." },
    ]);
  });
});
