// The premium offer a 402 brings (spec part 1 §4, §8): the reason, the 7-day trial, and the ways to upgrade.
import { useEffect, useState } from "react";
import { PRICES_NGN, TRIAL_DAYS } from "../../../../core/constants";

const naira = (n: number) => `₦${n.toLocaleString("en-NG")}`;

/** Shown in place of an answer when the server says limit_reached or premium_feature. */
export function PremiumOffer({
  error,
  code,
  phone,
  onClose,
  standing = false,
}: {
  error: string;
  code?: string;
  phone: string;
  onClose?: () => void;
  /** A notice that is always on the page (not the answer to something just done): not announced as an alert. */
  standing?: boolean;
}) {
  const title = code === "limit_reached" ? "Daily limit reached" : "Premium feature";
  return (
    <section className="card premium-offer" role={standing ? "region" : "alert"} aria-label="Premium offer">
      <strong>⭐ {title}</strong>
      <p>{error}</p>
      <p className="muted small">
        Premium: {naira(PRICES_NGN.premium.monthly)} per month, {TRIAL_DAYS}-day free trial. Unlimited AI commands and translation, 50 voice
        messages a month, a wider SOS.
      </p>
      <div className="row">
        <a className="btn btn-primary" href="/subscribe?plan=premium">
          Start {TRIAL_DAYS}-day free trial
        </a>
        <a className="btn btn-ghost" href={`tel:${phone}`} aria-label={`Call support on ${phone} to activate Premium`}>
          Call {phone}
        </a>
        {onClose ? (
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Continue Free
          </button>
        ) : null}
      </div>
    </section>
  );
}

/**
 * The chat's upsell (spec part 1 §4): appears 2 s after an answer when today's AI command count is 8 or more
 * and a multiple of 4. Pass the count the last answer reported.
 */
export function ChatUpsell({ aiCommandsToday, phone }: { aiCommandsToday: number | undefined; phone: string }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setOpen(false);
    if (typeof aiCommandsToday !== "number" || aiCommandsToday < 8 || aiCommandsToday % 4 !== 0) return;
    const t = setTimeout(() => setOpen(true), 2000);
    return () => clearTimeout(t);
  }, [aiCommandsToday]);
  if (!open) return null;
  return (
    <PremiumOffer
      phone={phone}
      code="upsell"
      error={`You've used ${aiCommandsToday} AI commands today. Go unlimited with Premium.`}
      onClose={() => setOpen(false)}
    />
  );
}
