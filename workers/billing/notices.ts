// What billing tells a person: a notification in the centre and the same words by WhatsApp (SMS when
// WhatsApp fails), through the existing messaging adapter.
import { naira, PLAN_NAMES, type PaidTier } from "../../core/billing";
import type { Db } from "../../db";
import { findUserById } from "../../db/queries/users";
import type { AppEnv } from "../env";
import { notify } from "../notifications";
import { sendMessage } from "../services/messaging";

const day = (d: Date) => d.toLocaleDateString("en-NG", { day: "numeric", month: "long", year: "numeric", timeZone: "Africa/Lagos" });

export const NOTICES = {
  receipt: (tier: PaidTier, amountNgn: number, until: Date | null) => ({
    title: "Payment received",
    content: `Thank you! We received ${naira(amountNgn)} for LinkUp ${PLAN_NAMES[tier]}.${until ? ` Your plan is paid until ${day(until)}.` : ""}`,
  }),
  failedWithGrace: (tier: PaidTier, amountNgn: number, graceEndsAt: Date) => ({
    title: "Payment failed",
    content: `We could not take ${naira(amountNgn)} for LinkUp ${PLAN_NAMES[tier]}. You keep ${PLAN_NAMES[tier]} until ${day(graceEndsAt)}; please update your card in Settings.`,
  }),
  failedFirst: (tier: PaidTier, amountNgn: number) => ({
    title: "Payment failed",
    content: `We could not take ${naira(amountNgn)} for LinkUp ${PLAN_NAMES[tier]}, so your subscription has not started. You can try again with another card.`,
  }),
  trialStarted: (endsAt: Date) => ({
    title: "Your Premium trial has started",
    content: `Enjoy LinkUp Premium free until ${day(endsAt)}. No card needed; you will not be charged.`,
  }),
  trialEndingSoon: (endsAt: Date) => ({
    title: "Your Premium trial ends tomorrow",
    content: `Your free LinkUp Premium trial ends on ${day(endsAt)}. Subscribe in Settings to keep Premium.`,
  }),
  ended: (tier: PaidTier, why: "trial" | "grace" | "complimentary" | "canceled") => ({
    title: `LinkUp ${PLAN_NAMES[tier]} has ended`,
    content: {
      trial: "Your free trial has ended and you are back on Community. Subscribe any time to get Premium back.",
      grace: "We still could not take your payment, so you are back on Community. Subscribe again any time.",
      complimentary: `Your complimentary ${PLAN_NAMES[tier]} has ended and you are back on Community.`,
      canceled: "Your subscription has ended and you are back on Community. Subscribe again any time.",
    }[why],
  }),
};

/** Notification centre plus WhatsApp/SMS to the person's verified phone. Never throws: billing goes on. */
export async function tellPerson(env: AppEnv, db: Db, userId: string, notice: { title: string; content: string }): Promise<void> {
  try {
    await notify(env, db, userId, {
      type: "system",
      title: notice.title,
      content: notice.content,
      priority: "high",
      url: "/settings?tab=premium",
      source: "billing",
    });
    const user = await findUserById(db, userId);
    if (user?.phone && user.authMode === "verified") {
      const body = `LinkUp: ${notice.title}. ${notice.content}`;
      const wa = await sendMessage(env, db, { to: user.phone, channel: "whatsapp", body });
      if (wa.status === "failed") await sendMessage(env, db, { to: user.phone, channel: "sms", body });
    }
  } catch (e) {
    console.error("billing: could not tell the person", userId, e);
  }
}
