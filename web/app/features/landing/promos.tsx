// Promo notifications of the landing (spec part 1 §3–§4): shown at 10, 30, 60, 90 and 120 s unless dismissed,
// one at a time, hidden after 15 s; the action records interest and dials support (success stories open
// /testimonials); X dismisses for good on this device.
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";

interface Promo {
  id: string;
  type: "trial-offer" | "feature-locked" | "upgrade" | "success-story";
  title: string;
  message: string;
  action: string;
  urgency: "high" | "medium" | "low";
  showAfter: number;
}

export const PROMOS: Promo[] = [
  {
    id: "trial",
    type: "trial-offer",
    title: "Try Premium free for 7 days",
    message: "Unlimited AI commands and translation. Cancel anytime.",
    action: "Start Free Trial",
    urgency: "high",
    showAfter: 10,
  },
  {
    id: "voice",
    type: "feature-locked",
    title: "Voice messages are Premium",
    message: "Send up to 50 transcribed voice messages a month.",
    action: "Unlock Voice",
    urgency: "medium",
    showAfter: 30,
  },
  {
    id: "story",
    type: "success-story",
    title: "How traders use LinkUp",
    message: "Read how communities check prices and stay safe together.",
    action: "Read Stories",
    urgency: "low",
    showAfter: 60,
  },
  {
    id: "upgrade",
    type: "upgrade",
    title: "Go Premium for ₦2,500/month",
    message: "Your SOS reaches about 10 km around you, and support calls you back first.",
    action: "Upgrade Now",
    urgency: "medium",
    showAfter: 90,
  },
  {
    id: "translate",
    type: "feature-locked",
    title: "Translate without limits",
    message: "Hausa, Igbo, Yoruba, Swahili, French and Arabic.",
    action: "Unlock Translation",
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
  useEffect(() => {
    const dismissed = new Set(dismissedIds());
    const timers = PROMOS.filter((p) => !dismissed.has(p.id)).map((p) =>
      setTimeout(() => {
        if (!dismissedIds().includes(p.id)) setCurrent(p);
      }, p.showAfter * 1000),
    );
    return () => {
      for (const t of timers) clearTimeout(t);
    };
  }, []);
  useEffect(() => {
    if (!current) return;
    const t = setTimeout(() => setCurrent(null), HIDE_AFTER_MS);
    return () => clearTimeout(t);
  }, [current]);
  if (!current) return null;
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
    <aside className={`card promo promo-${current.urgency}`} aria-label={current.title}>
      <strong>{current.title}</strong>
      <p>{current.message}</p>
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={act}>
          {current.action}
        </button>
        <button type="button" className="btn btn-ghost" aria-label="Dismiss" onClick={dismiss}>
          ×
        </button>
      </div>
    </aside>
  );
}
