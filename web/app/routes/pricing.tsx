import { Link, useSearchParams } from "react-router";
import { PRICES_NGN, TRIAL_DAYS } from "../../../core/constants";
import type { Route } from "./+types/pricing";

export const meta: Route.MetaFunction = () => [{ title: "Pricing — LinkUp" }];

const naira = (n: number) => `₦${n.toLocaleString("en-NG")}`;

const PLANS = [
  {
    id: "community",
    name: "Community",
    prices: { monthly: 0, yearly: 0 },
    description: "Everything a community needs to stay connected.",
    features: ["Unlimited mesh chat", "SOS to your area and contacts", "10 AI commands a day", "5 translations a day"],
    cta: { label: "Start Free", to: "/signup" },
  },
  {
    id: "premium",
    name: "Premium",
    prices: PRICES_NGN.premium,
    description: `${TRIAL_DAYS}-day free trial, cancel anytime.`,
    features: [
      "Unlimited AI commands and translation",
      "50 voice messages a month, transcribed",
      "SOS reaches about 10 km around you, not only your area",
      "Support call-backs first in the queue",
      "Coming soon: personal analytics",
      "Coming soon: 50 file transfers a month, files up to 100MB",
    ],
    cta: { label: "Start Free Trial", to: "/subscribe?plan=premium" },
  },
  {
    id: "enterprise",
    name: "Enterprise",
    prices: PRICES_NGN.enterprise,
    description: "For cooperatives, schools and organisations.",
    features: [
      "Everything in Premium, unlimited",
      "Team management",
      "Dedicated support",
      "Custom keys and API access",
      "Custom configuration",
    ],
    cta: { label: "Contact Sales", to: "/subscribe?plan=enterprise" },
  },
];

export default function Pricing() {
  const [params] = useSearchParams();
  const yearly = params.get("billing") === "yearly";
  return (
    <>
      <section className="hero center">
        <h1>Simple pricing for every community</h1>
        <nav aria-label="Billing period" className="row">
          <Link to="?billing=monthly" className={`btn ${yearly ? "btn-ghost" : "btn-primary"}`} aria-current={yearly ? undefined : "page"}>
            Monthly
          </Link>
          <Link to="?billing=yearly" className={`btn ${yearly ? "btn-primary" : "btn-ghost"}`} aria-current={yearly ? "page" : undefined}>
            Yearly <span className="tag">Save 17%</span>
          </Link>
        </nav>
      </section>
      <div className="grid3">
        {PLANS.map((p) => (
          <section key={p.id} className="card plan" aria-labelledby={`plan-${p.id}`}>
            <h2 id={`plan-${p.id}`}>{p.name}</h2>
            <p className="price">
              <strong>{naira(yearly ? p.prices.yearly : p.prices.monthly)}</strong> /{yearly ? "year" : "month"}
            </p>
            <p className="muted">{p.description}</p>
            <ul>
              {p.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <Link to={p.cta.to} className="btn btn-primary">
              {p.cta.label}
            </Link>
          </section>
        ))}
      </div>
      <section className="card" aria-labelledby="pricing-faq">
        <h2 id="pricing-faq">Questions</h2>
        <details>
          <summary>Do I need a card for the trial?</summary>
          <p>No. The {TRIAL_DAYS}-day trial needs no card. Upgrades take effect immediately; downgrades at the next billing cycle.</p>
        </details>
        <details>
          <summary>Where does the money go?</summary>
          <p>
            We pledge 40% of revenue to community programmes: ₦1,000 of every Premium and ₦6,000 of every Enterprise month.{" "}
            <Link to="/social-good">See our social good pledge</Link>.
          </p>
        </details>
      </section>
    </>
  );
}
