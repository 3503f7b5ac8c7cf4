// /about-founder (docs/product/screens.md): why LinkUp exists, the founder's pledge (labelled as a pledge), live figures
// and the ways in: /signup and /whatsapp-demo.
import { Link } from "react-router";
import { UI_LANGUAGES } from "../../../core/i18n/languages";
import { bigAmount, IMPACT_GOAL_NGN } from "../features/story/amounts";
import { LiveFigures } from "../features/story/live-figures";
import { loadPublicStats } from "../features/story/story.server";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/about-founder";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "founder.metaTitle", "The founder's story — LinkUp") },
];

export async function loader({ context }: Route.LoaderArgs) {
  return loadPublicStats(context);
}

export default function AboutFounder({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("about.founder")}</h1>
        <p>{t("founder.intro")}</p>
      </section>
      <section className="card" aria-labelledby="why-title">
        <h2 id="why-title">{t("about.why")}</h2>
        <p>{t("founder.whyP1")}</p>
        <p>{t("founder.whyP2", { count: UI_LANGUAGES.length })}</p>
      </section>
      <section className="card" aria-labelledby="pledge-title">
        <h2 id="pledge-title">{t("founder.pledgeTitle")}</h2>
        <ul>
          <li>{t("founder.pledge")}</li>
          <li>{t("founder.goal", { amount: bigAmount(IMPACT_GOAL_NGN, t.tag) })}</li>
        </ul>
        <p className="text-sm text-muted">{t("founder.notResults")}</p>
        <Link to="/social-good">{t("founder.howSpent")}</Link>
      </section>
      <LiveFigures stats={loaderData.stats} label={t("founder.soFar")} />
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/signup" className="btn btn-primary">
          {t("home.join.title")}
        </Link>
        <Link to="/whatsapp-demo" className="btn btn-ghost">
          {t("founder.whatsapp")}
        </Link>
      </div>
    </div>
  );
}
