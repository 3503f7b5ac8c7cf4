// /leaderboard: the week's and all-time leaders, nationwide or in your area, by nickname only (anonymous mode
// shows the anonymous name). Live from the rewards ledger (GET /api/leaderboard).
import { Link } from "react-router";
import { type LeaderboardAnswer, LeaderboardQuerySchema } from "../../../core/rewards";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/leaderboard";

export const meta: Route.MetaFunction = () => [{ title: "Leaderboard — LinkUp" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const parsed = LeaderboardQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const q = parsed.success ? parsed.data : LeaderboardQuerySchema.parse({});
  return (await apiGet<LeaderboardAnswer>(context, `/api/leaderboard?period=${q.period}&scope=${q.scope}`)) as LeaderboardAnswer;
}

const PERIODS = [
  ["week", "This week"],
  ["all", "All time"],
] as const;
const SCOPES = [
  ["nation", "Nationwide"],
  ["area", "Your area"],
] as const;

export default function Leaderboard({ loaderData }: Route.ComponentProps) {
  const board = loaderData;
  return (
    <div className="stack">
      <section className="hero">
        <h1>Leaderboard</h1>
        <p>Points from chatting, verifying and helping. Names are nicknames only; people in anonymous mode stay anonymous.</p>
      </section>
      <nav aria-label="Period" className="row">
        {PERIODS.map(([p, label]) => (
          <Link
            key={p}
            to={`?period=${p}&scope=${board.scope}`}
            className={`btn ${p === board.period ? "btn-primary" : "btn-ghost"}`}
            aria-current={p === board.period ? "page" : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      <nav aria-label="Where" className="row">
        {SCOPES.map(([s, label]) => (
          <Link
            key={s}
            to={`?period=${board.period}&scope=${s}`}
            className={`btn ${s === board.scope ? "btn-primary" : "btn-ghost"}`}
            aria-current={s === board.scope ? "page" : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      <section className="card" aria-labelledby="board-title">
        <h2 id="board-title">{board.scope === "area" ? (board.areaName ?? "Your area") : "Nigeria"}</h2>
        {board.scope === "area" && !board.areaName ? (
          <p>
            Set your town in <Link to="/settings">Settings</Link> or share your location in the chat to see your area's leaders.
          </p>
        ) : board.leaders.length === 0 ? (
          <p>No points yet {board.period === "week" ? "this week" : ""}. Chat in a room to be first.</p>
        ) : (
          <ol className="list-plain" aria-label="Leaders">
            {board.leaders.map((l) => (
              <li key={`${l.rank}-${l.name}`} className="row">
                <strong>#{l.rank}</strong> {l.name}
                {l.you ? " (you)" : ""} <span className="muted">{l.points.toLocaleString("en-NG")} points</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <Link to="/gamification">Your rewards</Link>
    </div>
  );
}
