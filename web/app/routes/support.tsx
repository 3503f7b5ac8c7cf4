// /support (docs/product/screens.md): three option cards, the AI support chat (600 px) and info cards.
import { Bot, CircleHelp, Phone } from "lucide-react";
import { Link } from "react-router";
import type { SupportAnswer } from "../../../core/ai-schemas";
import { SUPPORT_HOURS } from "../../../core/constants";
import { SupportChat, type SupportMessage, supportFailureMessage } from "../features/assistant/support-chat";
import { apiSend } from "../lib/api.server";
import { useRootData } from "../root";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "sup.meta", "Support — LinkUp") },
  {
    name: "description",
    content: metaTitle(matches, "sup.metaDescription", "Get help with LinkUp from our AI support assistant or call our team."),
  },
];

const DAYS: Record<(typeof SUPPORT_HOURS)[number]["days"], MessageKey> = {
  "Monday to Friday": "cs.weekdays",
  Saturday: "cs.saturday",
  Sunday: "cs.sunday",
};

/** Without JavaScript the chat form posts here: the answer to the last question is rendered. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const message = String(form.get("message") ?? "").trim();
  if (!message) return { messages: [] as SupportMessage[] };
  const res = await apiSend<SupportAnswer>(context, "POST", "/api/support/query", { message });
  const now = Date.now();
  const mine: SupportMessage = { id: "q", content: message, isBot: false, timestamp: now };
  if (!res.ok || !res.json) return { messages: [mine], failed: true };
  const a = res.json;
  return {
    messages: [
      mine,
      {
        id: "a",
        content: a.response,
        isBot: true,
        timestamp: now,
        category: a.category,
        escalated: a.escalateToHuman,
      },
    ],
  };
}

export default function Support({ actionData }: Route.ComponentProps) {
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  const t = useT();
  const welcome: SupportMessage = { id: "welcome", content: t("sup.welcome"), isBot: true, timestamp: 0 };
  const extra = actionData?.messages ?? [];
  const failed: SupportMessage[] =
    actionData && "failed" in actionData && actionData.failed
      ? [
          {
            id: "f",
            content: supportFailureMessage(phone, t),
            isBot: true,
            timestamp: 0,
            category: "error",
            escalated: true,
          },
        ]
      : [];
  return (
    <>
      <section className="card">
        <h1>{t("sup.title")}</h1>
        <p className="text-muted">{t("sup.intro")}</p>
      </section>

      <section className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3" aria-label={t("sup.ways")}>
        <a href="#support-chat" className="card grid cursor-pointer gap-1 text-start">
          <Bot aria-hidden="true" className="icon text-2xl text-primary" size={28} />
          <strong>{t("sup.aiChat")}</strong>
          <span>{t("sup.aiChatBody")}</span>
        </a>
        {phone ? (
          <a href={`tel:${phone}`} className="card grid cursor-pointer gap-1 text-start" aria-label={t("sup.callLabel", { phone })}>
            <Phone aria-hidden="true" className="icon text-2xl text-primary" size={28} />
            <strong>{t("sup.call")}</strong>
            <span>{phone}</span>
          </a>
        ) : null}
        <Link to="/faq" className="card grid cursor-pointer gap-1 text-start">
          <CircleHelp aria-hidden="true" className="icon text-2xl text-primary" size={28} />
          <strong>{t("sup.helpCentre")}</strong>
          <span>{t("sup.faq")}</span>
        </Link>
      </section>

      <section id="support-chat" className="card support-chat-card" aria-labelledby="support-chat-title">
        <h2 id="support-chat-title">{t("sup.aiChat")}</h2>
        <SupportChat phone={phone} initial={[welcome, ...extra, ...failed]} />
      </section>

      <section className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3" aria-label={t("sup.info")}>
        <div className="card">
          <h3>{t("sup.hours")}</h3>
          <ul className="m-0 grid list-none gap-[0.35rem] p-0">
            {SUPPORT_HOURS.map((h) => (
              <li key={h.days}>
                {t(DAYS[h.days])}: {h.hours}
              </li>
            ))}
          </ul>
        </div>
        <div className="card">
          <h3>{t("sup.premium")}</h3>
          <p>{t("sup.premiumBody")}</p>
          <Link to="/pricing">{t("sup.seePlans")}</Link>
        </div>
        <div className="card">
          <h3>{t("sup.emergency")}</h3>
          <p>{t("sup.emergencyBody")}</p>
          <Link to="/customer-service">{t("sup.customerService")}</Link>
        </div>
      </section>
    </>
  );
}
