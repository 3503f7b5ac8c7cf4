// The premium offer a 402 brings (docs/product/plans-and-limits.md): the reason, the 7-day trial, and the ways to upgrade.
import { useEffect, useState } from "react";
import { PRICES_NGN, TRIAL_DAYS } from "../../../../core/constants";
import { useT } from "../../i18n";
import type { Said } from "../../i18n/refusal";

/** Shown in place of an answer when the server says limit_reached or premium_feature. */
export function PremiumOffer({
  error,
  code,
  phone,
  onClose,
  standing = false,
}: {
  error: Said;
  /** Which offer: limit_reached, premium_feature (the 402's `offer`), or the chat's upsell. */
  code?: string;
  phone: string;
  onClose?: () => void;
  /** A notice that is always on the page (not the answer to something just done): not announced as an alert. */
  standing?: boolean;
}) {
  const t = useT();
  const title = code === "limit_reached" ? t("offer.limitReached") : t("offer.premiumFeature");
  return (
    <section
      className="card mt-3 grid gap-2 border-premium bg-premium-tint"
      role={standing ? "region" : "alert"}
      aria-label={t("offer.label")}
    >
      <strong>⭐ {title}</strong>
      <p>{t.error(error)}</p>
      <p className="text-muted text-sm">{t("offer.summary", { price: t.naira(PRICES_NGN.premium.monthly), days: TRIAL_DAYS })}</p>
      <div className="flex flex-wrap items-center gap-2">
        <a className="btn btn-primary" href="/subscribe?plan=premium">
          {t("offer.startTrial", { days: TRIAL_DAYS })}
        </a>
        {phone ? (
          <a className="btn btn-ghost" href={`tel:${phone}`} aria-label={t("offer.callLabel", { phone })}>
            {t("offer.call", { phone })}
          </a>
        ) : null}
        {onClose ? (
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t("home.continueFree")}
          </button>
        ) : null}
      </div>
    </section>
  );
}

/**
 * The chat's upsell (docs/product/plans-and-limits.md): appears 2 s after an answer when today's AI command count is 8 or more
 * and a multiple of 4. Pass the count the last answer reported.
 */
export function ChatUpsell({ aiCommandsToday, phone }: { aiCommandsToday: number | undefined; phone: string }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setOpen(false);
    if (typeof aiCommandsToday !== "number" || aiCommandsToday < 8 || aiCommandsToday % 4 !== 0) return;
    const timer = setTimeout(() => setOpen(true), 2000);
    return () => clearTimeout(timer);
  }, [aiCommandsToday]);
  if (!open) return null;
  return (
    <PremiumOffer
      phone={phone}
      code="upsell"
      error={{ key: "offer.upsell", vars: { count: aiCommandsToday ?? 0 } }}
      onClose={() => setOpen(false)}
    />
  );
}
