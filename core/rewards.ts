// Rewards (docs/product/rewards.md): levels, the daily bonus and the achievements' goals.
// Points are recorded on the server only (workers/rewards); these are the rules both sides show.
import { z } from "zod";

/** Level = floor(points / 1000) + 1 (docs/product/rewards.md). */
export const levelOf = (points: number) => Math.floor(points / 1000) + 1;

/** Daily bonus: 50 points plus 10 per day of the streak it continues (docs/product/rewards.md). */
export const dailyBonusPoints = (streakBefore: number) => 50 + 10 * streakBefore;

/** Points per message sent in a room, and the most messages a day that earn them (against farming). */
export const MESSAGE_POINTS = 5;
export const MESSAGE_POINTS_PER_DAY = 20;
export const VERIFIED_POINTS = 200;
export const SOS_HELPED_POINTS = 100;
/** At most this many SOS a day earn a responder points (against pairs farming with staged alerts). */
export const SOS_HELPED_PER_DAY = 3;

export type AchievementTier = "bronze" | "silver" | "gold" | "diamond";
export interface AchievementDef {
  id: string;
  title: string;
  description: string;
  points: number;
  maxProgress: number;
  reward: string;
  /** The reward in days of Premium, granted once through billing when the achievement is unlocked. */
  rewardDays: number;
  tier: AchievementTier;
}

export const ACHIEVEMENTS: AchievementDef[] = [
  {
    id: "first-contact",
    title: "First Contact",
    description: "Join your first room",
    points: 100,
    maxProgress: 1,
    reward: "2 days premium trial",
    rewardDays: 2,
    tier: "bronze",
  },
  {
    id: "message-master",
    title: "Message Master",
    description: "Send 100 messages",
    points: 500,
    maxProgress: 100,
    reward: "1 week trial",
    rewardDays: 7,
    tier: "silver",
  },
  {
    id: "network-builder",
    title: "Network Builder",
    description: "Connect 10 devices",
    points: 1000,
    maxProgress: 10,
    reward: "2 weeks premium",
    rewardDays: 14,
    tier: "gold",
  },
  {
    id: "emergency-hero",
    title: "Emergency Hero",
    description: "Help in 5 emergencies",
    points: 2000,
    maxProgress: 5,
    reward: "1 month",
    rewardDays: 30,
    tier: "diamond",
  },
  {
    id: "streak-warrior",
    title: "Streak Warrior",
    description: "Claim the daily bonus 30 days in a row",
    points: 1500,
    maxProgress: 30,
    reward: "3 weeks",
    rewardDays: 21,
    tier: "gold",
  },
  {
    id: "community-champion",
    title: "Community Champion",
    description: "Invite 5 friends",
    points: 3000,
    maxProgress: 5,
    reward: "2 months",
    rewardDays: 60,
    tier: "diamond",
  },
];

export const TIER_REWARDS: Record<AchievementTier, string> = {
  bronze: "2–7 days",
  silver: "1–2 weeks",
  gold: "2–4 weeks",
  diamond: "1–3 months",
};

export interface RewardsAnswer {
  totalPoints: number;
  level: number;
  streak: number;
  messagesConnected: number;
  emergenciesHelped: number;
  dailyBonus: { available: boolean; points: number; streak: number; nextBonus: string };
  /**
   * `reached`: the goal is met. `unlocked`: its reward was given (the ledger holds it), the only state shown as
   * achieved (issue 32). `waiting`: met but not rewarded, and why ("verify": rewards are for verified people).
   */
  achievements: (AchievementDef & { progress: number; reached: boolean; unlocked: boolean; waiting: "verify" | null })[];
}

/** The server date (UTC) an action counts for. */
export const serverDay = (at: Date) => at.toISOString().slice(0, 10);

export const LeaderboardQuerySchema = z.object({
  period: z.enum(["week", "all"]).default("week"),
  scope: z.enum(["area", "nation"]).default("nation"),
});
export type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

export interface LeaderboardAnswer extends LeaderboardQuery {
  /** The viewer's area name when scope is area; null when the viewer has no area. */
  areaName: string | null;
  leaders: { rank: number; name: string; points: number; you: boolean }[];
}
