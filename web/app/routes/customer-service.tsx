// /customer-service (docs/product/screens.md): the phone number, a Call button, hours and links.
import { Phone } from "lucide-react";
import { Link } from "react-router";
import { SUPPORT_HOURS } from "../../../core/constants";
import { useRootData } from "../root";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/customer-service";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "cs.meta", "Customer Service — LinkUp") }];

const DAYS: Record<(typeof SUPPORT_HOURS)[number]["days"], MessageKey> = {
  "Monday to Friday": "cs.weekdays",
  Saturday: "cs.saturday",
  Sunday: "cs.sunday",
};

export default function CustomerService(_: Route.ComponentProps) {
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  const t = useT();
  return (
    <section className="card grid justify-items-center gap-3 text-center">
      <h1>{t("cs.title")}</h1>
      <p>{t("cs.body")}</p>
      {phone ? (
        <>
          <p className="text-2xl">
            <strong>{phone}</strong>
          </p>
          <a className="btn btn-primary btn-lg" href={`tel:${phone}`} aria-label={t("cs.callLabel", { phone })}>
            <Phone aria-hidden="true" size={20} /> {t("cs.call")}
          </a>
        </>
      ) : null}
      <h2>{t("cs.hours")}</h2>
      <ul className="m-0 grid list-none gap-[0.35rem] p-0">
        {SUPPORT_HOURS.map((h) => (
          <li key={h.days}>
            {t(DAYS[h.days])}: {h.hours}
          </li>
        ))}
      </ul>
      <p className="text-muted">{t("cs.emergency")}</p>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/support" className="btn btn-ghost">
          {t("cs.aiSupport")}
        </Link>
        <Link to="/community" className="btn btn-ghost">
          {t("cs.community")}
        </Link>
        <Link to="/pricing" className="btn btn-ghost">
          {t("cs.pricing")}
        </Link>
      </div>
    </section>
  );
}
