// /competitive-advantage: what LinkUp does that a chat app built for strong networks does not, each claim backed
// by a screen that does it, and what LinkUp does not do (comparisons that are true: docs/product/README.md).
import { Link } from "react-router";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/competitive-advantage";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "why.metaTitle", "Why LinkUp — LinkUp") }];

const ADVANTAGES: { id: string; title: MessageKey; text: MessageKey; to: string; cta: MessageKey }[] = [
  { id: "weak", title: "why.weak.title", text: "why.weak.text", to: "/chat", cta: "why.weak.cta" },
  { id: "basic", title: "why.basic.title", text: "why.basic.text", to: "/whatsapp-demo", cta: "why.basic.cta" },
  { id: "sos", title: "why.sos.title", text: "why.sos.text", to: "/emergency", cta: "why.sos.cta" },
  { id: "languages", title: "why.languages.title", text: "why.languages.text", to: "/ai-features", cta: "why.languages.cta" },
  { id: "private", title: "why.private.title", text: "why.private.text", to: "/security", cta: "why.private.cta" },
  { id: "data", title: "why.data.title", text: "why.data.text", to: "/download", cta: "why.data.cta" },
];

const LIMITS: MessageKey[] = ["why.limit.bluetooth", "why.limit.public", "why.limit.online"];

export default function CompetitiveAdvantage() {
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("about.why")}</h1>
        <p>{t("why.intro")}</p>
      </section>
      <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
        {ADVANTAGES.map((a) => (
          <section key={a.id} className="card grid gap-[0.6rem]" aria-label={t(a.title)}>
            <h2>{t(a.title)}</h2>
            <p>{t(a.text)}</p>
            <Link to={a.to} className="btn btn-ghost">
              {t(a.cta)}
            </Link>
          </section>
        ))}
      </div>
      <section className="card" aria-labelledby="limits-title">
        <h2 id="limits-title">{t("why.limitsTitle")}</h2>
        <ul>
          {LIMITS.map((l) => (
            <li key={l}>{t(l)}</li>
          ))}
        </ul>
      </section>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/pricing" className="btn btn-primary">
          {t("why.seePlans")}
        </Link>
        <Link to="/features" className="btn btn-ghost">
          {t("why.allFeatures")}
        </Link>
      </div>
    </div>
  );
}
