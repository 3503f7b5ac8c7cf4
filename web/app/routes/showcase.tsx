// /showcase (docs/product/screens.md): the product at a glance, with live figures and the main screens.
import { Link } from "react-router";
import { LiveFigures } from "../features/story/live-figures";
import { SCREENS } from "../features/story/screens";
import { loadPublicStats } from "../features/story/story.server";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/showcase";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "showcase.metaTitle", "Product showcase — LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadPublicStats(context);
}

const HIGHLIGHTS = ["/chat", "/emergency", "/ai-features", "/whatsapp-demo"];

export default function Showcase({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("features.showcase")}</h1>
        <p>{t("showcase.intro")}</p>
        <Link to="/signup" className="btn btn-primary">
          {t("shell.joinFree")}
        </Link>
      </section>
      <LiveFigures stats={loaderData.stats} label={t("showcase.today")} />
      <div className="grid grid-cols-2 gap-3 phone:grid-cols-1">
        {SCREENS.filter((s) => HIGHLIGHTS.includes(s.to)).map((s) => (
          <section key={s.to} className="card grid gap-[0.6rem]" aria-label={t(s.title)}>
            <h2>{t(s.title)}</h2>
            <p>{t(s.text)}</p>
            <Link to={s.to} className="btn btn-ghost" aria-label={t("story.openScreen", { title: t(s.title) })}>
              {t("story.open")}
            </Link>
          </section>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/mockups" className="btn btn-ghost">
          {t("features.mockups")}
        </Link>
        <Link to="/competitive-advantage" className="btn btn-ghost">
          {t("about.why")}
        </Link>
        <Link to="/about-founder" className="btn btn-ghost">
          {t("about.founder")}
        </Link>
      </div>
    </div>
  );
}
