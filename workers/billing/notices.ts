// What billing tells a person: a notification in the centre and the same words by WhatsApp (SMS when
// WhatsApp fails), through the existing messaging adapter, in the language the person saved.
import type { PaidTier } from "../../core/billing";
import { loadTranslator, type Translate } from "../../core/i18n/load-catalog";
import type { MessageKey } from "../../core/i18n/en";
import { chooseLanguage, LANGUAGE_TAGS } from "../../core/i18n/languages";
import { formatDate, formatNaira } from "../../core/i18n/translate";
import { newId } from "../../core/ids";
import { PREF_FOR_TYPE } from "../../core/sos";
import type { Db } from "../../db";
import { billingNoticeWrite, type Write } from "../../db/queries/billing";
import { getPrefsFor, notificationsByIds } from "../../db/queries/notifications";
import { findUserById } from "../../db/queries/users";
import type { AppEnv } from "../env";
import { notify, pushStored } from "../notifications";
import { sendMessage } from "../services/messaging";

/** The words of one language: its messages, and its tag for dates and naira. */
export interface Words {
  t: Translate;
  tag: string;
}
/** A notice worded in whichever language the person reads (docs/decisions/031-web-app-languages.md). */
export type Notice = (w: Words) => { title: string; content: string };

export async function wordsFor(saved: string | null | undefined): Promise<Words> {
  const language = chooseLanguage(saved, null);
  return { t: await loadTranslator(language), tag: LANGUAGE_TAGS[language] };
}

const day = (w: Words, d: Date) => formatDate(d, w.tag, { day: "numeric", month: "long", year: "numeric" });
const plan = (w: Words, tier: PaidTier) =>
  w.t("subs.linkupPlan", { plan: w.t(tier === "enterprise" ? "pricing.enterprise" : "pricing.premium") });
const amount = (w: Words, ngn: number) => formatNaira(ngn, w.tag);

export const NOTICES = {
  receipt:
    (tier: PaidTier, amountNgn: number, until: Date | null): Notice =>
    (w) => ({
      title: w.t("bill.receipt.title"),
      content: [
        w.t("bill.receipt.body", { amount: amount(w, amountNgn), plan: plan(w, tier) }),
        until ? w.t("bill.receipt.until", { date: day(w, until) }) : "",
      ]
        .filter(Boolean)
        .join(" "),
    }),
  failedWithGrace:
    (tier: PaidTier, amountNgn: number, graceEndsAt: Date): Notice =>
    (w) => ({
      title: w.t("bill.failed.title"),
      content: w.t("bill.failed.grace", {
        amount: amount(w, amountNgn),
        plan: plan(w, tier),
        name: w.t(tier === "enterprise" ? "pricing.enterprise" : "pricing.premium"),
        date: day(w, graceEndsAt),
      }),
    }),
  failedFirst:
    (tier: PaidTier, amountNgn: number): Notice =>
    (w) => ({ title: w.t("bill.failed.title"), content: w.t("bill.failed.first", { amount: amount(w, amountNgn), plan: plan(w, tier) }) }),
  trialStarted:
    (endsAt: Date): Notice =>
    (w) => ({ title: w.t("bill.trial.started"), content: w.t("bill.trial.startedBody", { date: day(w, endsAt) }) }),
  trialEndingSoon:
    (endsAt: Date): Notice =>
    (w) => ({ title: w.t("bill.trial.ending"), content: w.t("bill.trial.endingBody", { date: day(w, endsAt) }) }),
  ended:
    (tier: PaidTier, why: "trial" | "grace" | "complimentary" | "canceled"): Notice =>
    (w) => ({
      title: w.t("bill.ended.title", { plan: plan(w, tier) }),
      content: {
        trial: w.t("bill.ended.trial"),
        grace: w.t("bill.ended.grace"),
        complimentary: w.t("bill.ended.complimentary", { plan: plan(w, tier) }),
        canceled: w.t("bill.ended.canceled"),
      }[why],
    }),
  granted:
    (tier: PaidTier, endsAt: Date): Notice =>
    (w) => ({
      title: w.t("bill.granted.title", { plan: plan(w, tier) }),
      content: w.t("bill.granted.body", { plan: plan(w, tier), date: day(w, endsAt) }),
    }),
  rewardDays:
    (achievement: MessageKey | null, days: number, endsAt: Date): Notice =>
    (w) => ({
      title: w.t("bill.reward.title"),
      content: w.t("bill.reward.body", {
        achievement: achievement ? w.t(achievement) : w.t("bill.reward.anAchievement"),
        count: days,
        date: day(w, endsAt),
      }),
    }),
};

/** Notification centre plus WhatsApp/SMS to the person's verified phone. Never throws: billing goes on. */
export async function tellPerson(env: AppEnv, db: Db, userId: string, notice: Notice): Promise<void> {
  try {
    const user = await findUserById(db, userId);
    const { title, content } = notice(await wordsFor(user?.language));
    await notify(env, db, userId, {
      type: "system",
      title,
      content,
      priority: "high",
      url: "/settings?tab=premium",
      source: "billing",
    });
    if (user?.phone && user.authMode === "verified") {
      const body = `LinkUp: ${title}. ${content}`;
      const wa = await sendMessage(env, db, { to: user.phone, channel: "whatsapp", body });
      if (wa.status === "failed") await sendMessage(env, db, { to: user.phone, channel: "sms", body });
    }
  } catch (e) {
    console.error("billing: could not tell the person", userId, e);
  }
}

/** A notice split around a commit: its row for the notification centre, and what goes out once that is stored. */
export interface PreparedNotice {
  /** Stored in the same batch as the change it tells of: the notice exists exactly when the change does. */
  writes: Write[];
  /** The push and the WhatsApp/SMS, after the commit. Never throws. */
  deliver: () => Promise<void>;
}

/**
 * `tellPerson` for a webhook's change (docs/decisions/055-webhooks-and-files-survive-a-crash.md): reads now,
 * the centre's row goes into the change's batch, and the push and WhatsApp go out after it commits, so a retried
 * webhook never tells twice; a crash between the commit and `deliver` loses only the push and the WhatsApp.
 */
export async function prepareNotice(env: AppEnv, db: Db, userId: string, notice: Notice): Promise<PreparedNotice> {
  const user = await findUserById(db, userId);
  const { title, content } = notice(await wordsFor(user?.language));
  const stored = (await getPrefsFor(db, [userId])).get(userId)?.[PREF_FOR_TYPE.system] === true;
  const id = newId();
  const writes = stored
    ? [billingNoticeWrite(db, { id, userId, title: title.slice(0, 200), content: content.slice(0, 2000), url: "/settings?tab=premium" })]
    : [];
  const deliver = async () => {
    try {
      if (stored) await pushStored(env, db, await notificationsByIds(db, [id]));
      if (user?.phone && user.authMode === "verified") {
        const body = `LinkUp: ${title}. ${content}`;
        const wa = await sendMessage(env, db, { to: user.phone, channel: "whatsapp", body });
        if (wa.status === "failed") await sendMessage(env, db, { to: user.phone, channel: "sms", body });
      }
    } catch (e) {
      console.error("billing: could not tell the person", userId, e);
    }
  };
  return { writes, deliver };
}
