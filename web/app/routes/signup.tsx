import { Link } from "react-router";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "join.meta", "Join LinkUp — free community chat") },
  {
    name: "description",
    content: metaTitle(matches, "join.metaDescription", "Join LinkUp free: nearby chat, an AI helper and SOS for your community."),
  },
];

/** The Join screen (docs/product/screens.md): one button into onboarding, and a way back in for returning people. */
export default function Signup() {
  const t = useT();
  return (
    <section className="card mx-auto max-w-[640px] grid justify-items-center gap-3 text-center" aria-labelledby="join-title">
      <h1 id="join-title">{t("join.title")}</h1>
      <p>{t("join.body")}</p>
      <Link to="/onboarding" className="btn btn-primary btn-lg">
        {t("join.now")}
      </Link>
      <p className="text-muted text-sm">
        {t("join.already")} <Link to="/signup-verification?step=verify-phone">{t("join.signIn")}</Link>
      </p>
    </section>
  );
}
