import { Link } from "react-router";
import { AccessErrorPage } from "../features/admin/access";
import { loadAnalytics, type Metrics, type PersonalMetrics } from "../features/admin/analytics.server";
import { useT } from "../i18n";
import { TRIAL_DAYS } from "../../../core/constants";
import type { Route } from "./+types/analytics-dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Analytics Dashboard — LinkUp" }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadAnalytics(request, context);
}

const RANGES = ["1h", "24h", "7d", "30d"] as const;

const KIND_LABELS: Record<string, string> = {
  signup: "Sign-ups",
  verification: "Phone verifications",
  checkout: "Checkouts started",
  "message.nearby": "Messages in area rooms",
  "message.group": "Messages in groups",
  "message.dm": "Direct messages",
  "message.other": "Messages in other rooms",
  "sos.web": "SOS from the web",
  "sos.ussd": "SOS by USSD",
  "sos.whatsapp": "SOS by WhatsApp",
  file: "Files shared",
};
const kindLabel = (k: string) => KIND_LABELS[k] ?? (k.startsWith("ai.") ? `AI: ${k.slice(3)}` : k);

/** Messages per hour or day as bars, drawn on the server (no script needed); the numbers are in the label. */
function MessagesChart({ days, unit }: { days: Metrics["messagesOverTime"]; unit: Metrics["unit"] }) {
  if (days.length === 0) return <p>No messages recorded in this range.</p>;
  const label = (at: string) => (unit === "hour" ? `${at.slice(11)}h` : at.slice(5));
  const max = Math.max(...days.map((d) => d.count), 1);
  const w = 300;
  const h = 100;
  const bar = w / days.length;
  return (
    <svg
      viewBox={`0 0 ${w} ${h + 14}`}
      width="100%"
      role="img"
      aria-label={`Messages per ${unit}: ${days.map((d) => `${d.at} ${d.count}`).join(", ")}`}
      className="chart"
    >
      {days.map((d, i) => {
        const bh = Math.max(1, (d.count / max) * h);
        return (
          <g key={d.at}>
            <rect x={i * bar + 2} y={h - bh} width={Math.max(1, bar - 4)} height={bh} fill="currentColor" opacity={0.7} />
            <text x={i * bar + bar / 2} y={h + 12} fontSize={9} textAnchor="middle">
              {label(d.at)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function RangeButtons({ range }: { range: string }) {
  const t = useT();
  return (
    <nav aria-label={t("analytics.range")} className="row">
      {RANGES.map((r) => (
        <Link
          key={r}
          to={`?range=${r}`}
          className={`btn ${r === range ? "btn-primary" : "btn-ghost"}`}
          aria-current={r === range ? "page" : undefined}
        >
          {r}
        </Link>
      ))}
    </nav>
  );
}

/** A Premium person's own activity (docs/decisions/037a-hourly-and-personal-analytics.md). */
function MyActivity({ range, mine }: { range: string; mine: PersonalMetrics }) {
  const t = useT();
  return (
    <div className="analytics-dashboard">
      <section className="card" aria-labelledby="mine-title">
        <h1 id="mine-title">{t("analytics.me.title")}</h1>
        <RangeButtons range={range} />
        <p className="small muted">{t("analytics.me.since", { since: mine.since.slice(0, 16).replace("T", " ") })}</p>
        <ul className="stats" aria-label={t("analytics.me.title")}>
          <li className="stat">
            <strong>{mine.messagesSent}</strong> <span>{t("analytics.me.messages")}</span>
          </li>
          <li className="stat">
            <strong>{mine.aiCommands}</strong> <span>{t("analytics.me.ai")}</span>
          </li>
          <li className="stat">
            <strong>{mine.sosSent}</strong> <span>{t("analytics.me.sos")}</span>
          </li>
          <li className="stat">
            <strong>{mine.files}</strong> <span>{t("analytics.me.files")}</span>
          </li>
        </ul>
      </section>
      <section className="card" aria-labelledby="mine-ai-title">
        <h2 id="mine-ai-title">{t("analytics.me.aiByKind")}</h2>
        {Object.keys(mine.aiByKind).length === 0 ? (
          <p>{t("analytics.me.noAi")}</p>
        ) : (
          <ul aria-label={t("analytics.me.aiByKind")}>
            {Object.entries(mine.aiByKind).map(([kind, n]) => (
              <li key={kind}>
                @ai {kind}: {n}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function UpgradePrompt() {
  const t = useT();
  return (
    <section className="card" aria-labelledby="mine-title">
      <h1 id="mine-title">{t("analytics.me.title")}</h1>
      <p>{t("analytics.me.upgrade", { days: TRIAL_DAYS })}</p>
      <Link to="/pricing" className="btn btn-primary">
        {t("analytics.me.upgradeCta")}
      </Link>
    </section>
  );
}

export default function AnalyticsDashboard({ loaderData }: Route.ComponentProps) {
  if (loaderData.view === "upgrade") return <UpgradePrompt />;
  if (loaderData.view === "me") return <MyActivity range={loaderData.range} mine={loaderData.mine} />;
  const { range, metrics, ai } = loaderData;
  return (
    <div className="analytics-dashboard">
      <section className="card">
        <h1>Analytics Dashboard</h1>
        <p>
          <Link to="/database-admin">Database Admin</Link> · <Link to="/staff-desk">Staff Desk</Link>
        </p>
        <RangeButtons range={range} />
        {metrics ? (
          <p className="small muted">
            Counted from recorded events by UTC {metrics.unit === "hour" ? "hours" : "days"} since{" "}
            {metrics.since.slice(0, 16).replace("T", " ")} UTC; people and connections are live.
          </p>
        ) : null}
      </section>
      {metrics ? (
        <>
          <section className="card" aria-labelledby="headline-title">
            <h2 id="headline-title">Headline</h2>
            <div className="stats">
              <div className="stat">
                <strong>{metrics.activeUsers}</strong>
                <span>Active users</span>
              </div>
              <div className="stat">
                <strong>{metrics.meshConnections}</strong>
                <span>Mesh connections (open now)</span>
              </div>
              <div className="stat">
                <strong>{metrics.aiInteractions}</strong>
                <span>AI interactions</span>
              </div>
              <div className="stat">
                <strong>{metrics.networkHealth ?? "—"}</strong>
                <span>Network health (not measured by the server)</span>
              </div>
            </div>
          </section>
          <section className="card" aria-labelledby="network-title">
            <h2 id="network-title">Network</h2>
            <MessagesChart days={metrics.messagesOverTime} unit={metrics.unit} />
            <ul aria-label="Network figures">
              <li>Messages: {metrics.messageVolume}</li>
              <li>Emergency alerts: {metrics.emergencyAlerts}</li>
              <li>Areas with activity: {metrics.coverage}</li>
            </ul>
          </section>
          <section className="card" aria-labelledby="ai-title">
            <h2 id="ai-title">AI Performance</h2>
            {ai ? (
              <ul aria-label="AI usage">
                <li>Translations: {ai.translations}</li>
                <li>Market prices: {ai.marketAnalysis}</li>
                <li>Emergency guidance: {ai.emergencyDetection}</li>
                <li>Weather: {ai.weather}</li>
                <li>Questions: {ai.questions}</li>
              </ul>
            ) : null}
          </section>
          <section className="card" aria-labelledby="people-title">
            <h2 id="people-title">User Behavior</h2>
            <ul aria-label="People figures">
              <li>Total users: {metrics.totalUsers}</li>
              <li>Sign-ups: {metrics.signups}</li>
              <li>Phone verifications: {metrics.verifications}</li>
              <li>Checkouts started: {metrics.checkouts}</li>
            </ul>
            <details>
              <summary>Every event kind</summary>
              <div className="table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Count</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(metrics.byKind).map(([k, n]) => (
                      <tr key={k}>
                        <td>{kindLabel(k)}</td>
                        <td>{n}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </section>
        </>
      ) : (
        <section className="card">
          <p role="alert">The figures could not be loaded.</p>
        </section>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccessErrorPage
      error={error}
      title="Analytics Dashboard"
      refusedTitle="Admin Access Required"
      fallback="The analytics could not be loaded."
    />
  );
}
