import { Link, useSearchParams } from "react-router";
import { PRICES_NGN, TRIAL_DAYS } from "../../../core/constants";
import type { MessageKey } from "../../../core/i18n/en";
import { TEAM_SEATS } from "../../../core/teams";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/pricing";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "pricing.metaTitle", "Pricing — LinkUp") }];

const PLANS: {
  id: string;
  name: MessageKey;
  prices: { monthly: number; yearly: number };
  description: MessageKey;
  features: MessageKey[];
  cta: { label: MessageKey; to: string };
}[] = [
  {
    id: "community",
    name: "pricing.community",
    prices: { monthly: 0, yearly: 0 },
    description: "pricing.communityDesc",
    features: ["pricing.f.meshChat", "pricing.f.sos", "pricing.f.ai10", "pricing.f.translate5"],
    cta: { label: "pricing.startFree", to: "/signup" },
  },
  {
    id: "premium",
    name: "pricing.premium",
    prices: PRICES_NGN.premium,
    description: "pricing.premiumDesc",
    features: [
      "pricing.f.aiUnlimited",
      "pricing.f.voice50",
      "pricing.f.sos10km",
      "pricing.f.callbacks",
      "pricing.f.analytics",
      "pricing.f.files",
    ],
    cta: { label: "pricing.startTrial", to: "/subscribe?plan=premium" },
  },
  {
    id: "enterprise",
    name: "pricing.enterprise",
    prices: PRICES_NGN.enterprise,
    description: "pricing.enterpriseDesc",
    // What the Enterprise tier changes in code (TIER_LIMITS, API_DAILY_CALLS, TEAM_SEATS; docs/decisions/060-every-claim-true.md,
    // 067-enterprise-teams.md). Contact Sales opens an enquiry staff see, not the checkout.
    features: ["pricing.f.everything", "pricing.f.uncapped", "pricing.f.api", "pricing.f.teams"],
    cta: { label: "pricing.contactSales", to: "/contact-sales" },
  },
];

export default function Pricing() {
  const t = useT();
  const [params] = useSearchParams();
  const yearly = params.get("billing") === "yearly";
  return (
    <>
      <section className="grid gap-3 py-6 [&_h1]:text-hero justify-items-center text-center">
        <h1>{t("pricing.title")}</h1>
        <nav aria-label={t("pricing.period")} className="flex flex-wrap items-center gap-2">
          <Link to="?billing=monthly" className={`btn ${yearly ? "btn-ghost" : "btn-primary"}`} aria-current={yearly ? undefined : "page"}>
            {t("pricing.monthly")}
          </Link>
          <Link to="?billing=yearly" className={`btn ${yearly ? "btn-primary" : "btn-ghost"}`} aria-current={yearly ? "page" : undefined}>
            {t("pricing.yearly")} <span className="tag">{t("pricing.save")}</span>
          </Link>
        </nav>
      </section>
      <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
        {PLANS.map((p) => (
          <section key={p.id} className="card [&_ul]:ps-[1.1rem]" aria-labelledby={`plan-${p.id}`}>
            <h2 id={`plan-${p.id}`}>{t(p.name)}</h2>
            <p className="[&_strong]:text-[1.8rem]">
              <strong>{t.naira(yearly ? p.prices.yearly : p.prices.monthly)}</strong>{" "}
              {yearly ? t("pricing.perYear") : t("pricing.perMonth")}
            </p>
            <p className="text-muted">{t(p.description, { days: TRIAL_DAYS })}</p>
            <ul>
              {p.features.map((f) => (
                <li key={f}>{t(f, { seats: TEAM_SEATS })}</li>
              ))}
            </ul>
            <Link to={p.cta.to} className="btn btn-primary">
              {t(p.cta.label)}
            </Link>
          </section>
        ))}
      </div>
      <section className="card" aria-labelledby="pricing-faq">
        <h2 id="pricing-faq">{t("pricing.questions")}</h2>
        <details>
          <summary>{t("pricing.cardQ")}</summary>
          <p>{t("pricing.cardA", { days: TRIAL_DAYS })}</p>
        </details>
        <details>
          <summary>{t("pricing.moneyQ")}</summary>
          <p>
            {t("pricing.moneyA", { premium: t.naira(1000), enterprise: t.naira(6000) })}{" "}
            <Link to="/social-good">{t("pricing.pledgeLink")}</Link>.
          </p>
        </details>
      </section>
    </>
  );
}
