// Promo notifications of the landing (docs/product/screens.md): shown at 10, 30, 60, 90 and 120 s unless dismissed,
// one at a time, hidden after 15 s; the action records interest and dials support (success stories open
// /testimonials); X dismisses for good on this device.
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { PRICES_NGN } from "../../../../core/constants";
import type { MessageKey } from "../../../../core/i18n/en";
import { useT } from "../../i18n";

interface Promo {
  id: string;
  type: "trial-offer" | "feature-locked" | "upgrade" | "success-story";
  title: MessageKey;
  message: MessageKey;
  action: MessageKey;
  urgency: "high" | "medium" | "low";
  showAfter: number;
}

export const PROMOS: Promo[] = [
  {
    id: "trial",
    type: "trial-offer",
    title: "promo.trial.title",
    message: "promo.trial.message",
    action: "pricing.startTrial",
    urgency: "high",
    showAfter: 10,
  },
  {
    id: "voice",
    type: "feature-locked",
    title: "promo.voice.title",
    message: "promo.voice.message",
    action: "promo.voice.action",
    urgency: "medium",
    showAfter: 30,
  },
  {
    id: "story",
    type: "success-story",
    title: "promo.story.title",
    message: "promo.story.message",
    action: "promo.story.action",
    urgency: "low",
    showAfter: 60,
  },
  {
    id: "upgrade",
    type: "upgrade",
    title: "promo.upgrade.title",
    message: "promo.upgrade.message",
    action: "promo.upgrade.action",
    urgency: "medium",
    showAfter: 90,
  },
  {
    id: "translate",
    type: "feature-locked",
    title: "promo.translate.title",
    message: "promo.translate.message",
    action: "promo.translate.action",
    urgency: "low",
    showAfter: 120,
  },
];

const DISMISSED_KEY = "linkup-dismissed-notifications";
const HIDE_AFTER_MS = 15_000;

function dismissedIds(): string[] {
  try {
    return JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "[]") as string[];
  } catch {
    return [];
  }
}

export function PromoNotifications({ phone }: { phone: string }) {
  const [current, setCurrent] = useState<Promo | null>(null);
  const navigate = useNavigate();
  const t = useT();
  useEffect(() => {
    const dismissed = new Set(dismissedIds());
    const timers = PROMOS.filter((p) => !dismissed.has(p.id)).map((p) =>
      setTimeout(() => {
        if (!dismissedIds().includes(p.id)) setCurrent(p);
      }, p.showAfter * 1000),
    );
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), HIDE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [current]);
  if (!current) return null;
  const title = t(current.title, { price: t.naira(PRICES_NGN.premium.monthly) });
  const act = () => {
    localStorage.setItem("linkup-premium-interest", "true");
    setCurrent(null);
    if (current.type === "success-story") navigate("/testimonials");
    else window.location.href = `tel:${phone}`;
  };
  const dismiss = () => {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify([...dismissedIds(), current.id]));
    setCurrent(null);
  };
  return (
    <aside
      className={`card fixed start-4 bottom-20 z-30 max-w-[360px] [box-shadow:0_8px_24px_#0003] ${current.urgency === "high" ? "border-primary" : ""}`}
      aria-label={title}
    >
      <strong>{title}</strong>
      <p>{t(current.message)}</p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="btn btn-primary" onClick={act}>
          {t(current.action)}
        </button>
        <button type="button" className="btn btn-ghost" aria-label={t("chat.cookieDismiss")} onClick={dismiss}>
          ×
        </button>
      </div>
    </aside>
  );
}
