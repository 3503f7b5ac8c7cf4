// The Twilio WhatsApp webhook (docs/architecture.md §7): its form fields, the bot's commands and its TwiML answers.
import { z } from "zod";
import { extractAiText } from "./ai-command";
import { parsePriceReportText, unitKey } from "./price-reports";
import { type ChannelLanguage, resolveChannelLanguage } from "./channel-language";

const coordinate = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d+)?$/, "must be a number")
    .transform(Number)
    .refine((n) => n >= min && n <= max, "out of range")
    .optional();

/** The fields the bot reads; Twilio sends more, which are signed but otherwise ignored. */
export const WhatsAppWebhookSchema = z.object({
  From: z
    .string()
    .trim()
    .regex(/^whatsapp:\+\d{7,15}$/, "From must be whatsapp:+<number>"),
  To: z.string().trim().max(40).optional(),
  Body: z.string().max(4096).default(""),
  MessageSid: z.string().trim().max(64).optional(),
  ProfileName: z.string().max(200).optional(),
  NumMedia: z.coerce.number().int().min(0).max(10).default(0),
  MediaContentType0: z.string().max(100).optional(),
  Latitude: coordinate(-90, 90),
  Longitude: coordinate(-180, 180),
  Address: z.string().max(300).optional(),
  Label: z.string().max(300).optional(),
});
export type WhatsAppWebhook = z.infer<typeof WhatsAppWebhookSchema>;

// Twilio's standard opt-out and opt-in words.
const STOP_WORDS = new Set(["stop", "stopall", "unsubscribe", "cancel", "end", "quit"]);
const START_WORDS = new Set(["start", "unstop", "yes"]);

export type WhatsAppCommand =
  | { kind: "stop" }
  | { kind: "start" }
  | { kind: "help" }
  | { kind: "lang"; language: ChannelLanguage | null }
  | { kind: "ai"; text: string }
  | { kind: "sos"; message: string }
  | { kind: "price"; text: string }
  | { kind: "code"; code: string }
  | { kind: "location"; latitude: number; longitude: number; label: string | null }
  | { kind: "media" }
  | { kind: "other"; text: string };

/** A report, or an attempt at one to answer with the command's form: empty, or naming a unit or a figure of 3+ digits. */
function looksLikeReport(text: string): boolean {
  const words = text.trim().split(/\s+/).filter(Boolean);
  return words.length === 0 || parsePriceReportText(text) !== null || words.some((w) => unitKey(w) !== null || /\d{3}/.test(w));
}

/** What a message asks for. Keywords in any case; a location message is a location whatever its body. */
export function parseWhatsAppCommand(
  msg: Pick<WhatsAppWebhook, "Body" | "NumMedia" | "Latitude" | "Longitude" | "Address" | "Label">,
): WhatsAppCommand {
  if (msg.Latitude !== undefined && msg.Longitude !== undefined) {
    const label = (msg.Label || msg.Address || "").trim().slice(0, 120) || null;
    return { kind: "location", latitude: msg.Latitude, longitude: msg.Longitude, label };
  }
  const body = msg.Body.trim();
  const lower = body.toLowerCase();
  if (!body) return msg.NumMedia > 0 ? { kind: "media" } : { kind: "help" };
  if (STOP_WORDS.has(lower)) return { kind: "stop" };
  if (START_WORDS.has(lower)) return { kind: "start" };
  if (lower === "help" || lower === "menu" || lower === "?") return { kind: "help" };
  const lang = /^(lang|language)\b\s*(.*)$/i.exec(body);
  if (lang) return { kind: "lang", language: resolveChannelLanguage(lang[2]) };
  // PRICE <item> <unit> <price> <market> reports a price; 'PRICE rice' (no figure) asks for one
  // (docs/decisions/068-market-prices-people-report.md). '@ai price rice 50kg 78000 Mile 12' reports too.
  const price = /^price\b[\s:,.-]*(.*)$/is.exec(body);
  if (price) return looksLikeReport(price[1]) ? { kind: "price", text: price[1].trim() } : { kind: "ai", text: `price ${price[1].trim()}` };
  const ai = extractAiText(body);
  const aiReport = ai === null ? null : /^(?:report\s+)?price\s+(.*)$/is.exec(ai.trim());
  if (aiReport && parsePriceReportText(aiReport[1])) return { kind: "price", text: aiReport[1].trim() };
  if (ai !== null) return { kind: "ai", text: ai };
  const sos = /^sos\b[\s:,.!-]*(.*)$/is.exec(body);
  if (sos) return { kind: "sos", message: sos[1].trim() };
  const code = body.replace(/\s+/g, "");
  if (/^\d{6}$/.test(code)) return { kind: "code", code };
  return { kind: "other", text: body };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c);
}

/** A TwiML answer: one message, or none (an empty <Response/>) when the bot must stay silent. */
export function twiml(message: string | null): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>';
  return message === null ? `${head}<Response/>` : `${head}<Response><Message>${escapeXml(message)}</Message></Response>`;
}

/** The messages of a TwiML answer, unescaped (empty when the bot stayed silent). */
export function twimlMessages(xml: string): string[] {
  const unescapeXml = (s: string) =>
    s.replace(/&(lt|gt|amp|apos|quot);/g, (_, e: string) => ({ lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' })[e] ?? "");
  return [...xml.matchAll(/<Message>([\s\S]*?)<\/Message>/g)].map((m) => unescapeXml(m[1]));
}

/** The /whatsapp-demo form: a message (or a shared location) from a phone number, as a person would send it. */
export const WhatsAppDemoFormSchema = z.object({
  phone: z
    .string()
    .trim()
    .regex(/^\+?[\d\s()-]{7,20}$/, "Enter a phone number"),
  intent: z.enum(["send", "location"]).default("send"),
  body: z.string().max(1000).default(""),
  quick: z.string().max(200).optional(),
  latitude: z.coerce.number().min(-90).max(90).optional(),
  longitude: z.coerce.number().min(-180).max(180).optional(),
  place: z.string().trim().max(120).optional(),
});
