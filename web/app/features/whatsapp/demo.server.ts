// Loader and action of /whatsapp-demo. Locally (development, Twilio not configured) a person chats with the
// real webhook: the action signs the form exactly as Twilio would, with the local TWILIO_AUTH_TOKEN, and posts
// it in-process; replies are the TwiML answer plus later messages, which land in the dev outbox.
import { env } from "cloudflare:workers";
import { data } from "react-router";
import { normalizePhone } from "../../../../core/phone";
import { twimlMessages, WhatsAppDemoFormSchema } from "../../../../core/whatsapp-schemas";
import { twilioSignature } from "../../../../core/whatsapp-signature";
import { type AppContext, appContext } from "../../context";
import { apiGet } from "../../lib/api.server";

type Ctx = { get: (key: typeof appContext) => AppContext };

export const DEMO_PHONE_COOKIE = "linkup-wa-demo-phone";
export const WEBHOOK_PATH = "/webhooks/whatsapp";

interface Secrets {
  ENVIRONMENT?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_WHATSAPP_FROM?: string;
}
const secrets = () => env as unknown as Secrets;

/** The local chat exists only in development, with no real Twilio behind it and a local token to sign with. */
export function demoAvailable(): boolean {
  const e = secrets();
  const twilio = Boolean(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_WHATSAPP_FROM);
  return e.ENVIRONMENT === "development" && !twilio && Boolean(e.TWILIO_AUTH_TOKEN);
}

function cookieValue(request: Request, name: string): string | null {
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(request.headers.get("cookie") ?? "");
  return m ? decodeURIComponent(m[1]) : null;
}

export interface OutboxMessage {
  id: string;
  to: string;
  channel: "whatsapp" | "sms";
  body: string;
  createdAt: string;
}

export async function loadDemo(request: Request, context: Ctx) {
  const available = demoAvailable();
  const e = secrets();
  const whatsappNumber = !available && e.TWILIO_WHATSAPP_FROM ? e.TWILIO_WHATSAPP_FROM.replace(/^whatsapp:/, "") : null;
  if (!available) return { available, whatsappNumber, phone: null, later: [] as OutboxMessage[] };
  const phone = (await normalizePhone(cookieValue(request, DEMO_PHONE_COOKIE) ?? "")) ?? null;
  const outbox = phone ? await apiGet<{ messages: OutboxMessage[] }>(context, "/api/dev/outbox?limit=200").catch(() => null) : null;
  // The dev outbox is newest first; the chat reads oldest first.
  const later = (outbox?.messages ?? []).filter((m) => m.to === phone && m.channel === "whatsapp").reverse();
  return { available, whatsappNumber, phone, later };
}

export interface DemoActionData {
  ok: boolean;
  error?: string;
  sent?: string;
  replies?: string[];
}

export async function sendDemoMessage(request: Request, context: Ctx) {
  if (!demoAvailable()) throw data({ error: "The local WhatsApp chat is only available in development without Twilio" }, { status: 404 });
  const parsed = WhatsAppDemoFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return data<DemoActionData>({ ok: false, error: parsed.error.issues[0]?.message ?? "Invalid message" }, { status: 400 });
  const input = parsed.data;
  const phone = await normalizePhone(input.phone);
  if (!phone) return data<DemoActionData>({ ok: false, error: "Enter a phone number" }, { status: 400 });
  // A suggestion button sends its own text instead of what is in the message box.
  const text = input.quick || input.body;
  if (input.intent === "send" && !text.trim()) return data<DemoActionData>({ ok: false, error: "Type a message" }, { status: 400 });
  if (input.intent === "location" && (input.latitude === undefined || input.longitude === undefined)) {
    return data<DemoActionData>({ ok: false, error: "Enter a latitude and a longitude" }, { status: 400 });
  }

  // The fields Twilio sends for a WhatsApp message (or a shared location).
  const form = new URLSearchParams({
    MessageSid: `SMdemo${crypto.randomUUID().replace(/-/g, "")}`,
    AccountSid: "AC_local_demo",
    From: `whatsapp:${phone}`,
    To: "whatsapp:+10000000000",
    NumMedia: "0",
    ProfileName: "Demo",
    Body: input.intent === "send" ? text : "",
  });
  if (input.intent === "location") {
    form.set("Latitude", String(input.latitude));
    form.set("Longitude", String(input.longitude));
    if (input.place) form.set("Address", input.place);
  }
  const url = new URL(WEBHOOK_PATH, request.url).toString();
  const signature = await twilioSignature(secrets().TWILIO_AUTH_TOKEN ?? "", url, Object.fromEntries(form));
  const res = await context.get(appContext).api(WEBHOOK_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    body: form.toString(),
  });
  const headers = new Headers({ "set-cookie": `${DEMO_PHONE_COOKIE}=${encodeURIComponent(phone)}; Path=/; SameSite=Lax; Max-Age=2592000` });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    return data<DemoActionData>({ ok: false, error: body.error ?? `The webhook answered ${res.status}` }, { status: 502, headers });
  }
  const sent = input.intent === "location" ? `📍 ${input.place || `${input.latitude}, ${input.longitude}`}` : text;
  return data<DemoActionData>({ ok: true, sent, replies: twimlMessages(await res.text()) }, { headers });
}
