// POST /webhooks/whatsapp: the Twilio WhatsApp webhook (docs/architecture.md §7). The X-Twilio-Signature is checked
// before anything else: an unsigned or wrongly signed request is refused with 403 and nothing is read or done.
import { Hono } from "hono";
import { twiml, WhatsAppWebhookSchema } from "../../core/whatsapp-schemas";
import { paramsFromForm, validTwilioSignature } from "../../core/whatsapp-signature";
import { createDb } from "../../db";
import type { AppBindings, AppEnv } from "../env";
import { notFound, onError, parseWith } from "../errors";
import { DomainError } from "../../core/domain-error";
import { handleWhatsApp } from "./bot";

/** The public URLs Twilio may have signed: the one this request arrived at, and the same path on APP_URL. */
export function publicUrls(env: AppEnv, requestUrl: string): string[] {
  const urls = [requestUrl];
  if (env.APP_URL) {
    const u = new URL(requestUrl);
    urls.push(new URL(`${u.pathname}${u.search}`, env.APP_URL).toString());
  }
  return urls;
}

export const whatsapp = new Hono<AppBindings>().post("/", async (c) => {
  const form = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()));
  const signature = c.req.header("x-twilio-signature") ?? "";
  const valid = await validTwilioSignature(c.env.TWILIO_AUTH_TOKEN ?? "", signature, publicUrls(c.env, c.req.url), paramsFromForm(form));
  if (!valid) throw new DomainError("twilio_signature", "Invalid or missing Twilio signature");

  const msg = parseWith(WhatsAppWebhookSchema, Object.fromEntries(form));
  const reply = await handleWhatsApp(c.env, createDb(c.env), msg, (p) => c.executionCtx.waitUntil(p));
  return c.body(twiml(reply), 200, { "content-type": "text/xml; charset=utf-8", "cache-control": "no-store" });
});
whatsapp.onError(onError);
whatsapp.notFound(notFound);
