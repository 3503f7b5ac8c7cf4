import { Form, Link, useNavigation } from "react-router";
import { TabLinks, useQueryTab } from "../components/tabs";
import { type ConsoleAnswer, databaseAdminAction, type Health, loadDatabaseAdmin } from "../features/admin/database-admin.server";
import { AccessErrorPage } from "../features/admin/access";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/database-admin";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "db.metaTitle", "Database Admin — LinkUp") }];

export function loader({ context }: Route.LoaderArgs) {
  return loadDatabaseAdmin(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return databaseAdminAction(request, context);
}

// The dashboard's tabs (docs/product/admin-and-analytics.md): users and messages had no content, so only these three are shown.
const TABS = [
  { id: "overview", label: "db.tab.overview" },
  { id: "system", label: "db.tab.system" },
  { id: "sql", label: "db.tab.sql" },
] as const satisfies readonly { id: string; label: MessageKey }[];

const STAT_LABELS = {
  totalUsers: "db.stat.totalUsers",
  activeUsers: "db.stat.activeUsers",
  totalMessages: "db.stat.totalMessages",
  meshConnections: "db.stat.meshConnections",
  emergencyBroadcasts: "db.stat.emergency",
  premiumUsers: "db.stat.premium",
  enterpriseUsers: "db.stat.enterprise",
} as const satisfies Record<string, MessageKey>;

function Badge({ value }: { value: Health }) {
  return <span className={`tag health-${value}`}>{value}</span>;
}

export default function DatabaseAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { stats, health, quickQueries } = loaderData;
  const [tab, setTab] = useQueryTab(TABS);
  // A console answer shows the console even when the URL names another tab (a form post without JS).
  const current = actionData ? "sql" : tab;
  const t = useT();
  return (
    <div className="database-admin">
      <section className="card">
        <h1>
          {t("admin.databaseAdmin")} <span className="tag">{t("db.adminAccess")}</span>
        </h1>
        <p>
          <Link to="/staff-desk">{t("admin.staffDesk")}</Link> · <Link to="/analytics-dashboard">{t("home.teaser.analytics.title")}</Link> ·{" "}
          <Link to="/cache-status">{t("cache.title")}</Link>
        </p>
        <TabLinks tabs={TABS.map((x) => ({ ...x, label: t(x.label) }))} current={current} label={t("db.sections")} onSelect={setTab} />
      </section>
      {current === "overview" && stats ? (
        <section className="card" aria-labelledby="overview-title">
          <h2 id="overview-title">{t("db.tab.overview")}</h2>
          <div className="grid grid-cols-[repeat(4,1fr)] gap-3 narrow:grid-cols-[1fr_1fr] [&>p]:col-span-full [&>p]:m-0">
            {(Object.keys(STAT_LABELS) as (keyof typeof STAT_LABELS)[]).map((k) => (
              <div className="stat" key={k}>
                <strong>{stats[k]}</strong>
                <span>{t(STAT_LABELS[k])}</span>
              </div>
            ))}
          </div>
        </section>
      ) : null}
      {current === "system" && health ? (
        <section className="card" aria-labelledby="system-title">
          <h2 id="system-title">{t("db.tab.system")}</h2>
          <ul aria-label={t("db.systemHealth")}>
            <li>
              {t("db.database")} <Badge value={health.database} />
            </li>
            <li>
              {t("db.cache")} <Badge value={health.cache} />
            </li>
            <li>
              WebSocket: <Badge value={health.websocket} />
            </li>
            <li>
              {t("db.payments")} <Badge value={health.stripe} />
              {health.payments.mode === "local" ? ` ${t("db.localPayments")}` : null}
              {health.payments.missing.length > 0 ? ` ${t("db.missing", { names: health.payments.missing.join(", ") })}` : null}
            </li>
            <li>{t("db.uptime", { seconds: health.uptime })}</li>
          </ul>
        </section>
      ) : null}
      {current === "sql" ? <SqlConsole quickQueries={quickQueries} answer={actionData} /> : null}
    </div>
  );
}

function SqlConsole({ quickQueries, answer }: { quickQueries: { id: string; label: string; query: string }[]; answer?: ConsoleAnswer }) {
  const busy = useNavigation().state === "submitting";
  const t = useT();
  const columns = answer?.result?.rows[0] ? Object.keys(answer.result.rows[0]) : [];
  return (
    <section className="card" aria-labelledby="sql-title">
      <h2 id="sql-title">{t("db.tab.sql")}</h2>
      <p className="text-sm text-muted">{t("db.sqlNote")}</p>
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t("db.quick")}>
        {quickQueries.map((q) => (
          <Form method="post" key={q.id}>
            <input type="hidden" name="query" value={q.query} />
            <button type="submit" className="btn btn-ghost">
              {q.label}
            </button>
          </Form>
        ))}
      </div>
      <Form method="post" className="form">
        <label htmlFor="sql-query">{t("db.query")}</label>
        <textarea id="sql-query" name="query" rows={4} maxLength={2000} required defaultValue={answer?.query ?? ""} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t("db.run")}
        </button>
      </Form>
      {answer?.error ? (
        <p role="alert" className="text-danger">
          {answer.error}
        </p>
      ) : null}
      {answer?.result ? (
        <div role="status" aria-label={t("db.result")}>
          <p>
            {t("db.rows", { count: answer.result.rowCount })}
            {answer.result.truncated ? t("db.truncated", { cap: answer.result.rowCap }) : ""}
            {t("db.took", { ms: answer.result.ms })}
          </p>
          {columns.length > 0 ? (
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c} scope="col">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {answer.result.rows.map((row, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                    <tr key={i}>
                      {columns.map((c) => (
                        <td key={c}>{row[c] === null ? "NULL" : String(row[c])}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          <details>
            <summary>JSON</summary>
            <pre>{JSON.stringify(answer.result, null, 2)}</pre>
          </details>
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useT();
  return <AccessErrorPage error={error} title={t("admin.databaseAdmin")} refusedTitle={t("admin.refused")} fallback={t("db.failed")} />;
}
