import { describe, expect, it } from "vitest";
import { parseWhatsAppCommand, twiml, twimlMessages, WhatsAppWebhookSchema } from "./whatsapp-schemas";

const msg = (Body: string, extra: Partial<Parameters<typeof parseWhatsAppCommand>[0]> = {}) =>
  parseWhatsAppCommand({ Body, NumMedia: 0, ...extra });

describe("WhatsApp commands", () => {
  it("reads each command in any case", () => {
    expect(msg(" stop ")).toEqual({ kind: "stop" });
    expect(msg("UNSUBSCRIBE")).toEqual({ kind: "stop" });
    expect(msg("Start")).toEqual({ kind: "start" });
    expect(msg("help")).toEqual({ kind: "help" });
    expect(msg("")).toEqual({ kind: "help" });
    expect(msg("LANG Yoruba")).toEqual({ kind: "lang", language: "yoruba" });
    expect(msg("language naija")).toEqual({ kind: "lang", language: "pidgin" });
    expect(msg("lang")).toEqual({ kind: "lang", language: null });
    expect(msg("@ai market rice kano")).toEqual({ kind: "ai", text: "market rice kano" });
    expect(msg("@AI weather jos")).toEqual({ kind: "ai", text: "weather jos" });
    expect(msg("SOS")).toEqual({ kind: "sos", message: "" });
    expect(msg("sos: house on fire")).toEqual({ kind: "sos", message: "house on fire" });
    expect(msg("123 456")).toEqual({ kind: "code", code: "123456" });
    expect(msg("1234567")).toEqual({ kind: "other", text: "1234567" });
    expect(msg("sosa is my name")).toEqual({ kind: "other", text: "sosa is my name" });
    expect(msg("", { NumMedia: 1 })).toEqual({ kind: "media" });
  });

  it("reads PRICE as a report when it carries one, as a question when it names only an item", () => {
    expect(msg("PRICE rice 50kg 78000 Mile 12")).toEqual({ kind: "price", text: "rice 50kg 78000 Mile 12" });
    expect(msg("@ai price rice 50kg 78000 Mile 12")).toEqual({ kind: "price", text: "rice 50kg 78000 Mile 12" });
    expect(msg("price rice")).toEqual({ kind: "ai", text: "price rice" });
    expect(msg("PRICE rice mile 12")).toEqual({ kind: "ai", text: "price rice mile 12" });
    // An attempt the bot cannot read is answered with the command's form, not taken for a question.
    expect(msg("PRICE rice 50kg Mile 12")).toEqual({ kind: "price", text: "rice 50kg Mile 12" });
    expect(msg("@ai price of rice")).toEqual({ kind: "ai", text: "price of rice" });
    expect(msg("pricey")).toEqual({ kind: "other", text: "pricey" });
  });

  it("treats a location message as a location whatever its body", () => {
    expect(msg("", { Latitude: 6.5, Longitude: 3.3, Address: "Yaba, Lagos" })).toEqual({
      kind: "location",
      latitude: 6.5,
      longitude: 3.3,
      label: "Yaba, Lagos",
    });
  });

  it("validates Twilio's fields", () => {
    expect(WhatsAppWebhookSchema.safeParse({ From: "+2348000000000" }).success).toBe(false);
    expect(WhatsAppWebhookSchema.safeParse({ From: "whatsapp:+2348000000000", Latitude: "95" }).success).toBe(false);
    const ok = WhatsAppWebhookSchema.parse({ From: "whatsapp:+2348000000000", Latitude: "6.5", Longitude: "3.3", NumMedia: "2" });
    expect(ok).toMatchObject({ Body: "", Latitude: 6.5, Longitude: 3.3, NumMedia: 2 });
  });

  it("writes and reads TwiML, escaping text", () => {
    const xml = twiml("Rice <50kg> & 'beans'");
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Message>Rice &lt;50kg&gt; &amp; &apos;beans&apos;</Message></Response>',
    );
    expect(twimlMessages(xml)).toEqual(["Rice <50kg> & 'beans'"]);
    expect(twimlMessages(twiml(null))).toEqual([]);
  });
});
