// /leaderboard: the week's and all-time leaders, nationwide or in your area, by nickname only (anonymous mode
// shows the anonymous name). Live from the rewards ledger (GET /api/leaderboard).
import { Link } from "react-router";
import { type LeaderboardAnswer, LeaderboardQuerySchema } from "../../../core/rewards";
import { metaTitle, useT } from "../i18n";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/leaderboard";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "lb.metaTitle", "Leaderboard — LinkUp") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const parsed = LeaderboardQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const q = parsed.success ? parsed.data : LeaderboardQuerySchema.parse({});
  return (await apiGet<LeaderboardAnswer>(context, `/api/leaderboard?period=${q.period}&scope=${q.scope}`)) as LeaderboardAnswer;
}

const PERIODS = [
  ["week", "lb.week"],
  ["all", "lb.all"],
] as const;
const SCOPES = [
  ["nation", "lb.nation"],
  ["area", "lb.area"],
] as const;

export default function Leaderboard({ loaderData }: Route.ComponentProps) {
  const board = loaderData;
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("lb.title")}</h1>
        <p>{t("lb.intro")}</p>
      </section>
      <nav aria-label={t("lb.period")} className="flex flex-wrap items-center gap-2">
        {PERIODS.map(([p, label]) => (
          <Link
            key={p}
            to={`?period=${p}&scope=${board.scope}`}
            className={`btn ${p === board.period ? "btn-primary" : "btn-ghost"}`}
            aria-current={p === board.period ? "page" : undefined}
          >
            {t(label)}
          </Link>
        ))}
      </nav>
      <nav aria-label={t("lb.where")} className="flex flex-wrap items-center gap-2">
        {SCOPES.map(([s, label]) => (
          <Link
            key={s}
            to={`?period=${board.period}&scope=${s}`}
            className={`btn ${s === board.scope ? "btn-primary" : "btn-ghost"}`}
            aria-current={s === board.scope ? "page" : undefined}
          >
            {t(label)}
          </Link>
        ))}
      </nav>
      <section className="card" aria-labelledby="board-title">
        <h2 id="board-title">{board.scope === "area" ? (board.areaName ?? t("lb.area")) : t("lb.nigeria")}</h2>
        {board.scope === "area" && !board.areaName ? (
          <p>
            {t("lb.setTownBefore")} <Link to="/settings">{t("lb.settings")}</Link> {t("lb.setTownAfter")}
          </p>
        ) : board.leaders.length === 0 ? (
          <p>{board.period === "week" ? t("lb.emptyWeek") : t("lb.emptyAll")}</p>
        ) : (
          <ol className="m-0 grid list-none gap-[0.35rem] p-0" aria-label={t("lb.leaders")}>
            {board.leaders.map((l) => (
              <li key={`${l.rank}-${l.name}`} className="flex flex-wrap items-center gap-2">
                <strong>#{l.rank}</strong> {l.name}
                {l.you ? t("lb.you") : ""} <span className="text-muted">{t("lb.points", { count: l.points })}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <Link to="/gamification">{t("lb.rewards")}</Link>
    </div>
  );
}
