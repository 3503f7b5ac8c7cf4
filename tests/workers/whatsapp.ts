// A WhatsApp message as Twilio delivers it to /webhooks/whatsapp: the form, its signature under the test
// env's TWILIO_AUTH_TOKEN, and the reply read out of the TwiML answer.
import { SELF } from "cloudflare:test";
import { newId } from "../../core/ids";
import { paramsFromForm, twilioSignature } from "../../core/whatsapp-signature";
import { ORIGIN } from "./helpers";

export const TWILIO_TEST_TOKEN = "test-twilio-auth-token";
export const WHATSAPP_URL = `${ORIGIN}/webhooks/whatsapp`;

/** Twilio's form for a message from `phone` (E.164); `extra` sets Body, media fields and the like. */
export function whatsappForm(phone: string, extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    MessageSid: `SM${newId(12)}`,
    AccountSid: "AC00000000000000000000000000000000",
    From: `whatsapp:${phone}`,
    To: "whatsapp:+14155238886",
    NumMedia: "0",
    Body: "",
    ...extra,
  });
}

/** The X-Twilio-Signature Twilio would send for this form posted to `url`. */
export function signWhatsapp(form: URLSearchParams, url = WHATSAPP_URL): Promise<string> {
  return twilioSignature(TWILIO_TEST_TOKEN, url, paramsFromForm(form));
}

/** Posts a signed message from `phone`; the status, content type, TwiML and the reply's text (null if none). */
export async function whatsappMessage(phone: string, extra: Record<string, string> = {}) {
  const form = whatsappForm(phone, extra);
  const res = await SELF.fetch(WHATSAPP_URL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": await signWhatsapp(form) },
    body: form,
  });
  const xml = await res.text();
  const reply = /<Message>([\s\S]*)<\/Message>/.exec(xml)?.[1] ?? null;
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    xml,
    reply:
      reply
        ?.replace(/&apos;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&") ?? null,
  };
}
