import { Form, Link, useNavigation } from "react-router";
import { TabLinks, useQueryTab } from "../components/tabs";
import { type ConsoleAnswer, databaseAdminAction, type Health, loadDatabaseAdmin } from "../features/admin/database-admin.server";
import { AccessErrorPage } from "../features/admin/access";
import type { Route } from "./+types/database-admin";

export const meta: Route.MetaFunction = () => [{ title: "Database Admin — LinkUp" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadDatabaseAdmin(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return databaseAdminAction(request, context);
}

// The spec's tabs; users and messages are left empty by the spec, so only these three are shown.
const TABS = [
  { id: "overview", label: "Overview" },
  { id: "system", label: "System Health" },
  { id: "sql", label: "SQL Console" },
] as const;

const STAT_LABELS = {
  totalUsers: "Total users",
  activeUsers: "Active users",
  totalMessages: "Total messages",
  meshConnections: "Mesh connections",
  emergencyBroadcasts: "Emergency broadcasts (24h)",
  premiumUsers: "Premium users",
  enterpriseUsers: "Enterprise users",
} as const;

function Badge({ value }: { value: Health }) {
  return <span className={`tag health-${value}`}>{value}</span>;
}

export default function DatabaseAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { stats, health, quickQueries } = loaderData;
  const [tab, setTab] = useQueryTab(TABS);
  // A console answer shows the console even when the URL names another tab (a form post without JS).
  const current = actionData ? "sql" : tab;
  return (
    <div className="database-admin">
      <section className="card">
        <h1>
          Database Admin <span className="tag">Admin Access</span>
        </h1>
        <p>
          <Link to="/staff-desk">Staff Desk</Link> · <Link to="/analytics-dashboard">Analytics Dashboard</Link> ·{" "}
          <Link to="/cache-status">Cache Status</Link>
        </p>
        <TabLinks tabs={TABS} current={current} label="Dashboard sections" onSelect={setTab} />
      </section>
      {current === "overview" && stats ? (
        <section className="card" aria-labelledby="overview-title">
          <h2 id="overview-title">Overview</h2>
          <div className="stats">
            {(Object.keys(STAT_LABELS) as (keyof typeof STAT_LABELS)[]).map((k) => (
              <div className="stat" key={k}>
                <strong>{stats[k]}</strong>
                <span>{STAT_LABELS[k]}</span>
              </div>
            ))}
          </div>
        </section>
      ) : null}
      {current === "system" && health ? (
        <section className="card" aria-labelledby="system-title">
          <h2 id="system-title">System Health</h2>
          <ul aria-label="System health">
            <li>
              Database: <Badge value={health.database} />
            </li>
            <li>
              Cache: <Badge value={health.cache} />
            </li>
            <li>
              WebSocket: <Badge value={health.websocket} />
            </li>
            <li>
              Payments (Stripe): <Badge value={health.stripe} />
              {health.payments.mode === "local" ? " local test payments (development)" : null}
              {health.payments.missing.length > 0 ? ` missing ${health.payments.missing.join(", ")}` : null}
            </li>
            <li>Uptime of this Worker instance: {health.uptime} s</li>
          </ul>
        </section>
      ) : null}
      {current === "sql" ? <SqlConsole quickQueries={quickQueries} answer={actionData} /> : null}
    </div>
  );
}

function SqlConsole({ quickQueries, answer }: { quickQueries: { id: string; label: string; query: string }[]; answer?: ConsoleAnswer }) {
  const busy = useNavigation().state === "submitting";
  const columns = answer?.result?.rows[0] ? Object.keys(answer.result.rows[0]) : [];
  return (
    <section className="card" aria-labelledby="sql-title">
      <h2 id="sql-title">SQL Console</h2>
      <p className="small muted">
        One read-only SELECT or WITH query; at most 100 rows and 5 seconds; phone numbers are masked; every query is recorded.
      </p>
      <div className="row" role="group" aria-label="Quick queries">
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
        <label htmlFor="sql-query">Query</label>
        <textarea id="sql-query" name="query" rows={4} maxLength={2000} required defaultValue={answer?.query ?? ""} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Run query
        </button>
      </Form>
      {answer?.error ? (
        <p role="alert" className="error">
          {answer.error}
        </p>
      ) : null}
      {answer?.result ? (
        <div role="status" aria-label="Query result">
          <p>
            {answer.result.rowCount} {answer.result.rowCount === 1 ? "row" : "rows"}
            {answer.result.truncated ? ` (first ${answer.result.rowCap} shown)` : ""} in {answer.result.ms} ms
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
  return (
    <AccessErrorPage
      error={error}
      title="Database Admin"
      refusedTitle="Admin Access Required"
      fallback="The database dashboard could not be loaded."
    />
  );
}
