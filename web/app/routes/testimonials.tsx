import { Link } from "react-router";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/testimonials";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "stories.metaTitle", "Example stories — LinkUp") }];

// Illustrative use cases, labelled as such on the page: no invented quotes, figures or real-seeming users
// (docs/decisions/060-every-claim-true.md).
const STORIES: { who: MessageKey; story: MessageKey }[] = [
  { who: "stories.farmer.who", story: "stories.farmer.story" },
  { who: "stories.trader.who", story: "stories.trader.story" },
  { who: "stories.family.who", story: "stories.family.story" },
  { who: "stories.student.who", story: "stories.student.story" },
];

export default function Testimonials() {
  const t = useT();
  return (
    <>
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("stories.title")}</h1>
        <p>{t("stories.intro")}</p>
      </section>
      <div className="grid grid-cols-2 gap-3 phone:grid-cols-1">
        {STORIES.map((s) => (
          <figure key={s.who} className="card">
            <blockquote>{t(s.story)}</blockquote>
            <figcaption className="text-muted">{t(s.who)}</figcaption>
          </figure>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/" className="btn btn-ghost">
          {t("pages.backHome")}
        </Link>
        <Link to="/features" className="btn btn-primary">
          {t("stories.allFeatures")}
        </Link>
      </div>
    </>
  );
}
