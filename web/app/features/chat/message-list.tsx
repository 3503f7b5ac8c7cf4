// The message list: bubbles with sender, text, time, hop count and, for my messages, the status icon
// (sending ◷, sent ✓, delivered ✓✓, read ✓✓ in green).
import { routeNames } from "../../mesh/hop-label";
import { Bot, Lock } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { type FileMessage, parseFileMessage } from "../../../../core/files-client";
import type { MessageStatus, StoredMessage } from "../../mesh/db";
import type { MessageKey } from "../../../../core/i18n/en";
import { useT } from "../../i18n";
import { FileBubble } from "../files/file-bubble";
import { useDeviceChangeLine, useDisappearingLine } from "./disappearing";
import { SECURITY_EVENTS } from "./security-lines";
import { LetIn, useJoinLine } from "./join-requests";
import type { Said } from "../../i18n/refusal";

const STATUS: Record<MessageStatus, { icon: string; label: MessageKey }> = {
  sending: { icon: "◷", label: "msg.status.sending" },
  sent: { icon: "✓", label: "msg.status.sent" },
  delivered: { icon: "✓✓", label: "msg.status.delivered" },
  read: { icon: "✓✓", label: "msg.status.read" },
};

const time = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

export function StatusIcon({ status }: { status: MessageStatus }) {
  const s = STATUS[status];
  const t = useT();
  return (
    <span
      className={`msg-status msg-status-${status} ${status === "read" ? "font-bold text-read" : ""}`}
      role="img"
      aria-label={t(s.label)}
      title={t(s.label)}
    >
      {s.icon}
    </span>
  );
}

/** A bubble's tint, one at a time: an SOS over an AI answer over one's own message over someone else's. */
function bubbleTint(m: StoredMessage): string {
  if (m.type === "emergency") return "msg-emergency border-2 border-danger bg-sos-tint";
  if (m.isAI) return "bg-bubble-ai";
  return m.mine ? "bg-bubble-mine" : "bg-bubble";
}

export function MessageList({
  messages,
  loaded,
  selected,
  onToggle,
  onMessage,
  onHelp,
}: {
  /** Someone else's SOS: 'I'm coming to help' answers it right in the chat. */
  onHelp?: (m: StoredMessage) => void;
  messages: StoredMessage[];
  loaded: boolean;
  /** In rooms with others: a sender's name opens 'Message <name>' to start a private chat with them. */
  onMessage?: (userId: string) => void;
  /** When set, the list is in selection mode with a checkbox per message. */
  selected?: Set<string> | null;
  onToggle?: (id: string) => void;
}) {
  const end = useRef<HTMLLIElement>(null);
  const t = useT();
  const disappearingLine = useDisappearingLine();
  const deviceLine = useDeviceChangeLine();
  // The room's own lines and this device's security notices, worded here in the person's language.
  const joinLine = useJoinLine();
  const ownLine = (meta: Record<string, unknown> | undefined) => disappearingLine(meta) ?? deviceLine(meta) ?? joinLine(meta);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll down whenever a message arrives
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length]);
  if (loaded && messages.length === 0) return <p className="text-muted">{t("msg.empty")}</p>;
  return (
    <ol className="m-0 grid list-none gap-2 p-0" aria-label={t("msg.list")} aria-live="polite">
      {messages.map((m) => (
        <li
          key={m.id}
          className={`msg grid max-w-[80%] gap-[0.15rem] rounded-xl px-[0.7rem] py-2 ${m.mine ? "msg-mine justify-self-end" : "msg-theirs justify-self-start"} ${m.isAI ? "msg-ai" : ""} ${bubbleTint(m)}`}
          data-status={m.status}
        >
          {selected ? (
            <label className="msg-select">
              <input type="checkbox" checked={selected.has(m.id)} onChange={() => onToggle?.(m.id)} /> {t("msg.select")}
            </label>
          ) : null}
          {!m.mine ? (
            <span className="msg-sender text-xs font-semibold text-meta">
              {m.isAI ? (
                <>
                  <Bot size={14} /> {t("msg.lia")}
                </>
              ) : onMessage && m.senderId !== "system" && !m.local ? (
                <SenderName name={m.senderName ?? t("msg.someone")} onMessage={() => onMessage(m.senderId)} />
              ) : SECURITY_EVENTS.has(m.meta?.event) ? (
                t("msg.security")
              ) : (
                (m.senderName ?? t("msg.someone"))
              )}
            </span>
          ) : null}
          {m.type === "emergency" ? <strong className="text-danger">{t("msg.emergency")}</strong> : null}
          {ownLine(m.meta) ? (
            <p className="m-0 whitespace-pre-wrap wrap-anywhere">{ownLine(m.meta)}</p>
          ) : parseFileMessage(m.text) ? (
            <FileBubble file={parseFileMessage(m.text) as FileMessage} />
          ) : (
            // dir="auto": each message reads in its own direction, so '@ai …' stays '@ai' on an Arabic screen (issue 32).
            <p className="m-0 whitespace-pre-wrap wrap-anywhere" dir="auto">
              {m.text ?? (m.pending ? t("msg.waitingKey") : t("msg.otherDevice"))}
            </p>
          )}
          {typeof m.meta?.location === "object" && m.meta.location ? (
            <LocationLink location={m.meta.location as { latitude: number; longitude: number }} />
          ) : null}
          <span className="msg-foot flex justify-end gap-2 text-xs text-meta">
            <time dateTime={new Date(m.timestamp).toISOString()}>{time(m.timestamp)}</time>
            {!m.local && m.meshRoute.length > 0 ? (
              <span className="msg-hops" title={routeNames(m.meshRoute)}>
                {t("msg.hops", { count: m.meshRoute.length })}
              </span>
            ) : null}
            {m.isEncrypted ? <Lock role="img" aria-label={t("msg.encrypted")} size={12} /> : null}
            {m.mine && m.status ? <StatusIcon status={m.status} /> : null}
          </span>
          {m.local ? <LetIn room={m.room} meta={m.meta} /> : null}
          {m.type === "emergency" && !m.mine && onHelp ? (
            <button type="button" className="btn btn-danger justify-self-start" onClick={() => onHelp(m)}>
              {t("sos.comingToHelp")}
            </button>
          ) : null}
          {m.error ? (
            <span className="text-xs text-danger" role="alert">
              {t.error(m.error as Said)}
            </span>
          ) : null}
        </li>
      ))}
      <li ref={end} aria-hidden="true" className="h-px" />
    </ol>
  );
}

function LocationLink({ location }: { location: { latitude: number; longitude: number } }) {
  const { latitude, longitude } = location;
  const t = useT();
  if (typeof latitude !== "number" || typeof longitude !== "number") return null;
  return (
    <a
      className="msg-location font-semibold text-link-on-tint"
      href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`}
      target="_blank"
      rel="noreferrer"
    >
      {t("msg.openMap", { lat: latitude.toFixed(5), lon: longitude.toFixed(5) })}
    </a>
  );
}

/** A sender's name as a button: tapping it offers a private chat with that person. */
function SenderName({ name, onMessage }: { name: string; onMessage: () => void }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  return (
    <>
      <button type="button" className="sender-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {name}
      </button>
      {open ? (
        <button type="button" className="btn btn-primary sender-action" onClick={onMessage}>
          {t("msg.messageName", { name })}
        </button>
      ) : null}
    </>
  );
}
