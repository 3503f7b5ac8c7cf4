import { Link, useSearchParams } from "react-router";
import { PRICES_NGN } from "../../../core/constants";
import type { MessageKey } from "../../../core/i18n/en";
import { bigAmount, IMPACT_GOAL_NGN } from "../features/story/amounts";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/social-good";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sg.metaTitle", "Social Good — LinkUp") }];

const TABS = ["impact", "programs", "stories", "sustainability"] as const;
type Tab = (typeof TABS)[number];

const TAB_LABELS: Record<Tab, MessageKey> = {
  impact: "sg.tab.impact",
  programs: "sg.tab.programs",
  stories: "sg.tab.stories",
  sustainability: "sg.tab.sustainability",
};

// The pledged share of revenue: 40% of every paid month.
const PLEDGED_SHARE = 0.4;

export default function SocialGood() {
  const t = useT();
  const [params] = useSearchParams();
  const tab = TABS.find((x) => x === params.get("tab")) ?? "impact";
  // Pledges and goals are labelled as such: nothing here is presented as a measured result.
  const content: Record<Tab, { title: string; body: string[] }> = {
    impact: {
      title: t("sg.impact.title"),
      body: [
        t("sg.impact.p1"),
        t("sg.impact.p2", {
          premium: t.naira(PRICES_NGN.premium.monthly * PLEDGED_SHARE),
          enterprise: t.naira(PRICES_NGN.enterprise.monthly * PLEDGED_SHARE),
        }),
        t("sg.impact.p3", { amount: bigAmount(IMPACT_GOAL_NGN, t.tag) }),
      ],
    },
    programs: { title: t("sg.programs.title"), body: [t("sg.programs.p1"), t("sg.programs.p2"), t("sg.programs.p3")] },
    stories: { title: t("sg.stories.title"), body: [t("sg.stories.p1")] },
    sustainability: { title: t("sg.sustainability.title"), body: [t("sg.sustainability.p1")] },
  };
  const shown = content[tab];
  return (
    <>
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("sg.title")}</h1>
      </section>
      <nav aria-label={t("sg.sections")} className="flex flex-wrap items-center gap-2">
        {TABS.map((x) => (
          <Link
            key={x}
            to={`?tab=${x}`}
            className={`btn ${x === tab ? "btn-primary" : "btn-ghost"}`}
            aria-current={x === tab ? "page" : undefined}
          >
            {t(TAB_LABELS[x])}
          </Link>
        ))}
      </nav>
      <section className="card" aria-labelledby="sg-title">
        <h2 id="sg-title">{shown.title}</h2>
        {shown.body.map((p) => (
          <p key={p}>{p}</p>
        ))}
        {tab === "stories" ? <Link to="/blog">{t("sg.readBlog")}</Link> : null}
      </section>
    </>
  );
}
