// The AI support chat of /support (docs/product/assistant.md): Enter sends, Shift+Enter adds a line,
// a follow-up arrives after 3 s when the bot asks for one, and an escalation without a phone asks for it. No
// confidence is shown: the bot's accuracy was never measured (docs/decisions/060-every-claim-true.md). Without
// JavaScript the form posts to the page's action, which answers the last question.
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import type { SupportAnswer } from "../../../../core/ai-schemas";
import { type T, useT } from "../../i18n";
import { askSupport, supportFollowup } from "./client";

export interface SupportMessage {
  id: string;
  content: string;
  isBot: boolean;
  timestamp: number;
  category?: SupportAnswer["category"];
  escalated?: boolean;
}

export const FOLLOW_UP_DELAY_MS = 3000;

/** Without a configured support line (production, unset) the bot offers the call-back instead of a number. */
export function supportFailureMessage(phone: string, t: T): string {
  return phone ? t("sup.failure", { phone }) : t("sup.failureNoPhone");
}

let seq = 0;
const nextId = () => `m${Date.now()}-${seq++}`;

export function SupportChat({ phone, initial }: { phone: string; initial: SupportMessage[] }) {
  const t = useT();
  const [messages, setMessages] = useState<SupportMessage[]>(initial);
  const [input, setInput] = useState("");
  const [loading, setLoading] = useState(false);
  const [askPhone, setAskPhone] = useState<{ query: string; response: string } | null>(null);
  const [userPhone, setUserPhone] = useState("");
  // Before hydration the form posts to the page's action, so Send must not start disabled.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const list = useRef<HTMLOListElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  useEffect(() => {
    if (messages.length > 0) list.current?.lastElementChild?.scrollIntoView({ block: "nearest" });
  }, [messages]);

  const add = (m: Omit<SupportMessage, "id" | "timestamp">) => setMessages((l) => [...l, { ...m, id: nextId(), timestamp: Date.now() }]);

  async function send(e?: FormEvent) {
    e?.preventDefault();
    const text = input.trim();
    if (!text || loading) return;
    setInput("");
    add({ content: text, isBot: false });
    setLoading(true);
    try {
      const answer = await askSupport(text);
      add({
        content: answer.response,
        isBot: true,
        category: answer.category,
        escalated: answer.escalateToHuman,
      });
      if (answer.escalateToHuman && !answer.ticketId) setAskPhone({ query: text, response: answer.response });
      if (answer.followUpRequired) {
        timers.current.push(
          setTimeout(() => {
            supportFollowup(text, answer.response)
              .then((f) => add({ content: f.followUp, isBot: true, category: "followup" }))
              .catch((err) => console.warn("support follow-up failed", err));
          }, FOLLOW_UP_DELAY_MS),
        );
      }
    } catch {
      add({ content: supportFailureMessage(phone, t), isBot: true, category: "error", escalated: true });
      setAskPhone({ query: text, response: "" });
    } finally {
      setLoading(false);
    }
  }

  async function requestCallBack(e: FormEvent) {
    e.preventDefault();
    if (!askPhone || !userPhone.trim()) return;
    try {
      const f = await supportFollowup(askPhone.query, askPhone.response, userPhone);
      add({ content: f.followUp, isBot: true, category: "followup", escalated: true });
      setAskPhone(null);
    } catch {
      add({ content: supportFailureMessage(phone, t), isBot: true, category: "error", escalated: true });
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  }

  return (
    <div className="grid h-[600px] grid-rows-[1fr_auto_auto] gap-2">
      <ol
        ref={list}
        className="m-0 flex list-none flex-col gap-2 overflow-y-auto p-1"
        aria-label={t("sup.conversation")}
        aria-live="polite"
      >
        {messages.map((m) => (
          <li key={m.id} className={`msg ${m.isBot ? "msg-theirs msg-ai" : "msg-mine"}`}>
            <span className="msg-sender">{m.isBot ? t("sup.bot") : t("sup.you")}</span>
            <span className="whitespace-pre-wrap">{m.content}</span>
            {m.isBot && m.category ? (
              <span className="text-muted text-sm">
                {m.category}
                {m.escalated ? t("sup.passed") : ""}
              </span>
            ) : null}
          </li>
        ))}
        {loading ? (
          <li className="msg msg-theirs msg-ai" aria-label={t("sup.typingLabel")}>
            {t("sup.typing")}
          </li>
        ) : null}
      </ol>
      {askPhone ? (
        <form className="flex flex-wrap items-center gap-2 phone-prompt" onSubmit={requestCallBack}>
          <label>
            {t("sup.callBackPhone")}
            <input
              type="tel"
              value={userPhone}
              onChange={(e) => setUserPhone(e.target.value)}
              placeholder="0803 123 4567"
              autoComplete="tel"
            />
          </label>
          <button type="submit" className="btn btn-primary" disabled={!userPhone.trim()}>
            {t("sup.requestCallBack")}
          </button>
        </form>
      ) : null}
      <form method="post" className="grid grid-cols-[1fr_auto] items-end gap-2" onSubmit={send}>
        <label className="sr-only" htmlFor="support-message">
          {t("sup.messageLabel")}
        </label>
        <textarea
          id="support-message"
          name="message"
          rows={2}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t("sup.placeholder")}
          maxLength={2000}
        />
        <button type="submit" className="btn btn-primary" disabled={hydrated && (loading || !input.trim())}>
          {t("chat.send")}
        </button>
      </form>
    </div>
  );
}
