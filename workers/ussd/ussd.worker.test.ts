// The USSD callback end to end in workerd: real D1, the real MeshRoom over a WebSocket, the real assistant,
// SOS and verification modules. Requests are Africa's Talking's form posts.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeGeohash } from "../../core/geohash";
import { newId } from "../../core/ids";
import { placeFromText } from "../../core/places";
import { createDb } from "../../db";
import { listCommodities } from "../../db/queries/content";
import { emergencyBroadcasts, emergencyContacts, usageDaily, users } from "../../db/schema";
import { adminSession, anonymousSession, call, fakeTwilio, ORIGIN, setBanned } from "../../tests/workers/helpers";
import { setOptedOut, userForPhone } from "../channels";
import type { AppEnv } from "../env";
import { ussd } from "./index";
import { until } from "../../tests/workers/until";

const db = createDb(env);
afterEach(() => vi.restoreAllMocks());
let phoneCounter = 0;
/** A fresh caller per test: storage is shared within this file. */
// 0803 is a mobile range throughout (core/phone.ts accepts only valid mobile numbers).
const newPhone = () => `+234803${String(Date.now() % 1e5).padStart(5, "0")}${String(phoneCounter++).padStart(2, "0")}`;

async function dial(phoneNumber: string, text: string, sessionId = `ATUid_${newId(8)}`) {
  const res = await SELF.fetch(`${ORIGIN}/ussd`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sessionId, serviceCode: "*384*1234#", phoneNumber, networkCode: "62130", text }),
  });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

async function outboxTo(phone: string) {
  const res = await call("/api/dev/outbox?limit=200");
  const { messages } = (await res.json()) as { messages: { to: string; channel: string; body: string }[] };
  return messages.filter((m) => m.to === phone);
}

describe("POST /ussd", () => {
  it("opens with the main menu as text/plain CON", async () => {
    const res = await dial(newPhone(), "");
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/plain");
    expect(res.body).toBe("CON LinkUp\n1 Send SOS\n2 Ask assistant\n3 Market prices\n4 Translate\n5 My account\n0 Exit");
  });

  it("repeats a screen with a short error on an invalid or empty answer", async () => {
    const phone = newPhone();
    expect((await dial(phone, "8")).body).toMatch(/^CON Invalid choice, try again\. LinkUp\n1 Send SOS/);
    expect((await dial(phone, "1*")).body).toMatch(/^CON Please type an answer\. Type of emergency:/);
    expect((await dial(phone, "1*00")).body).toMatch(/^CON LinkUp\n/);
  });

  it("refuses a malformed callback with a JSON 400", async () => {
    const res = await SELF.fetch(`${ORIGIN}/ussd`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ sessionId: "s1", text: "" }),
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain("phoneNumber");
  });

  it("exits with END", async () => {
    expect((await dial(newPhone(), "0")).body).toBe("END Thank you for using LinkUp. Stay safe.");
  });
});

describe("a suspended phone", () => {
  it("gets only SOS: the menu says so, anything else ends with the suspension, SOS still goes out; unban restores the menu", async () => {
    const admin = await adminSession();
    const phone = newPhone();
    const caller = await userForPhone(db, phone);
    await setBanned(admin, caller.id, true);

    expect((await dial(phone, "")).body).toBe("CON Account suspended. Only SOS is open.\n1 Send SOS\n0 Exit");
    const refused =
      "END Your LinkUp account is suspended. Contact LinkUp support if you think this is a mistake. SOS stays open: dial again and choose 1. In danger? Call 112 or 199.";
    for (const text of ["2", "3", "4", "5", "5*2", "1*00*2", "2*what is malaria"]) expect((await dial(phone, text)).body).toBe(refused);
    expect(refused.length).toBeLessThanOrEqual(182);
    expect(await db.select().from(usageDaily).where(eq(usageDaily.userId, caller.id))).toHaveLength(0);

    // SOS by phone stays open on purpose: an emergency is never refused.
    expect((await dial(phone, "1")).body).toContain("1 Medical");
    expect((await dial(phone, "1*2*Kano city*1")).body).toMatch(/^END SOS sent\./);
    expect(await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, caller.id))).toHaveLength(1);
    expect((await dial(phone, "0")).body).toBe("END Thank you for using LinkUp. Stay safe.");

    await setBanned(admin, caller.id, false);
    expect((await dial(phone, "")).body).toMatch(/^CON LinkUp\n1 Send SOS\n2 Ask assistant/);
  });

  it("is refused in the phone's language", async () => {
    const admin = await adminSession();
    const phone = newPhone();
    await dial(phone, "5*2*5"); // Pidgin
    await setBanned(admin, (await userForPhone(db, phone)).id, true);
    expect((await dial(phone, "")).body).toBe("CON Account suspended. Na only SOS dey open.\n1 Send SOS\n0 Comot");
    expect((await dial(phone, "3")).body).toMatch(/^END Dem don suspend your LinkUp account\./);
  });
});

describe("USSD SOS", () => {
  it("reaches the area room and the caller's contacts, and says how many plus 112/199", async () => {
    const phone = newPhone();
    const ikeja = placeFromText("Ikeja");
    if (!ikeja) throw new Error("Ikeja missing");
    const room = `nearby:${encodeGeohash(ikeja.lat, ikeja.lon)}`;
    // A neighbour in the Ikeja area room, and one emergency contact of the caller.
    const neighbour = await anonymousSession();
    await call("/api/me/location", {
      method: "PUT",
      cookie: neighbour.cookie,
      json: { latitude: ikeja.lat, longitude: ikeja.lon },
    });
    const socket = await SELF.fetch(`${ORIGIN}/ws/rooms/${encodeURIComponent(room)}`, {
      headers: { upgrade: "websocket", cookie: neighbour.cookie },
    });
    expect(socket.status).toBe(101);
    const ws = socket.webSocket as WebSocket;
    const envelopes: { envelope: { type: string; content: { text?: string }; senderId: string } }[] = [];
    ws.accept();
    ws.addEventListener("message", (e) => {
      const frame = JSON.parse(String(e.data));
      if (frame.type === "envelope") envelopes.push(frame);
    });
    const caller = await userForPhone(db, phone);
    await db.insert(emergencyContacts).values({ id: newId(), userId: caller.id, name: "Mama", phone: "+2348099990001" });

    const sessionId = `ATUid_${newId(8)}`;
    expect((await dial(phone, "1", sessionId)).body).toContain("1 Medical");
    expect((await dial(phone, "1*1", sessionId)).body).toMatch(/^CON Where are you\?/);
    expect((await dial(phone, "1*1*Ikeja under bridge", sessionId)).body).toContain("Send Medical SOS (Ikeja under bridge)?");
    const done = await dial(phone, "1*1*Ikeja under bridge*1", sessionId);
    expect(done.body).toBe("END SOS sent. Nearby with LinkUp open or by push alert: 1. Contacts reached: 1. Call 112 or 199 now.");

    await until(() => envelopes.length > 0);
    expect(envelopes[0].envelope).toMatchObject({ type: "emergency", senderId: caller.id });
    expect(envelopes[0].envelope.content.text).toContain("Ikeja under bridge");
    ws.close();
    const contactMessages = await outboxTo("+2348099990001");
    expect(contactMessages.length).toBeGreaterThan(0);
    expect(contactMessages[0].body).toMatch(/SOS|emergency/i);

    // The gateway repeating the last request does not send a second SOS.
    expect((await dial(phone, "1*1*Ikeja under bridge*1", sessionId)).body).toMatch(/^END SOS sent\./);
    const rows = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, caller.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "ussd", emergencyType: "medical", locationText: "Ikeja under bridge" });
    expect(rows[0].geohash).toBe(room.slice("nearby:".length));
  });

  it("uses the last place known for the phone when the caller skips the place", async () => {
    const phone = newPhone();
    await dial(phone, "1*2*Kano city*1");
    const skip = await dial(phone, "1*3");
    expect(skip.body).toContain("1 Use last place: Kano city");
    expect((await dial(phone, "1*3*1")).body).toContain("Send Security SOS (Kano city)?");
    const sessionId = `ATUid_${newId(8)}`;
    expect((await dial(phone, "1*3*1*1", sessionId)).body).toMatch(
      /^END SOS sent\. Nearby with LinkUp open or by push alert: 0\. Contacts reached: 0\. Call 112 or 199/,
    );
    const user = await userForPhone(db, phone);
    const rows = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, user.id));
    const latest = rows.find((r) => r.clientRequestId === `ussd-${sessionId}`);
    expect(latest).toMatchObject({ emergencyType: "security", locationText: "Kano city" });
    const kano = placeFromText("Kano");
    expect(latest?.geohash).toBe(encodeGeohash(kano?.lat ?? 0, kano?.lon ?? 0));
  });
  it("does not hold the screen for slow channels: the SOS goes on and its counts follow by SMS", async () => {
    const phone = newPhone();
    const caller = await userForPhone(db, phone);
    await db.insert(emergencyContacts).values({ id: newId(), userId: caller.id, name: "Uncle", phone: "+2348099990002" });
    // Twilio configured, and slow: its stand-in answers each message after 1.2 s.
    const twilioEnv = {
      ...env,
      TWILIO_ACCOUNT_SID: "AC22222222222222222222222222222222",
      TWILIO_SMS_FROM: "+15005550006",
      TWILIO_WHATSAPP_FROM: "+14155238886",
      TWILIO_API_BASE: "http://twilio.loopback",
    } as AppEnv;
    const sent: URLSearchParams[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith("http://twilio.loopback/")) return realFetch(input, init);
      sent.push(new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer())));
      await new Promise((r) => setTimeout(r, 1200));
      return Response.json({ sid: `SM${sent.length}` }, { status: 201 });
    });
    const ctx = createExecutionContext();
    const started = Date.now();
    const res = await ussd.fetch(
      new Request("http://x/", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ sessionId: `ATUid_${newId(8)}`, phoneNumber: phone, text: "1*2*Jos*1" }),
      }),
      twilioEnv,
      ctx,
    );
    expect(await res.text()).toBe("END SOS sent. People nearby and your contacts are being alerted. Call 112 or 199 now.");
    expect(Date.now() - started).toBeLessThan(1200);
    await waitOnExecutionContext(ctx);
    // The contact was alerted, then the caller got the counts by SMS.
    expect(sent.map((f) => f.get("To"))).toEqual(["whatsapp:+2348099990002", phone]);
    expect(sent[1].get("Body")).toBe("SOS sent. Nearby with LinkUp open or by push alert: 0. Contacts reached: 1. Call 112 or 199 now.");
  });

  it("shows the sos module's refusal after too many SOS in an hour", async () => {
    const phone = newPhone();
    for (let i = 0; i < 10; i++) expect((await dial(phone, "1*6*1*1")).body).toMatch(/^END SOS sent\./);
    expect((await dial(phone, "1*6*1*1")).body).toBe("END Too many SOS from you in the last hour. If you are in danger, call 112 or 199.");
  });

  it("says the SOS limit in the caller's language, not the API's English", async () => {
    const phone = newPhone();
    await dial(phone, "5*2*5"); // Pidgin
    for (let i = 0; i < 10; i++) expect((await dial(phone, "1*6*1*1")).body).toMatch(/^END SOS don go\./);
    expect((await dial(phone, "1*6*1*1")).body).toBe(
      "END You don send too many SOS for the last one hour. If you dey danger, call 112 or 199.",
    );
  });
});

describe("USSD assistant, prices and translation", () => {
  it("answers a question on screen and sends the full answer by SMS when it is longer", async () => {
    const phone = newPhone();
    // First-aid guidance is longer than one screen.
    const res = await dial(phone, "2*emergency someone is bleeding badly");
    expect(res.body).toMatch(/^END .*Full answer by SMS\.$/s);
    expect(res.body.length).toBeLessThanOrEqual(182);
    await until(async () => (await outboxTo(phone)).length > 0);
    const sms = await outboxTo(phone);
    expect(sms).toHaveLength(1);
    expect(sms[0].channel).toBe("sms");
    expect(sms[0].body).toContain("Bleeding");
    expect(sms[0].body.length).toBeGreaterThan(178);
    // A short answer stays on screen alone.
    const other = newPhone();
    const short = await dial(other, "2*help");
    expect(short.body).not.toContain("Full answer by SMS");
  });

  it("with the online assistant configured, answers offline on screen and sends the online answer by SMS", async () => {
    const phone = newPhone();
    // Outside development the SMS goes through Twilio (faked at its HTTP edge) and the gateway sends the secret.
    const twilio = fakeTwilio((impl) => vi.spyOn(globalThis, "fetch").mockImplementation(impl));
    const onlineEnv = {
      ...env,
      ...twilio.bindings,
      USSD_SHARED_SECRET: "ussd-test-secret",
      ENVIRONMENT: "production",
      AI: { run: async () => ({ response: "Plant maize when the rains are steady, usually April to May in the south." }) },
    } as unknown as AppEnv;
    const ctx = createExecutionContext();
    const res = await ussd.fetch(
      new Request("http://x/?secret=ussd-test-secret", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ sessionId: `ATUid_${newId(8)}`, phoneNumber: phone, text: "2*when should I plant maize?" }),
      }),
      onlineEnv,
      ctx,
    );
    const screen = await res.text();
    expect(screen).toMatch(/^END .* Full answer by SMS\.$/s);
    await waitOnExecutionContext(ctx);
    const sms = await outboxTo(phone);
    expect(sms).toEqual([
      expect.objectContaining({ channel: "sms", body: "Plant maize when the rains are steady, usually April to May in the south." }),
    ]);
    // One question, counted once.
    const user = await userForPhone(db, phone);
    const [usage] = await db.select().from(usageDaily).where(eq(usageDaily.userId, user.id));
    expect(usage.aiCommands).toBe(1);
  });

  it("sends no SMS to a phone that opted out, and says nothing about one", async () => {
    const phone = newPhone();
    await setOptedOut(db, phone, true);
    const res = await dial(phone, "2*emergency someone is bleeding badly");
    expect(res.body).toMatch(/^END /);
    expect(res.body).not.toContain("SMS");
    await new Promise((r) => setTimeout(r, 100));
    expect(await outboxTo(phone)).toHaveLength(0);
  });

  it("counts USSD questions against the free tier like the web, then offers Premium", async () => {
    const phone = newPhone();
    for (let i = 0; i < 10; i++) expect((await dial(phone, "2*market maize")).body).toMatch(/^END /);
    const over = await dial(phone, "2*market maize");
    expect(over.body).toMatch(/^END You've used your 10 free AI commands for today\. Upgrade to Premium/);
    // A premium user is not limited.
    const user = await userForPhone(db, phone);
    await db.update(users).set({ subscriptionTier: "premium" }).where(eq(users.id, user.id));
    expect((await dial(phone, "2*market maize")).body).not.toContain("Upgrade");
  });

  it("shows market prices for a commodity and place from the database", async () => {
    const commodities = await listCommodities(db, { examples: true });
    const index = commodities.indexOf("Rice (local)");
    const page = Math.floor(index / 7);
    const path = [...Array(page).fill("9"), String((index % 7) + 1)].join("*");
    expect((await dial(newPhone(), `3*${path}`)).body).toBe("CON Rice (local): type town or market, or 1 for all places.\n00 Back");
    // The seeded figure, shown only in development, says it is an example and the day it was stored.
    expect((await dial(newPhone(), `3*${path}*Kano`)).body).toMatch(
      /^END Rice \(local\), 50kg bag:\nDawanau Market N70,200\nexample, not observed, \d{4}-\d{2}-\d{2}$/,
    );
    const all = await dial(newPhone(), `3*${path}*1`);
    expect(all.body).toMatch(/^END Rice \(local\), 50kg bag:\n/);
    expect(all.body).toContain("Kano N70,200");
    expect((await dial(newPhone(), `3*${path}*Timbuktu`)).body).toBe("END No prices found for Rice (local) in Timbuktu.");
  });

  it("translates typed text into the chosen language", async () => {
    const res = await dial(newPhone(), "4*good morning*2");
    expect(res.body).toBe("END Hausa: Barka da safiya");
  });
});

describe("USSD account", () => {
  it("shows tier and verification, and remembers the chosen language for the phone", async () => {
    const phone = newPhone();
    expect((await dial(phone, "5")).body).toBe(
      `CON My account\nPhone: ${phone}\nTier: Free\nNot verified for web\n1 Confirm phone with code\n2 Language\n00 Back`,
    );
    const saved = await dial(phone, "5*2*5");
    expect(saved.body).toMatch(/^CON Language don save\. LinkUp\n1 Send SOS\n2 Ask di helper/);
    // A new session from the same phone is in Pidgin; another phone is not.
    expect((await dial(phone, "")).body).toContain("0 Comot");
    expect((await dial(newPhone(), "")).body).toContain("0 Exit");
    expect((await dial(phone, "5*2*1")).body).toMatch(/^CON Language saved\. LinkUp/);
  });

  it("a code typed on USSD confirms the phone's channel and signs in no web session", async () => {
    const phone = newPhone();
    const channelUser = await userForPhone(db, phone);
    // Someone on the web asks for a code for this phone.
    const web = await anonymousSession();
    const reg = await call("/api/auth/register", { method: "POST", cookie: web.cookie, json: { phoneNumber: phone, channel: "sms" } });
    expect(reg.status).toBe(200);
    const code = /\b(\d{6})\b/.exec((await outboxTo(phone))[0]?.body ?? "")?.[1];
    expect(code).toBeDefined();

    expect((await dial(phone, "5*1")).body).toBe("CON Type the 6-digit code LinkUp sent to this phone:\n00 Back");
    expect((await dial(phone, "5*1*000000")).body).toBe("END Invalid verification code. Please try again.");
    expect((await dial(phone, `5*1*${code}`)).body).toBe(
      "END Phone confirmed for LinkUp on USSD. Nobody was signed in on the web: the code works there only in the browser that asked for it.",
    );
    // The web visitor is not the phone's user and is not verified; the phone's user hears of the sign-in.
    const me = await (await call("/api/me", { cookie: web.cookie })).json<{ user: { id: string; authMode: string } }>();
    expect(me.user).toMatchObject({ id: web.user.id, authMode: "anonymous" });
    const notes = await env.DB.prepare("select title, content from notifications where user_id = ?")
      .bind(channelUser.id)
      .all<{ title: string; content: string }>();
    expect(notes.results).toContainEqual({
      title: "New sign-in to your account",
      content: `A USSD session signed in with ${phone}. If this was not you, call support.`,
    });
    expect((await dial(phone, "5")).body).toContain("Not verified for web");
  });
});

describe("USSD shared secret", () => {
  const form = (phoneNumber: string) =>
    new URLSearchParams({ sessionId: "s-secret", serviceCode: "*384#", phoneNumber, networkCode: "62130", text: "1" });

  it("refuses requests without the secret when USSD_SHARED_SECRET is set, before any work", async () => {
    const withSecret = { ...env, USSD_SHARED_SECRET: "s3cret-value" } as AppEnv;
    const phone = newPhone();
    for (const url of ["http://x/", "http://x/?secret=wrong"]) {
      const ctx = createExecutionContext();
      const res = await ussd.fetch(
        new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form(phone) }),
        withSecret,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(403);
      expect((await res.json<{ error: string }>()).error).toMatch(/secret/);
    }
    expect(await db.select().from(users).where(eq(users.phone, phone))).toHaveLength(0);

    for (const req of [
      new Request("http://x/?secret=s3cret-value", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form(phone),
      }),
      new Request("http://x/", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-ussd-secret": "s3cret-value" },
        body: form(phone),
      }),
    ]) {
      const ctx = createExecutionContext();
      const ok = await ussd.fetch(req, withSecret, ctx);
      await waitOnExecutionContext(ctx);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("1 Medical");
    }
  });
});
