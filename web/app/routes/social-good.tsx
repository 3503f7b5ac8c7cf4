import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/social-good";

export const meta: Route.MetaFunction = () => [{ title: "Social Good — LinkUp" }];

const TABS = ["impact", "programs", "stories", "sustainability"] as const;

// Pledges and goals are labelled as such: nothing here is presented as a measured result.
const CONTENT: Record<(typeof TABS)[number], { title: string; body: string[] }> = {
  impact: {
    title: "Our pledge",
    body: [
      "Pledge: 40% of LinkUp's revenue and 40% of the founder's equity go to community programmes.",
      "That is ₦1,000 of every Premium month and ₦6,000 of every Enterprise month.",
      "Goal: ₦890 million of economic impact for the communities we serve.",
    ],
  },
  programs: {
    title: "Programmes we plan to fund",
    body: [
      "Emergency response: training community first responders who receive LinkUp SOS alerts. Status: planned.",
      "Market access: reference prices for farmers over USSD and WhatsApp. Status: active.",
      "Digital skills: study groups for students on low-data phones. Status: planned.",
    ],
  },
  stories: { title: "Stories", body: ["Stories from communities are published on our blog as they happen."] },
  sustainability: {
    title: "Sustainability",
    body: ["LinkUp is funded by Premium and Enterprise subscriptions, so the free Community plan and SOS stay free for everyone."],
  },
};

export default function SocialGood() {
  const [params] = useSearchParams();
  const tab = TABS.find((t) => t === params.get("tab")) ?? "impact";
  const content = CONTENT[tab];
  return (
    <>
      <section className="hero">
        <h1>Social Good</h1>
      </section>
      <nav aria-label="Social good sections" className="row">
        {TABS.map((t) => (
          <Link
            key={t}
            to={`?tab=${t}`}
            className={`btn ${t === tab ? "btn-primary" : "btn-ghost"}`}
            aria-current={t === tab ? "page" : undefined}
          >
            {t[0].toUpperCase() + t.slice(1)}
          </Link>
        ))}
      </nav>
      <section className="card" aria-labelledby="sg-title">
        <h2 id="sg-title">{content.title}</h2>
        {content.body.map((p) => (
          <p key={p}>{p}</p>
        ))}
        {tab === "stories" ? <Link to="/blog">Read the blog</Link> : null}
      </section>
    </>
  );
}
