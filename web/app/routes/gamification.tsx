// /gamification (spec part 2 #21): level, points, streak, the daily bonus and the six achievements, all from the
// server's rewards ledger (workers/rewards); nothing is kept in the browser.
import { Form, Link } from "react-router";
import { TIER_REWARDS } from "../../../core/rewards";
import { claimBonus, loadRewards } from "../features/rewards/rewards.server";
import type { Route } from "./+types/gamification";

export const meta: Route.MetaFunction = () => [{ title: "Rewards — LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadRewards(context);
}

export async function action({ context }: Route.ActionArgs) {
  return claimBonus(context);
}

export default function Gamification({ loaderData, actionData }: Route.ComponentProps) {
  const { rewards } = loaderData;
  const result = actionData as { error: string | null; claimed: { points: number; streak: number } | null } | undefined;
  if (!rewards)
    return (
      <section className="card center">
        <h1>Rewards</h1>
        <p>Earn points for chatting in rooms, verifying your phone and helping in emergencies, and a bonus every day.</p>
        <Link to="/signup" className="btn btn-primary">
          Start chatting to earn points
        </Link>
      </section>
    );
  const toNext = 1000 - (rewards.totalPoints % 1000);
  return (
    <div className="stack">
      <section className="card" aria-labelledby="level-title">
        <h1 id="level-title">Level {rewards.level}</h1>
        <p>
          <strong>{rewards.totalPoints.toLocaleString("en-NG")}</strong> points · {toNext.toLocaleString("en-NG")} to level{" "}
          {rewards.level + 1}
        </p>
        <progress max={1000} value={1000 - toNext} aria-label="Progress to the next level" />
        <p className="small">
          Streak: {rewards.streak} {rewards.streak === 1 ? "day" : "days"} · Messages: {rewards.messagesConnected} · Emergencies helped:{" "}
          {rewards.emergenciesHelped}
        </p>
      </section>
      <section className="card" aria-labelledby="bonus-title">
        <h2 id="bonus-title">Daily bonus</h2>
        {result?.claimed ? (
          <p role="status">
            +{result.claimed.points} points! Streak: {result.claimed.streak} {result.claimed.streak === 1 ? "day" : "days"}.
          </p>
        ) : null}
        {result?.error ? (
          <p role="alert" className="error">
            {result.error}
          </p>
        ) : null}
        {rewards.dailyBonus.available ? (
          <Form method="post">
            <button type="submit" className="btn btn-primary">
              Claim {rewards.dailyBonus.points} points
            </button>
          </Form>
        ) : (
          <p>Claimed today. The next bonus opens at midnight (UTC).</p>
        )}
      </section>
      <section aria-labelledby="ach-title">
        <h2 id="ach-title">Achievements</h2>
        <ul className="grid3 list-plain" aria-label="Achievements">
          {rewards.achievements.map((a) => (
            <li key={a.id} className="card tile">
              <strong>
                {a.title} {a.unlocked ? "✓" : ""}
              </strong>
              <span className="small">{a.description}</span>
              <progress max={a.maxProgress} value={a.progress} aria-label={`${a.title} progress`} />
              <span className="small">
                {a.progress}/{a.maxProgress} · {a.points} points · {a.tier} · reward: {a.reward}
              </span>
            </li>
          ))}
        </ul>
        <p className="small muted">Devices connected and friends invited are not counted yet, so those two achievements wait.</p>
      </section>
      <section className="card" aria-labelledby="tiers-title">
        <h2 id="tiers-title">Reward tiers</h2>
        <ul className="list-plain">
          {Object.entries(TIER_REWARDS).map(([tier, range]) => (
            <li key={tier}>
              {tier[0].toUpperCase() + tier.slice(1)}: {range} of Premium
            </li>
          ))}
        </ul>
      </section>
      <div className="row">
        <Link to="/chat" className="btn btn-primary">
          Chat to earn points
        </Link>
        <Link to="/leaderboard" className="btn btn-ghost">
          Leaderboard
        </Link>
        <Link to="/community" className="btn btn-ghost">
          Community
        </Link>
      </div>
    </div>
  );
}
