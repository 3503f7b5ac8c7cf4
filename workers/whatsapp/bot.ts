// One WhatsApp message, already proven to come from Twilio: the bot's answer (sent back as TwiML), or null
// to stay silent. Slow work (an SOS reaching everyone, the online assistant) is acknowledged at once and its
// result sent afterwards through the Twilio REST API from waitUntil.
import { placeFromText } from "../../core/places";
import { parsePriceReportText, quoteText } from "../../core/price-reports";
import { reportPrice } from "../prices";
import { newId } from "../../core/ids";
import { parseWhatsAppCommand, type WhatsAppWebhook } from "../../core/whatsapp-schemas";
import { langListText, WHATSAPP_TEXTS, type WhatsAppTexts } from "../../core/whatsapp-texts";
import { CHANNEL_LANGUAGE_NAMES, type ChannelLanguage, channelTexts, fill, sosRefusalText } from "../../core/ussd-texts";
import type { Db } from "../../db";
import { runAiCommand } from "../assistant";
import {
  channelPhone,
  getPhoneChannel,
  phoneSuspended,
  setChannelLanguage,
  setChannelLocation,
  setOptedOut,
  setPendingSos,
  userForPhone,
} from "../channels";
import { type AppEnv, servicesStatus } from "../env";
import { DomainError } from "../../core/domain-error";
import { confirmPhoneChannel } from "../identity/verification";
import { sendMessage } from "../services/messaging";
import { broadcastSos } from "../sos";

type WaitUntil = (p: Promise<unknown>) => void;

/** What an SOS from WhatsApp says when the sender typed nothing after 'SOS'. */
export const WHATSAPP_SOS_MESSAGE = "Help needed now (sent by WhatsApp)";

const TYPE_WORDS: [string, RegExp][] = [
  ["fire", /\b(fire|burning|gobara|ina|oku)\b/i],
  ["flood", /\b(flood|flooding|ambaliya|omiyale)\b/i],
  ["accident", /\b(accident|crash|collision|hatsari|ijamba)\b/i],
  ["security", /\b(robbery|robbers|thief|thieves|kidnap\w*|attack\w*|gun\w*|armed)\b/i],
  ["medical", /\b(bleeding|unconscious|collapsed|fainted|injured|sick|labour|labor|heart|breathing|medical|doctor)\b/i],
];

/** The SOS type a few typed words suggest; 'other' when none does. */
export function guessEmergencyType(message: string): string {
  return TYPE_WORDS.find(([, re]) => re.test(message))?.[0] ?? "other";
}

/** How long an SOS sent before any location waits for one. */
export const PENDING_SOS_MS = 15 * 60 * 1000;

interface SosRequest {
  phone: string;
  userId: string;
  message: string;
  requestId: string;
  location?: { latitude: number; longitude: number };
  locationText: string | null;
  language: ChannelLanguage;
  t: WhatsAppTexts;
}

/** The SOS runs after the answer: the sos module reaches everyone, then the sender hears how many. */
function startSos(env: AppEnv, db: Db, r: SosRequest, waitUntil: WaitUntil): void {
  waitUntil(
    (async () => {
      try {
        const result = await broadcastSos(
          env,
          db,
          {
            userId: r.userId,
            message: r.message.slice(0, 500),
            emergencyType: guessEmergencyType(r.message),
            location: r.location,
            locationText: r.locationText ?? undefined,
            // Twilio retries a webhook it got no answer to: the message id keeps that to one SOS.
            clientRequestId: r.requestId,
            channel: "whatsapp",
          },
          waitUntil,
        );
        const reached = result.reached;
        await sendLater(env, db, r.phone, fill(r.t.sosSent, { people: Math.max(reached.room, reached.push), contacts: reached.contacts }));
      } catch (e) {
        if (!(e instanceof DomainError)) console.error("whatsapp: sos", e);
        // A refusal the sos module names (e.g. too many SOS in an hour) is said in the sender's language.
        const body =
          e instanceof DomainError
            ? sosRefusalText(channelTexts(r.language), e.kind)
            : fill(r.t.sosFailed, { error: "" }).replace(":  ", ". ");
        await sendLater(env, db, r.phone, body);
      }
    })(),
  );
}

/** Sends a later answer (the messaging adapter drops it if the phone opted out meanwhile). */
async function sendLater(env: AppEnv, db: Db, phone: string, body: string): Promise<void> {
  await sendMessage(env, db, { to: phone, channel: "whatsapp", body });
}

/**
 * PRICE rice 50kg 78000 Mile 12: the report goes through the same module as the web's (workers/prices); the
 * phone, proven by Twilio's signature, is the reporter (docs/decisions/068-market-prices-people-report.md).
 */
async function reportPriceByWhatsApp(db: Db, phone: string, text: string, language: ChannelLanguage, t: WhatsAppTexts): Promise<string> {
  const fields = parsePriceReportText(text);
  if (!fields) return t.priceUsage;
  const user = await userForPhone(db, phone);
  try {
    const done = await reportPrice(db, { userId: user.id, channel: "whatsapp" }, fields);
    const thanks = fill(t.priceThanks, { quote: quoteText(channelTexts(language), done.quote) });
    return done.points ? `${thanks}. ${fill(t.pricePoints, { points: done.points })}` : thanks;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return e.kind === "rate_limited" ? t.priceTooMany : `${e.message.replace(/^Invalid request: \w+: /, "")}. ${t.priceUsage}`;
  }
}

export async function handleWhatsApp(env: AppEnv, db: Db, msg: WhatsAppWebhook, waitUntil: WaitUntil): Promise<string | null> {
  const phone = await channelPhone(msg.From);
  if (!phone) throw new DomainError("invalid_phone", "Invalid request: From must be whatsapp:+<number>");
  const channel = await getPhoneChannel(db, phone);
  const command = parseWhatsAppCommand(msg);
  const t: WhatsAppTexts = WHATSAPP_TEXTS[channel.language];

  // An opted-out phone gets nothing and nothing is done for it, until it says START.
  if (channel.optedOut && command.kind !== "start") return null;
  // A suspended phone keeps SOS (and the location an SOS waits for) and STOP/START; nothing else (docs/decisions/025-bans.md).
  if (!["sos", "location", "stop", "start"].includes(command.kind) && (await phoneSuspended(db, phone))) return t.suspended;

  switch (command.kind) {
    case "stop":
      await setOptedOut(db, phone, true);
      return t.stopped;
    case "start":
      await setOptedOut(db, phone, false);
      return t.started;
    case "help":
      return t.help;
    case "media":
      return t.media;
    case "other":
      return t.other;
    case "lang": {
      if (!command.language) return langListText(t);
      await setChannelLanguage(db, phone, command.language);
      return fill(WHATSAPP_TEXTS[command.language].langSet, { lang: CHANNEL_LANGUAGE_NAMES[command.language] });
    }
    case "location": {
      await setChannelLocation(db, phone, { latitude: command.latitude, longitude: command.longitude, locationText: command.label });
      const pending = channel.pendingSos;
      if (!pending) return t.locationSaved;
      await setPendingSos(db, phone, null);
      if (Date.now() - pending.at > PENDING_SOS_MS) return t.locationSaved;
      const user = await userForPhone(db, phone);
      const location = { latitude: command.latitude, longitude: command.longitude };
      startSos(
        env,
        db,
        {
          phone,
          userId: user.id,
          message: pending.message,
          requestId: pending.requestId,
          location,
          locationText: command.label,
          language: channel.language,
          t,
        },
        waitUntil,
      );
      return t.sosAck;
    }
    case "code": {
      // A code replied from the phone links this WhatsApp number only; it never signs in the web session that
      // asked for it (docs/decisions/011-a-code-proves-the-browser-that-typed-it.md).
      const result = await confirmPhoneChannel(env, db, { phone, code: command.code, channel: "whatsapp", waitUntil });
      return result.ok ? t.verified : result.error;
    }
    case "ai": {
      const user = await userForPhone(db, phone);
      // A location shared in this chat says where the person is when a command names no place.
      const area = { latitude: channel.latitude, longitude: channel.longitude, text: channel.locationText };
      const input = { userId: user.id, text: command.text, channel: "whatsapp" as const, area };
      if (!servicesStatus(env).workersAi) {
        // Only the offline assistant: it answers at once, in this reply.
        const result = await runAiCommand(env, db, { ...input, mode: "offline" });
        return result.ok ? result.message : result.body.error;
      }
      waitUntil(
        (async () => {
          const result = await runAiCommand(env, db, input);
          await sendLater(env, db, phone, result.ok ? result.message : result.body.error);
        })().catch((e) => console.error("whatsapp: assistant answer", e)),
      );
      return t.thinking;
    }
    case "price":
      return reportPriceByWhatsApp(db, phone, command.text, channel.language, t);
    case "sos": {
      const user = await userForPhone(db, phone);
      const location =
        channel.latitude != null && channel.longitude != null
          ? { latitude: channel.latitude, longitude: channel.longitude }
          : user.latitude != null && user.longitude != null
            ? { latitude: user.latitude, longitude: user.longitude }
            : null;
      const requestId = `wa-${msg.MessageSid ?? newId()}`.slice(0, 64);
      const message = command.message || WHATSAPP_SOS_MESSAGE;
      // Without a shared position, a known town named in the SOS, kept for the phone or in the profile gives
      // the area room (the same rule as every channel: core/places.ts).
      const town = [command.message, channel.locationText, user.locationText].find((text) => placeFromText(text));
      if (!location && !town) {
        // Kept until a location arrives (within PENDING_SOS_MS), then sent at once.
        await setPendingSos(db, phone, { message, requestId, at: Date.now() });
        return t.sosNeedsLocation;
      }
      const locationText = location ? channel.locationText : (town ?? null);
      startSos(
        env,
        db,
        { phone, userId: user.id, message, requestId, location: location ?? undefined, locationText, language: channel.language, t },
        waitUntil,
      );
      return t.sosAck;
    }
  }
}
