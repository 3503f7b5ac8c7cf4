// /support (spec part 2 §2 item 22): three option cards, the AI support chat (600 px) and info cards.
import { Bot, CircleHelp, Phone } from "lucide-react";
import { Link } from "react-router";
import type { SupportAnswer } from "../../../core/ai-schemas";
import { SUPPORT_HOURS } from "../../../core/constants";
import { SupportChat, type SupportMessage, supportFailureMessage } from "../features/assistant/support-chat";
import { apiSend } from "../lib/api.server";
import { useRootData } from "../root";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = () => [
  { title: "Support — LinkUp" },
  { name: "description", content: "Get help with LinkUp from our AI support assistant or call our team." },
];

const WELCOME: SupportMessage = {
  id: "welcome",
  content: "Hello! I'm the LinkUp support assistant. Ask me about plans and prices, features, a technical problem or business use.",
  isBot: true,
  timestamp: 0,
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
        confidence: a.confidence,
        escalated: a.escalateToHuman,
      },
    ],
  };
}

export default function Support({ actionData }: Route.ComponentProps) {
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  const extra = actionData?.messages ?? [];
  const failed: SupportMessage[] =
    actionData && "failed" in actionData && actionData.failed
      ? [{ id: "f", content: supportFailureMessage(phone), isBot: true, timestamp: 0, category: "error", confidence: 0, escalated: true }]
      : [];
  return (
    <>
      <section className="card">
        <h1>LinkUp Support</h1>
        <p className="muted">Answers any time from our AI assistant, and people on the phone when you need them.</p>
      </section>

      <section className="grid3" aria-label="Ways to get help">
        <a href="#support-chat" className="card feature">
          <Bot aria-hidden="true" className="icon" size={28} />
          <strong>AI Support Chat</strong>
          <span>Instant answers about plans, features and problems.</span>
        </a>
        <a href={`tel:${phone}`} className="card feature" aria-label={`Call support on ${phone}`}>
          <Phone aria-hidden="true" className="icon" size={28} />
          <strong>Call Support</strong>
          <span>{phone}</span>
        </a>
        <Link to="/faq" className="card feature">
          <CircleHelp aria-hidden="true" className="icon" size={28} />
          <strong>Help Centre</strong>
          <span>Frequently asked questions.</span>
        </Link>
      </section>

      <section id="support-chat" className="card support-chat-card" aria-labelledby="support-chat-title">
        <h2 id="support-chat-title">AI Support Chat</h2>
        <SupportChat phone={phone} initial={[WELCOME, ...extra, ...failed]} />
      </section>

      <section className="grid3" aria-label="Support information">
        <div className="card">
          <h3>Support hours</h3>
          <ul className="list-plain">
            {SUPPORT_HOURS.map((h) => (
              <li key={h.days}>
                {h.days}: {h.hours}
              </li>
            ))}
          </ul>
        </div>
        <div className="card">
          <h3>Premium support</h3>
          <p>Premium users get a priority queue and 24/7 emergency support.</p>
          <Link to="/pricing">See plans</Link>
        </div>
        <div className="card">
          <h3>In an emergency</h3>
          <p>Call 112 or 199 and press SOS in LinkUp to alert people near you.</p>
          <Link to="/customer-service">Customer service</Link>
        </div>
      </section>
    </>
  );
}
