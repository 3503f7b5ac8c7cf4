import { Link } from "react-router";
import { metaTitle, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "about.metaTitle", "About — LinkUp") }];

export default function About() {
  const root = useRootData();
  const t = useT();
  return (
    <section className="card">
      <h1>{t("about.title")}</h1>
      <p>{t("about.p1")}</p>
      <p>{t("about.p2")}</p>
      {root?.env.SUPPORT_PHONE ? (
        <p>
          {t("about.support")} <a href={`tel:${root.env.SUPPORT_PHONE}`}>{root.env.SUPPORT_PHONE}</a>, {t("about.hours")}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/" className="btn btn-primary">
          {t("pages.backHome")}
        </Link>
        <Link to="/about-founder" className="btn btn-ghost">
          {t("about.founder")}
        </Link>
        <Link to="/competitive-advantage" className="btn btn-ghost">
          {t("about.why")}
        </Link>
      </div>
    </section>
  );
}
