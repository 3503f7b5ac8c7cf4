import { Link } from "react-router";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/features";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "features.metaTitle", "Features — LinkUp") }];

const FEATURES: { id: string; title: MessageKey; text: MessageKey }[] = [
  { id: "rooms", title: "features.rooms.title", text: "features.rooms.text" },
  { id: "private", title: "features.private.title", text: "features.private.text" },
  { id: "network", title: "features.network.title", text: "features.network.text" },
  { id: "mesh", title: "features.mesh.title", text: "features.mesh.text" },
  { id: "ai", title: "features.ai.title", text: "features.ai.text" },
  { id: "sos", title: "features.sos.title", text: "features.sos.text" },
  { id: "basic", title: "features.basic.title", text: "features.basic.text" },
  { id: "install", title: "features.install.title", text: "features.install.text" },
];

export default function Features() {
  const t = useT();
  return (
    <>
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("features.title")}</h1>
        <p>{t("features.intro")}</p>
      </section>
      <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
        {FEATURES.map((f) => (
          <section key={f.id} className="card" aria-labelledby={`feature-${f.id}`}>
            <h2 id={`feature-${f.id}`}>{t(f.title)}</h2>
            <p>{t(f.text)}</p>
          </section>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/" className="btn btn-ghost">
          {t("pages.backHome")}
        </Link>
        <Link to="/ai-features" className="btn btn-primary">
          {t("features.tryAi")}
        </Link>
        <Link to="/showcase" className="btn btn-ghost">
          {t("features.showcase")}
        </Link>
        <Link to="/mockups" className="btn btn-ghost">
          {t("features.mockups")}
        </Link>
      </div>
    </>
  );
}
