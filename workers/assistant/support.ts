// The support bot (docs/product/assistant.md): categorised answers, follow-ups, and escalation to a human
// by a support ticket with the phone to call back.
import { normalizePhone } from "../../core/phone";
import type { SupportAnswer, SupportCategory } from "../../core/ai-schemas";
import { PRICES_NGN, SUPPORT_HOURS, TIER_LIMITS, TRIAL_DAYS } from "../../core/constants";
import { DomainError } from "../../core/domain-error";
import { newId } from "../../core/ids";
import { TEAM_SEATS } from "../../core/teams";
import type { Db } from "../../db";
import { insertTicket, openTicketIdsOfPhone } from "../../db/queries/support";
import type { User } from "../../db/schema";
import { supportPhone } from "../contact-config";
import type { AppEnv } from "../env";
import { classifyOffline, offlineProvider } from "./offline";
import { withFallback } from "./provider";
import { type AiMode, AI_TIMEOUT_MS, onlineProvider } from "./common";

const naira = (n: number) => `₦${n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
const hours = () => SUPPORT_HOURS.map((h) => `${h.days} ${h.hours}`).join(", ");
/** ", or call <line>" when a support line is configured; nothing when production has none (workers/contact-config.ts). */
const orCall = (phone: string) => (phone ? `, or call ${phone}` : "");

const ANSWERS: Record<Exclude<SupportCategory, "error" | "followup">, (phone: string) => string> = {
  greeting: () => "Hello! I'm the LinkUp support assistant. Ask me about plans and prices, features, a technical problem or business use.",
  pricing: () =>
    `Community is free. Premium is ${naira(PRICES_NGN.premium.monthly)} a month (${naira(PRICES_NGN.premium.yearly)} a year) with a ${TRIAL_DAYS}-day free trial: unlimited AI commands and translation, 50 voice messages a month, an SOS that reaches about 10 km around you and support call-backs first. Enterprise is ${naira(PRICES_NGN.enterprise.monthly)} a month. See /pricing to subscribe; you can cancel any time.`,
  technical: (phone) =>
    `Sorry you're having trouble. Please try: 1) reload the page or reopen the app, 2) check that LinkUp may use Bluetooth and location, 3) check your connection — messages wait in your outbox and send when you're back online. If it still fails, leave your phone number and our team will call you back${orCall(phone)} (${hours()}).`,
  features: () =>
    `LinkUp gives you nearby chat rooms, end-to-end encrypted private chats, the '@ai' assistant (translation, market prices, first aid), SOS alerts to your area and contacts, and USSD and WhatsApp access for basic phones. Premium adds unlimited AI and translation, ${TIER_LIMITS.premium.voiceMessages} voice messages a month and an SOS that reaches about 10 km.`,
  business: (phone) =>
    // What the Enterprise tier changes in code (docs/decisions/060-every-claim-true.md, 067-enterprise-teams.md).
    `Enterprise (${naira(PRICES_NGN.enterprise.monthly)} a month) is everything in Premium, with voice messages and file transfers without a monthly cap and API keys without a daily call limit, and a team of up to ${TEAM_SEATS} people: invitations, roles, a team room only members enter, and the team's support requests first in our queue. Use Contact Sales on /pricing or leave your phone number and our team will call you during support hours${orCall(phone)}.`,
  emergency: (phone) =>
    `If anyone is in danger, call 112 or 199 now and press SOS in LinkUp to alert people nearby and your contacts.${phone ? ` Our team can also help on ${phone}.` : ""}`,
  comparison: () =>
    "Unlike ordinary chat apps, LinkUp keeps working on poor networks: nearby rooms, an offline outbox, SOS to your whole area, and access from a basic phone over USSD. Private chats are end-to-end encrypted.",
};

const WANTS_HUMAN = /\b(human|person|agent|someone|somebody|representative|manager|call me|call back|callback|speak to|talk to)\b/i;
const FOLLOW_UP: SupportCategory[] = ["technical", "business"];

/** Open call-back tickets one phone may have a day: enough for a real problem, not a way to flood the queue. */
export const TICKETS_PER_PHONE_PER_DAY = 3;

export async function openTicket(db: Db, input: { user: User | null; phone: string; message: string; category: SupportCategory }) {
  const since = new Date(Date.now() - 24 * 3600 * 1000);
  const recent = await openTicketIdsOfPhone(db, input.phone, since);
  // Already waiting for a call back: keep the newest ticket rather than queue the same phone again and again.
  if (recent.length >= TICKETS_PER_PHONE_PER_DAY) return recent[0];
  const id = newId(8);
  await insertTicket(db, {
    id,
    userId: input.user?.id ?? null,
    phone: input.phone,
    message: input.message.slice(0, 2000),
    category: input.category,
  });
  return id;
}

/** POST /api/support/query: answer, category, and whether a human should call back. */
export async function supportQuery(
  env: AppEnv,
  db: Db,
  input: { message: string; userPhone?: string; user: User | null; mode?: AiMode; timeoutMs?: number },
): Promise<SupportAnswer> {
  const phoneLine = supportPhone(env);
  // The assistant's model is only used for signed-in visitors; anyone else gets the offline bot.
  const online = input.user ? onlineProvider(env, input.mode) : null;
  const timeoutMs = input.timeoutMs ?? AI_TIMEOUT_MS;
  let { category, matched } = classifyOffline(input.message);
  let response: string;
  if (matched) {
    response = ANSWERS[category as keyof typeof ANSWERS](phoneLine);
  } else {
    const asked = await withFallback(
      online,
      offlineProvider(),
      async (p) => {
        if (p.name === "offline") throw new Error("offline");
        const c = await p.classify(input.message);
        const text = await p.chat({
          question: input.message,
          system: `You answer customer-support questions about LinkUp. Facts: ${phoneLine ? `support phone ${phoneLine}; ` : ""}hours ${hours()}; Premium ${naira(PRICES_NGN.premium.monthly)}/month with a ${TRIAL_DAYS}-day free trial; Enterprise ${naira(PRICES_NGN.enterprise.monthly)}/month with a team of up to ${TEAM_SEATS} people; support is staffed only in those hours. If you are unsure, tell them to ${phoneLine ? "call support" : "leave their phone number for a call back"}.`,
        });
        return { ...c, text };
      },
      timeoutMs,
    ).catch(() => null);
    if (asked) {
      category = asked.value.category === "error" ? "features" : asked.value.category;
      response = asked.value.text;
    } else {
      response = `I'm not sure I understood. Could you tell me a bit more — is it about prices, a feature, a technical problem or business use? You can also leave your phone number for a call back${orCall(phoneLine)} (${hours()}).`;
    }
  }

  const escalateToHuman = category === "emergency" || WANTS_HUMAN.test(input.message);
  let ticketId: string | undefined;
  if (escalateToHuman) {
    const phone =
      (input.userPhone && (await normalizePhone(input.userPhone))) || (input.user?.authMode === "verified" ? input.user.phone : null);
    if (phone) {
      ticketId = await openTicket(db, { user: input.user, phone, message: input.message, category });
      response += `\n\nI've passed this to our support team (ticket ${ticketId}). They will call you on ${phone} during support hours.`;
    } else {
      response += `\n\nLeave your phone number and our team will call you back${orCall(phoneLine)}.`;
    }
  }
  return {
    response,
    category,
    escalateToHuman,
    followUpRequired: FOLLOW_UP.includes(category),
    ...(ticketId ? { ticketId } : {}),
  };
}

/**
 * POST /api/support/sales: "Contact Sales" on the Enterprise card. The enquiry is a call-back ticket in the
 * business category, so staff see it in their queue (docs/decisions/060-every-claim-true.md).
 */
export async function salesEnquiry(db: Db, input: { phone: string; message: string; user: User | null }) {
  const phone = await normalizePhone(input.phone);
  if (!phone) throw new DomainError("support_phone", "Enter a phone number we can call, like 0803 123 4567");
  const ticketId = await openTicket(db, {
    user: input.user,
    phone,
    message: `Sales enquiry (Enterprise): ${input.message}`,
    category: "business",
  });
  return { ticketId, phone };
}

/** POST /api/support/followup: the bot's follow-up; with a phone it opens a call-back ticket. */
export async function supportFollowup(
  db: Db,
  input: { originalQuery: string; response: string; userPhone?: string; user: User | null; supportPhone: string },
): Promise<{ followUp: string; ticketId?: string }> {
  const phone = input.userPhone ? await normalizePhone(input.userPhone) : null;
  const { category } = classifyOffline(input.originalQuery);
  if (phone) {
    const ticketId = await openTicket(db, { user: input.user, phone, message: input.originalQuery, category });
    return { followUp: `Thank you. Our support team will call you on ${phone} during support hours (ticket ${ticketId}).`, ticketId };
  }
  const byCategory: Partial<Record<SupportCategory, string>> = {
    technical: "Did those steps fix it? If not, tell me what you see on the screen, or leave your phone number and we'll call you.",
    business: `Would you like a call from our team about Enterprise? Leave your phone number${orCall(input.supportPhone)}.`,
  };
  return { followUp: byCategory[category] ?? "Is there anything else I can help you with?" };
}
