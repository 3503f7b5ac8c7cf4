// Rewards (issue 18, spec part 2 #21): points for real actions recorded on the server, each action once, room
// messages capped per server day; the daily bonus once per server date with its streak; level and achievements.
import {
  ACHIEVEMENTS,
  dailyBonusPoints,
  levelOf,
  MESSAGE_POINTS,
  MESSAGE_POINTS_PER_DAY,
  type RewardsAnswer,
  serverDay,
  VERIFIED_POINTS,
} from "../../core/rewards";
import type { Db } from "../../db";
import { bonusDays, countEventsOn, pointTotals, recordPoints } from "../../db/queries/rewards";
import { listUserRooms } from "../../db/queries/rooms";
import { ApiError } from "../errors";

const DAY_MS = 86_400_000;

/** Points for messages sent in rooms (called when the room writes them to D1): each once, at most 20 a day. */
export async function awardMessagePoints(db: Db, rows: { id: string; senderId: string; sentAt?: Date }[]): Promise<void> {
  for (const row of rows) {
    const day = serverDay(row.sentAt ?? new Date());
    if ((await countEventsOn(db, row.senderId, "message", day)) >= MESSAGE_POINTS_PER_DAY) continue;
    await recordPoints(db, { userId: row.senderId, kind: "message", ref: row.id, points: MESSAGE_POINTS, day });
  }
}

/** Points for verifying a phone, once per person however often they verify. */
export async function awardVerified(db: Db, userId: string, now = new Date()): Promise<void> {
  await recordPoints(db, { userId, kind: "verified", ref: "phone", points: VERIFIED_POINTS, day: serverDay(now) });
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
  if (!recorded) throw new ApiError(409, "Daily bonus already claimed today. Come back tomorrow!");
  return { points, streak: before + 1 };
}

/** GET /api/rewards: the person's points, level, streak, bonus and achievements' progress, all from the ledger. */
export async function rewardsFor(db: Db, userId: string, now = new Date()): Promise<RewardsAnswer> {
  const today = serverDay(now);
  const [totals, days, rooms] = await Promise.all([pointTotals(db, userId), bonusDays(db, userId), listUserRooms(db, userId)]);
  const by = (k: string) => totals.find((t) => t.kind === k);
  const totalPoints = totals.reduce((s, t) => s + Number(t.points), 0);
  const daySet = new Set(days);
  const claimedToday = daySet.has(today);
  const streak = streakEnding(daySet, claimedToday ? today : yesterdayOf(today));
  const messages = Number(by("message")?.count ?? 0);
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
      return { ...a, progress: p, unlocked: p >= a.maxProgress };
    }),
  };
}
