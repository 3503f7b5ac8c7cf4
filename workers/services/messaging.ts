// WhatsApp and SMS through Twilio's REST API (docs/architecture.md §9). Every message is recorded in outbound_messages;
// in development with no Twilio credentials the record is the delivery: the dev outbox shows it. Anywhere else
// without Twilio nothing is recorded or sent: the caller hears `unavailable` and refuses clearly. Where the record
// is not the delivery, it keeps the body redacted (codes, phone numbers and links gone; core/redact.ts): the
// message is sent from memory, so no code is ever stored (docs/decisions/048-secrets-at-rest-and-the-console.md).
import { redactMessageBody } from "../../core/redact";
import type { Db } from "../../db";
import { type OutboundChannel, recordOutbound, updateOutbound } from "../../db/queries/outbox";
import { findPhoneChannel } from "../../db/queries/phone-channels";
import { type AppEnv, devOutboxEnabled, messagingAvailable } from "../env";

export interface SendResult {
  id: string;
  status: "stored" | "sent" | "failed";
  error?: string;
  /** Set when nothing can carry messages here (production without Twilio): the feature should refuse. */
  unavailable?: true;
}

const MAX_ATTEMPTS = 3;

export const MESSAGING_UNAVAILABLE = "WhatsApp and SMS are not configured on this server";

export async function sendMessage(
  env: AppEnv,
  db: Db,
  msg: { to: string; channel: OutboundChannel; body: string },
  opts: {
    sleep?: (ms: number) => Promise<void>;
    requestedByRecipient?: boolean;
    /** The record's id, when the caller must find it again after a crash (an SOS contact's message, decision 054). */
    id?: string;
  } = {},
): Promise<SendResult> {
  if (!messagingAvailable(env)) return { id: "", status: "failed", error: MESSAGING_UNAVAILABLE, unavailable: true };
  const devOutbox = devOutboxEnabled(env);
  // The dev outbox is where development's codes arrive (browser and Worker tests read them there): kept whole.
  const kept = { ...msg, body: devOutbox ? msg.body : redactMessageBody(msg.body) };
  // A phone that sent STOP gets nothing it did not ask for this moment (a verification code it requested
  // is the one exception). The refusal is recorded like any other outcome, so callers can fall back.
  if (!opts.requestedByRecipient && (await optedOut(db, msg.to))) {
    const row = await recordOutbound(db, { ...kept, status: "failed" }, opts.id);
    await updateOutbound(db, row.id, { status: "failed", error: "Recipient opted out (STOP)" });
    return { id: row.id, status: "failed", error: "Recipient opted out (STOP)" };
  }
  if (devOutbox) {
    const row = await recordOutbound(db, { ...msg, status: "stored" }, opts.id);
    return { id: row.id, status: "stored" };
  }
  const row = await recordOutbound(db, { ...kept, status: "queued" }, opts.id);
  const from = msg.channel === "whatsapp" ? env.TWILIO_WHATSAPP_FROM : env.TWILIO_SMS_FROM;
  if (!from) {
    const error = `No Twilio sender configured for ${msg.channel}`;
    await updateOutbound(db, row.id, { status: "failed", error });
    return { id: row.id, status: "failed", error };
  }
  const prefix = msg.channel === "whatsapp" ? "whatsapp:" : "";
  const form = new URLSearchParams({ To: `${prefix}${msg.to}`, From: from.startsWith(prefix) ? from : `${prefix}${from}`, Body: msg.body });
  const base = env.TWILIO_API_BASE || "https://api.twilio.com";
  const url = `${base}/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/Messages.json`;
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  let error = "";
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form,
      });
      if (res.ok) {
        const body = (await res.json().catch(() => ({}))) as { sid?: string };
        await updateOutbound(db, row.id, { status: "sent", providerId: body.sid ?? null, attempts: attempt, error: null });
        return { id: row.id, status: "sent" };
      }
      error = `Twilio answered ${res.status}`;
      // 4xx will not get better by retrying (bad number, opted out); 5xx and 429 might.
      if (res.status < 500 && res.status !== 429) {
        await updateOutbound(db, row.id, { status: "failed", attempts: attempt, error: `${error}: ${(await res.text()).slice(0, 300)}` });
        return { id: row.id, status: "failed", error };
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (attempt < MAX_ATTEMPTS) await sleep(250 * 2 ** attempt);
  }
  await updateOutbound(db, row.id, { status: "failed", attempts: MAX_ATTEMPTS, error });
  return { id: row.id, status: "failed", error };
}

async function optedOut(db: Db, phone: string): Promise<boolean> {
  const row = await findPhoneChannel(db, phone);
  return row?.optedOut ?? false;
}
