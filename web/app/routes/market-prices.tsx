// /market-prices: the median of the prices people reported in the last 14 days, per item, unit and market, and the
// form to report one (docs/decisions/068-market-prices-people-report.md). Works without JavaScript: both forms post.
import { Form, Link, useNavigation } from "react-router";
import { type Quote, loadPrices, sendReport } from "../features/prices/prices.server";
import { metaTitle, type T, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/market-prices";

/** A report's fields, said in the page's language when the API refuses one (core/price-reports.ts). */
const PRICE_FIELDS = { fields: { item: "mp.err.item", unit: "mp.err.unit", price: "mp.err.price", market: "mp.err.market" } } as const;

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "mp.metaTitle", "Market prices — LinkUp") }];

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadPrices(context, new URL(request.url));
}

export async function action({ context, request }: Route.ActionArgs) {
  return sendReport(context, request);
}

/** '12–26 Nov' in the page's language: the days of the reports the median counts. */
function days(t: T, q: Quote): string {
  if (!q.first || !q.last) return "";
  const f = new Intl.DateTimeFormat([t.tag, "en"], { day: "numeric", month: "short", timeZone: "UTC" });
  return f.formatRange(new Date(q.first), new Date(q.last));
}

function QuoteItem({ q, min }: { q: Quote; min: number }) {
  const t = useT();
  const what = { unit: q.unit, item: q.item, market: q.market };
  if (q.kind === "none" || q.medianNgn === undefined) return <li>{t("mp.noRecent", { ...what, count: q.count, min })}</li>;
  return (
    <li>
      <strong>{t("mp.quote", { ...what, price: t.naira(q.medianNgn) })}</strong>
      <br />
      <span className="text-muted">{t("mp.basis", { count: q.count, days: days(t, q) })}</span>
    </li>
  );
}

export default function MarketPrices({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { prices, item, market } = loaderData;
  const user = useRootData()?.user;
  const busy = useNavigation().state === "submitting";
  const sent = actionData?.sent ?? null;
  const failed = actionData?.error ? actionData : null;
  const windowDays = prices?.windowDays ?? 14;
  const min = prices?.minReports ?? 3;
  return (
    <>
      <section className="card" aria-labelledby="mp-title">
        <h1 id="mp-title">{t("mp.title")}</h1>
        <p className="text-muted">{t("mp.intro", { days: windowDays, min })}</p>
        <Form method="get" className="form" aria-label={t("mp.searchForm")}>
          <label>
            {t("mp.item")}
            <input name="item" defaultValue={item} maxLength={40} />
          </label>
          <label>
            {t("mp.market")}
            <input name="market" defaultValue={market} maxLength={60} />
          </label>
          <button type="submit" className="btn btn-secondary">
            {t("mp.search")}
          </button>
        </Form>
        {prices && prices.quotes.length > 0 ? (
          <ul aria-label={t("mp.listLabel")} className="price-quotes">
            {prices.quotes.map((q) => (
              <QuoteItem key={`${q.item}|${q.unit}|${q.market}`} q={q} min={min} />
            ))}
          </ul>
        ) : (
          <p role="status">{item || market ? t("mp.noneFor", { days: windowDays }) : t("mp.none", { days: windowDays })}</p>
        )}
      </section>
      <section className="card" aria-labelledby="mp-report">
        <h2 id="mp-report">{t("mp.reportTitle")}</h2>
        {sent ? (
          <p role="status">
            {t("mp.thanks")} {sent.points ? t("mp.points", { points: sent.points }) : null}
          </p>
        ) : null}
        {user?.authMode === "verified" ? (
          <Form method="post" className="form">
            <label>
              {t("mp.item")}
              <input name="item" required minLength={2} maxLength={40} defaultValue={failed?.values?.item ?? ""} />
            </label>
            <label>
              {t("mp.unit")}
              <input name="unit" required maxLength={20} defaultValue={failed?.values?.unit ?? ""} />
            </label>
            <label>
              {t("mp.price")}
              <input name="priceNgn" required inputMode="numeric" maxLength={14} defaultValue={failed?.values?.priceNgn ?? ""} />
            </label>
            <label>
              {t("mp.market")}
              <input name="market" required minLength={2} maxLength={60} defaultValue={failed?.values?.market ?? ""} />
            </label>
            {failed ? (
              <p role="alert" className="text-danger">
                {t.error(failed.error, PRICE_FIELDS)}
              </p>
            ) : null}
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t("mp.send")}
            </button>
          </Form>
        ) : (
          <p>
            {t("mp.verifyFirst")} <Link to="/signup">{t("mp.verify")}</Link>
          </p>
        )}
        <p className="text-muted">{t("mp.otherWays")}</p>
      </section>
    </>
  );
}
