import { Link } from "react-router";
import { AccessErrorPage } from "../features/admin/access";
import { loadAnalytics, type Metrics, type PersonalMetrics } from "../features/admin/analytics.server";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, type T, useT } from "../i18n";
import { TRIAL_DAYS } from "../../../core/constants";
import type { Route } from "./+types/analytics-dashboard";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "an.metaTitle", "Analytics Dashboard — LinkUp") }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadAnalytics(request, context);
}

const RANGES = ["1h", "24h", "7d", "30d"] as const;

const KIND_LABELS: Record<string, MessageKey> = {
  signup: "an.kind.signup",
  verification: "an.kind.verification",
  checkout: "an.kind.checkout",
  "message.nearby": "an.kind.nearby",
  "message.group": "an.kind.group",
  "message.dm": "an.kind.dm",
  "message.other": "an.kind.other",
  "sos.web": "an.kind.sosWeb",
  "sos.ussd": "an.kind.sosUssd",
  "sos.whatsapp": "an.kind.sosWhatsapp",
  file: "an.kind.file",
};
/** The trouble counters (docs/decisions/053-nothing-lost.md), each with its words. */
const TROUBLE_LABELS: Record<keyof Metrics["trouble"], MessageKey> = {
  queue_retried: "an.troubleQueueRetried",
  dead_lettered: "an.troubleDeadLettered",
  d1_write_failed: "an.troubleD1",
  sos_unfinished: "an.troubleSos",
  webhook_failed: "an.troubleWebhooks",
};

/** Admins' view of what went wrong in the range; all zero says so in words rather than five zeros. */
function Trouble({ trouble }: { trouble: Metrics["trouble"] }) {
  const t = useT();
  const counters = Object.entries(TROUBLE_LABELS) as [keyof Metrics["trouble"], MessageKey][];
  const any = counters.some(([k]) => (trouble[k] ?? 0) > 0);
  return (
    <section className="card" aria-labelledby="trouble-title">
      <h2 id="trouble-title">{t("an.trouble")}</h2>
      {any ? (
        <ul aria-label={t("an.troubleFigures")}>
          {counters.map(([k, label]) => (
            <li key={k}>{t(label, { count: trouble[k] ?? 0 })}</li>
          ))}
        </ul>
      ) : (
        <p>{t("an.troubleNone")}</p>
      )}
    </section>
  );
}

const kindLabel = (k: string, t: T) =>
  k in KIND_LABELS ? t(KIND_LABELS[k]) : k.startsWith("ai.") ? t("an.kind.ai", { command: k.slice(3) }) : k;

/** Messages per hour or day as bars, drawn on the server (no script needed); the numbers are in the label. */
function MessagesChart({ days, unit }: { days: Metrics["messagesOverTime"]; unit: Metrics["unit"] }) {
  const t = useT();
  if (days.length === 0) return <p>{t("an.noMessages")}</p>;
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
      aria-label={t(unit === "hour" ? "an.perHour" : "an.perDay", { days: days.map((d) => `${d.at} ${d.count}`).join(", ") })}
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
    <nav aria-label={t("an.range")} className="flex flex-wrap items-center gap-2">
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

/** A Premium person's own activity (docs/decisions/037-hourly-and-personal-analytics.md). */
function MyActivity({ range, mine }: { range: string; mine: PersonalMetrics }) {
  const t = useT();
  return (
    <div className="analytics-dashboard">
      <section className="card" aria-labelledby="mine-title">
        <h1 id="mine-title">{t("analytics.me.title")}</h1>
        <RangeButtons range={range} />
        <p className="text-sm text-muted">{t("analytics.me.since", { since: mine.since.slice(0, 16).replace("T", " ") })}</p>
        <ul
          className="grid grid-cols-[repeat(4,1fr)] gap-3 narrow:grid-cols-[1fr_1fr] [&>p]:col-span-full [&>p]:m-0"
          aria-label={t("analytics.me.title")}
        >
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
  const t = useT();
  if (loaderData.view === "upgrade") return <UpgradePrompt />;
  if (loaderData.view === "me") return <MyActivity range={loaderData.range} mine={loaderData.mine} />;
  const { range, metrics, ai } = loaderData;
  return (
    <div className="analytics-dashboard">
      <section className="card">
        <h1>{t("home.teaser.analytics.title")}</h1>
        <p>
          <Link to="/database-admin">{t("admin.databaseAdmin")}</Link> · <Link to="/staff-desk">{t("admin.staffDesk")}</Link>
        </p>
        <RangeButtons range={range} />
        {metrics ? (
          <p className="text-sm text-muted">
            {t(metrics.unit === "hour" ? "an.sinceHours" : "an.since", { since: metrics.since.slice(0, 16).replace("T", " ") })}
          </p>
        ) : null}
      </section>
      {metrics ? (
        <>
          <section className="card" aria-labelledby="headline-title">
            <h2 id="headline-title">{t("an.headline")}</h2>
            <div className="grid grid-cols-[repeat(4,1fr)] gap-3 narrow:grid-cols-[1fr_1fr] [&>p]:col-span-full [&>p]:m-0">
              <div className="stat">
                <strong>{metrics.activeUsers}</strong>
                <span>{t("an.activeUsers")}</span>
              </div>
              <div className="stat">
                <strong>{metrics.meshConnections}</strong>
                <span>{t("an.meshConnections")}</span>
              </div>
              <div className="stat">
                <strong>{metrics.aiInteractions}</strong>
                <span>{t("an.aiInteractions")}</span>
              </div>
              <div className="stat">
                <strong>{metrics.networkHealth ?? "—"}</strong>
                <span>{t("an.networkHealth")}</span>
              </div>
            </div>
          </section>
          <section className="card" aria-labelledby="network-title">
            <h2 id="network-title">{t("an.network")}</h2>
            <MessagesChart days={metrics.messagesOverTime} unit={metrics.unit} />
            <ul aria-label={t("an.networkFigures")}>
              <li>{t("an.messages", { count: metrics.messageVolume })}</li>
              <li>{t("an.emergency", { count: metrics.emergencyAlerts })}</li>
              <li>{t("an.coverage", { count: metrics.coverage })}</li>
            </ul>
          </section>
          <section className="card" aria-labelledby="ai-title">
            <h2 id="ai-title">{t("an.ai")}</h2>
            {ai ? (
              <ul aria-label={t("an.aiUsage")}>
                <li>{t("an.translations", { count: ai.translations })}</li>
                <li>{t("an.market", { count: ai.marketAnalysis })}</li>
                <li>{t("an.guidance", { count: ai.emergencyDetection })}</li>
                <li>{t("an.weather", { count: ai.weather })}</li>
                <li>{t("an.questions", { count: ai.questions })}</li>
              </ul>
            ) : null}
          </section>
          <section className="card" aria-labelledby="people-title">
            <h2 id="people-title">{t("an.people")}</h2>
            <ul aria-label={t("an.peopleFigures")}>
              <li>{t("an.totalUsers", { count: metrics.totalUsers })}</li>
              <li>{t("an.signups", { count: metrics.signups })}</li>
              <li>{t("an.verifications", { count: metrics.verifications })}</li>
              <li>{t("an.checkouts", { count: metrics.checkouts })}</li>
            </ul>
            <details>
              <summary>{t("an.everyKind")}</summary>
              <div className="table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t("an.event")}</th>
                      <th scope="col">{t("an.count")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(metrics.byKind).map(([k, n]) => (
                      <tr key={k}>
                        <td>{kindLabel(k, t)}</td>
                        <td>{n}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </section>
          {metrics.trouble ? <Trouble trouble={metrics.trouble} /> : null}
        </>
      ) : (
        <section className="card">
          <p role="alert">{t("an.failed")}</p>
        </section>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useT();
  return (
    <AccessErrorPage
      error={error}
      title={t("home.teaser.analytics.title")}
      refusedTitle={t("admin.refused")}
      fallback={t("an.failedLoad")}
    />
  );
}
