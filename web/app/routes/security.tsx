// Security overview (docs/product/security.md): what protects a LinkUp account, with links to
// /signup and /security-settings, where each protection is switched on.
import { Link } from "react-router";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sec.metaOverview", "Security — LinkUp") }];

export default function Security() {
  const t = useT();
  return (
    <section className="card mx-auto max-w-[640px]" aria-labelledby="security-overview-title">
      <h1 id="security-overview-title">{t("sec.overviewTitle")}</h1>
      <ul>
        <li>{t("sec.overviewE2e")}</li>
        <li>{t("sec.overviewPhone")}</li>
        <li>{t("sec.overviewSessions")}</li>
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/signup" className="btn btn-primary">
          {t("sec.joinFree")}
        </Link>
        <Link to="/security-settings" className="btn btn-ghost">
          {t("sec.settingsTitle")}
        </Link>
      </div>
    </section>
  );
}
