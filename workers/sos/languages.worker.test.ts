// Texts the Worker sends to a person go out in that person's language (docs/decisions/031-web-app-languages.md):
// the SOS push and notification, the WhatsApp to emergency contacts, and a language saved on the web reaches
// the phone channels.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { createDb } from "../../db";
import { anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import { replyLanguage } from "../assistant";
import { getPhoneChannel, setChannelLanguage } from "../channels";

const db = createDb(env);

async function personAt(language: string) {
  const s = await anonymousSession();
  expect((await call("/api/me/location", { method: "PUT", cookie: s.cookie, json: { latitude: 7.3775, longitude: 3.947 } })).status).toBe(
    200,
  );
  expect((await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { language } })).status).toBe(200);
  return s;
}

async function titles(cookie: string) {
  const { notifications } = (await (await call("/api/notifications", { cookie })).json()) as { notifications: { title: string }[] };
  return notifications.map((n) => n.title);
}

async function outboxTo(phone: string) {
  const { messages } = (await (await call("/api/dev/outbox?limit=200")).json()) as { messages: { to: string; body: string }[] };
  return messages.filter((m) => m.to === phone).map((m) => m.body);
}

describe("texts in the person's language", () => {
  it("alerts each neighbour and each contact in their own language", async () => {
    const sender = await personAt("hausa"); // Ibadan
    const hausa = await personAt("hausa");
    const yoruba = await personAt("yoruba");
    const english = await personAt("swahili"); // a language the screens do not speak yet: English
    // One contact chose Pidgin on WhatsApp; the other never chose, so gets the sender's language.
    await setChannelLanguage(db, "+2348077001122", "pidgin");
    for (const phone of ["08077001122", "08077003344"])
      expect((await call("/api/contacts", { method: "POST", cookie: sender.cookie, json: { name: "Kin", phone } })).status).toBe(201);

    const sent = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: {
        message: "Gobara a kasuwa",
        emergencyType: "fire",
        clientRequestId: newId(),
        location: { latitude: 7.3775, longitude: 3.947 },
      },
    });
    expect(sent.status).toBe(201);

    expect(await titles(hausa.cookie)).toContain("SOS a kusa: Gobara");
    expect(await titles(yoruba.cookie)).toContain("SOS nítòsí: Iná");
    expect(await titles(english.cookie)).toContain("SOS nearby: Fire");
    expect((await outboxTo("+2348077001122"))[0]).toMatch(
      /^LinkUp SOS from .* - Fire: Gobara a kasuwa\..* Call 112 or 199 if dem need help\.$/,
    );
    expect((await outboxTo("+2348077003344"))[0]).toMatch(/^SOS na LinkUp daga .* - Gobara: Gobara a kasuwa\..* Kira 112 ko 199/);
  });

  it("makes a language saved on the web the phone's language on WhatsApp and USSD", async () => {
    const person = await verifiedSession("0807", "Musa");
    expect((await getPhoneChannel(db, person.phone)).language).toBe("english");
    expect((await call("/api/me", { method: "PATCH", cookie: person.cookie, json: { language: "igbo" } })).status).toBe(200);
    expect((await getPhoneChannel(db, person.phone)).language).toBe("igbo");
  });

  it("tells the assistant to answer in the person's language unless they write in another", () => {
    expect(replyLanguage("hausa")).toContain("answer in Hausa unless their message is in another language");
    expect(replyLanguage("pidgin")).toContain("Nigerian Pidgin");
    expect(replyLanguage("english")).toBeUndefined();
  });
});
