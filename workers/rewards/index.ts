// Rewards (issue 18, docs/product/rewards.md): points for real actions recorded on the server, each action once, room
// messages capped per server day; the daily bonus once per server date with its streak; level and achievements.
import {
  ACHIEVEMENTS,
  dailyBonusPoints,
  levelOf,
  MESSAGE_POINTS,
  type LeaderboardAnswer,
  type LeaderboardQuery,
  type RewardsAnswer,
  serverDay,
  SOS_HELPED_PER_DAY,
  SOS_HELPED_POINTS,
  VERIFIED_POINTS,
} from "../../core/rewards";
import type { Db } from "../../db";
import { resolveArea } from "../../core/places";
import {
  bonusDays,
  countEventsOn,
  earnerStanding,
  pointTotals,
  recordPoints,
  rewardedAchievements,
  topEarners,
} from "../../db/queries/rewards";
import type { User } from "../../db/schema";
import { nameForOthers } from "../../core/names";
import { listUserRooms } from "../../db/queries/rooms";
import { findUserById, shareADevice } from "../../db/queries/users";
import { findBroadcast, noteSosAddress, sosResponsesOf } from "../../db/queries/emergency";
import { mac } from "../mac";
import { grantRewardDays, phoneClaimKey } from "../billing";
import { claimPremium } from "../../db/queries/claims";
import { achievementTitleKey } from "./localize";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";

const DAY_MS = 86_400_000;

/** Points for verifying a phone, once per person however often they verify. */
export async function awardVerified(db: Db, userId: string, now = new Date()): Promise<void> {
  await recordPoints(db, { userId, kind: "verified", ref: "phone", points: VERIFIED_POINTS, day: serverDay(now) });
}

/**
 * "SOS helped" points for the people who answered an SOS, once it is resolved, each SOS once, at most
 * SOS_HELPED_PER_DAY a day. Only between two verified people who are not the same person: an anonymous identity
 * costs nothing to make, so neither an anonymous sender nor an anonymous responder counts, and a responder who
 * shares the sender's phone, a browser they signed in from (user_devices) or the client address of the SOS and its
 * answer earns nothing (docs/decisions/033-rewards-that-grant-premium.md, 049-abuse-bans-claims-and-names.md).
 */
export async function awardSosHelped(db: Db, sosId: string, responderIds: string[], now = new Date()): Promise<string[]> {
  const day = serverDay(now);
  const sos = await findBroadcast(db, sosId);
  const sender = sos && (await findUserById(db, sos.userId));
  if (!sos || sender?.authMode !== "verified") return [];
  const answeredFrom = new Map((await sosResponsesOf(db, sosId)).map((r) => [r.userId, r.addressHash]));
  const awarded: string[] = [];
  for (const userId of responderIds) {
    const user = await findUserById(db, userId);
    if (user?.authMode !== "verified" || user.id === sender.id || user.phone === sender.phone) continue;
    const address = answeredFrom.get(userId);
    if (address && address === sos.addressHash) continue;
    if (await shareADevice(db, sender.id, user.id)) continue;
    if ((await countEventsOn(db, userId, "sos_helped", day)) >= SOS_HELPED_PER_DAY) continue;
    if (await recordPoints(db, { userId, kind: "sos_helped", ref: sosId, points: SOS_HELPED_POINTS, day })) awarded.push(userId);
  }
  return awarded;
}

/**
 * Notes where an SOS was sent from, or an answer came from (web requests; phone channels have no address), for
 * the rule above. An HMAC of the address, as the address limits keep it (workers/limits).
 */
export async function noteSosAddressOf(env: AppEnv, db: Db, at: { sosId: string; responderId?: string }, address: string | null) {
  if (!address) return;
  await noteSosAddress(db, at, await mac(env, `address:${address}`));
}

/** Consecutive bonus days ending on `day` (0 when `day` has none). */
function streakEnding(days: Set<string>, day: string): number {
  let n = 0;
  for (let t = Date.parse(`${day}T00:00:00Z`); days.has(serverDay(new Date(t))); t -= DAY_MS) n++;
  return n;
}

function yesterdayOf(day: string): string {
  return serverDay(new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS));
}

/** POST /api/rewards/daily: the day's bonus, once per server date; 409 when already claimed today. */
export async function claimDailyBonus(db: Db, userId: string, now = new Date()): Promise<{ points: number; streak: number }> {
  const today = serverDay(now);
  const days = new Set(await bonusDays(db, userId));
  const before = streakEnding(days, yesterdayOf(today));
  const points = dailyBonusPoints(before);
  const recorded = await recordPoints(db, { userId, kind: "daily_bonus", ref: today, points, day: today });
  if (!recorded) throw new DomainError("bonus_claimed", "Daily bonus already claimed today. Come back tomorrow!");
  return { points, streak: before + 1 };
}

/** GET /api/rewards: the person's points, level, streak, bonus and achievements' progress, all from the ledger. */
export async function rewardsFor(db: Db, userId: string, now = new Date()): Promise<RewardsAnswer> {
  const today = serverDay(now);
  const [totals, days, rooms, rewarded] = await Promise.all([
    pointTotals(db, userId),
    bonusDays(db, userId),
    listUserRooms(db, userId),
    rewardedAchievements(db, userId),
  ]);
  const by = (k: string) => totals.find((t) => t.kind === k);
  const totalPoints = totals.reduce((s, t) => s + Number(t.points), 0);
  const daySet = new Set(days);
  const claimedToday = daySet.has(today);
  const streak = streakEnding(daySet, claimedToday ? today : yesterdayOf(today));
  // A day's message points are one ledger row (docs/decisions/056-…), so messages are counted from the points.
  const messages = Math.round(Number(by("message")?.points ?? 0) / MESSAGE_POINTS);
  const helped = Number(by("sos_helped")?.count ?? 0);
  // Measured progress where LinkUp records the action; devices and invited friends are not counted yet.
  const progress: Record<string, number> = {
    "first-contact": rooms.length,
    "message-master": messages,
    "network-builder": 0,
    "emergency-hero": helped,
    "streak-warrior": streak,
    "community-champion": 0,
  };
  return {
    totalPoints,
    level: levelOf(totalPoints),
    streak,
    messagesConnected: messages,
    emergenciesHelped: helped,
    dailyBonus: {
      available: !claimedToday,
      points: dailyBonusPoints(streak),
      streak,
      nextBonus: claimedToday ? `${serverDay(new Date(Date.parse(`${today}T00:00:00Z`) + DAY_MS))}T00:00:00Z` : now.toISOString(),
    },
    achievements: ACHIEVEMENTS.map((a) => {
      const p = Math.min(a.maxProgress, progress[a.id] ?? 0);
      const reached = p >= a.maxProgress;
      const unlocked = rewarded.includes(a.id);
      return { ...a, progress: p, reached, unlocked, waiting: reached && !unlocked ? ("verify" as const) : null };
    }),
  };
}

/**
 * Grants the premium days of every achievement the person has unlocked and not yet been rewarded for, once each
 * (the ledger row `achievement:<id>` is unique) and once per phone number ever (premium_claims). Premium is for
 * verified people (docs/product/identity.md), so an anonymous person's rewards wait until they verify. Returns the achievements rewarded now.
 */
export async function settleAchievements(env: AppEnv, db: Db, user: User, now = new Date()): Promise<string[]> {
  if (user.authMode !== "verified" || !user.phone) return [];
  const { achievements } = await rewardsFor(db, user.id, now);
  const phoneKey = await phoneClaimKey(env, user.phone);
  const rewarded: string[] = [];
  for (const a of achievements.filter((x) => x.reached && !x.unlocked)) {
    // The row is the once-only guard and carries the achievement's points (it once carried 0, so an achievement
    // showed "100 points" that the total never held); the days are granted only by the request that wrote it.
    const first = await recordPoints(db, { userId: user.id, kind: "achievement", ref: a.id, points: a.points, day: serverDay(now) });
    if (!first) continue;
    // Once per phone ever, not per account: deleting the account and joining again earns no reward twice
    // (docs/decisions/049-abuse-bans-claims-and-names.md). The ledger row stays, so it is not tried again.
    if (!(await claimPremium(db, phoneKey, `achievement:${a.id}`))) continue;
    await grantRewardDays(
      env,
      db,
      user.id,
      { days: a.rewardDays, reason: `${a.title} achievement`, achievement: achievementTitleKey(a.id) },
      now,
    );
    rewarded.push(a.id);
  }
  return rewarded;
}

/** Monday (UTC) of the week `now` falls in: the week's board counts from it. */
function weekStart(now: Date): string {
  const d = new Date(Date.parse(`${serverDay(now)}T00:00:00Z`));
  return serverDay(new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS));
}

/**
 * GET /api/leaderboard: the week's or all-time leaders, nationwide or in the viewer's area, by nickname only;
 * people in anonymous mode appear under their anonymous name (core/names.ts `nameForOthers`).
 */
export async function leaderboard(db: Db, viewer: User | null, q: LeaderboardQuery, now = new Date()): Promise<LeaderboardAnswer> {
  const area = q.scope === "area" && viewer ? resolveArea(viewer) : null;
  if (q.scope === "area" && !area) return { ...q, areaName: null, leaders: [] };
  const board = { sinceDay: q.period === "week" ? weekStart(now) : undefined, geohash: area?.geohash };
  const rows = await topEarners(db, { ...board, limit: 20 });
  const leaders = rows.map((r, i) => ({
    rank: i + 1,
    name: nameForOthers(r),
    points: Number(r.points),
    you: r.id === viewer?.id,
  }));
  // Below the top 20, the viewer still sees where they stand, as the last line.
  if (viewer && !leaders.some((l) => l.you)) {
    const standing = await earnerStanding(db, viewer.id, board);
    if (standing) leaders.push({ ...standing, name: nameForOthers(viewer), you: true });
  }
  return { ...q, areaName: area?.name ?? null, leaders };
}
