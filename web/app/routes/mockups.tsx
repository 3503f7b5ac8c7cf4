// /mockups (docs/product/screens.md): the design gallery. The prototype's category filters did nothing; here they
// are links that filter on the server, and every card opens the real screen it shows.
import { Link, useSearchParams } from "react-router";
import { SCREEN_CATEGORIES, SCREENS } from "../features/story/screens";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/mockups";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "mockups.metaTitle", "Design gallery — LinkUp") }];

export default function Mockups() {
  const t = useT();
  const [params] = useSearchParams();
  const category = SCREEN_CATEGORIES.find((c) => c.id === params.get("category"))?.id ?? "all";
  const shown = category === "all" ? SCREENS : SCREENS.filter((s) => s.category === category);
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("features.mockups")}</h1>
        <p>{t("mockups.intro")}</p>
      </section>
      <nav aria-label={t("mockups.categories")} className="flex flex-wrap items-center gap-2">
        {SCREEN_CATEGORIES.map((c) => (
          <Link
            key={c.id}
            to={c.id === "all" ? "/mockups" : `/mockups?category=${c.id}`}
            className={`btn ${c.id === category ? "btn-primary" : "btn-ghost"}`}
            aria-current={c.id === category ? "page" : undefined}
          >
            {t(c.label)}
          </Link>
        ))}
      </nav>
      <ul
        className="m-0 grid list-none gap-[0.35rem] p-0 mb-3 grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3"
        aria-label={t("mockups.screens")}
      >
        {shown.map((s) => (
          <li key={s.to} className="card grid gap-[0.6rem]">
            <h2>{t(s.title)}</h2>
            <p>{t(s.text)}</p>
            <Link to={s.to} className="btn btn-ghost" aria-label={t("story.openScreen", { title: t(s.title) })}>
              {t("story.open")}
            </Link>
          </li>
        ))}
      </ul>
      <Link to="/showcase">{t("features.showcase")}</Link>
    </div>
  );
}
