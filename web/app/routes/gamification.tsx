// /gamification (docs/product/rewards.md): level, points, streak, the daily bonus and the six achievements, all from the
// server's rewards ledger (workers/rewards); nothing is kept in the browser.
import { Form, Link } from "react-router";
import type { MessageKey } from "../../../core/i18n/en";
import { type AchievementTier, TIER_REWARDS } from "../../../core/rewards";
import { claimBonus, loadRewards } from "../features/rewards/rewards.server";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/gamification";

const TIER: Record<AchievementTier, MessageKey> = {
  bronze: "ach.tier.bronze",
  silver: "ach.tier.silver",
  gold: "ach.tier.gold",
  diamond: "ach.tier.diamond",
};

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "rw.metaTitle", "Rewards — LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadRewards(context);
}

export async function action({ context }: Route.ActionArgs) {
  return claimBonus(context);
}

export default function Gamification({ loaderData, actionData }: Route.ComponentProps) {
  const { rewards } = loaderData;
  const t = useT();
  const result = actionData as { error: string | null; claimed: { points: number; streak: number } | null } | undefined;
  if (!rewards)
    return (
      <section className="card grid justify-items-center gap-3 text-center">
        <h1>{t("rw.title")}</h1>
        <p>{t("rw.intro")}</p>
        <Link to="/signup" className="btn btn-primary">
          {t("rw.start")}
        </Link>
      </section>
    );
  const toNext = 1000 - (rewards.totalPoints % 1000);
  return (
    <div className="grid gap-[0.6rem]">
      <section className="card" aria-labelledby="level-title">
        <h1 id="level-title">{t("rw.level", { level: rewards.level })}</h1>
        <p>
          {t("rw.pointsToNext", {
            points: new Intl.NumberFormat(t.tag).format(rewards.totalPoints),
            left: new Intl.NumberFormat(t.tag).format(toNext),
            next: rewards.level + 1,
          })}
        </p>
        <progress max={1000} value={1000 - toNext} aria-label={t("rw.progress")} />
        <p className="text-sm">
          {t("rw.stats", {
            days: t("rw.days", { count: rewards.streak }),
            messages: rewards.messagesConnected,
            helped: rewards.emergenciesHelped,
          })}
        </p>
      </section>
      <section className="card" aria-labelledby="bonus-title">
        <h2 id="bonus-title">{t("rw.bonus")}</h2>
        {result?.claimed ? (
          <p role="status">{t("rw.claimed", { points: result.claimed.points, days: t("rw.days", { count: result.claimed.streak }) })}</p>
        ) : null}
        {result?.error ? (
          <p role="alert" className="text-danger">
            {t.error(result.error)}
          </p>
        ) : null}
        {rewards.dailyBonus.available ? (
          <Form method="post">
            <button type="submit" className="btn btn-primary">
              {t("rw.claim", { points: rewards.dailyBonus.points })}
            </button>
          </Form>
        ) : (
          <p>{t("rw.claimedToday")}</p>
        )}
      </section>
      <section aria-labelledby="ach-title">
        <h2 id="ach-title">{t("rw.achievements")}</h2>
        <ul
          className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3 m-0 list-none gap-[0.35rem] p-0"
          aria-label={t("rw.achievements")}
        >
          {rewards.achievements.map((a) => (
            <li key={a.id} className="card grid gap-1">
              <strong>
                {a.title}{" "}
                {a.unlocked ? (
                  <span role="img" aria-label={t("rw.achDone")}>
                    ✓
                  </span>
                ) : null}
              </strong>
              <span className="text-sm">{a.description}</span>
              <progress max={a.maxProgress} value={a.progress} aria-label={t("rw.achProgress", { title: a.title })} />
              <span className="text-sm">
                {t("rw.achLine", { progress: a.progress, max: a.maxProgress, points: a.points, tier: t(TIER[a.tier]), reward: a.reward })}
              </span>
              {/* Reached but not rewarded (issue 32): said plainly, never shown as achieved. */}
              {a.waiting === "verify" ? (
                <Link to="/signup-verification" className="text-sm">
                  {t("rw.achWaitVerify")}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted">{t("rw.notCounted")}</p>
      </section>
      <section className="card" aria-labelledby="tiers-title">
        <h2 id="tiers-title">{t("rw.tiers")}</h2>
        <ul className="m-0 grid list-none gap-[0.35rem] p-0">
          {Object.entries(TIER_REWARDS).map(([tier, range]) => (
            <li key={tier}>{t("rw.tierLine", { tier: tier[0].toUpperCase() + tier.slice(1), range })}</li>
          ))}
        </ul>
      </section>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/chat" className="btn btn-primary">
          {t("rw.chat")}
        </Link>
        <Link to="/leaderboard" className="btn btn-ghost">
          {t("rw.leaderboard")}
        </Link>
        <Link to="/community" className="btn btn-ghost">
          {t("rw.community")}
        </Link>
      </div>
    </div>
  );
}
