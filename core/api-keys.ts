// API keys for the public API (docs/product/plans-and-limits.md, the public API): calls per person per day (over
// all their keys) and keys ("devices") per person, by tier. See docs/decisions/032-public-api-and-keys.md.
import { z } from "zod";
import type { Tier } from "./constants";

/** Calls one key may make per server day (UTC); null is unlimited. */
export const API_DAILY_CALLS: Record<Tier, number | null> = { free: 1000, premium: 50000, enterprise: null };

/** Active keys one person may hold (the rate-limit table's "devices"); null is unlimited. */
export const API_DEVICES: Record<Tier, number | null> = { free: 5, premium: null, enterprise: null };

export const API_PLAN_NAMES: Record<Tier, string> = { free: "Community", premium: "Premium", enterprise: "Enterprise" };

/** Every key starts with this, so a leaked one is recognisable (docs/product/plans-and-limits.md). */
export const API_KEY_PREFIX = "linkup_";

export const CreateApiKeySchema = z.object({ name: z.string().trim().min(1, "Give the key a name").max(40) });

export const ApiKeyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, "not an API key id");

export interface ApiKeySummary {
  id: string;
  name: string;
  /** The first characters of the key, enough to tell keys apart; the key itself is shown only once. */
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  callsToday: number;
}

export interface ApiKeysAnswer {
  tier: Tier;
  plan: string;
  dailyCalls: number | null;
  devices: number | null;
  /** Only a verified person may create keys. */
  canCreate: boolean;
  keys: ApiKeySummary[];
}

export interface CreatedApiKey extends ApiKeySummary {
  /** The whole key: returned once, at creation, and never stored. */
  key: string;
}

const fmt = (n: number) => n.toLocaleString("en-US");

export function dailyLimitReached(tier: Tier): string {
  const calls = API_DAILY_CALLS[tier];
  const upgrade = tier === "free" ? ` Upgrade to Premium for ${fmt(API_DAILY_CALLS.premium ?? 0)} calls/day.` : "";
  return `Daily API limit reached: ${API_PLAN_NAMES[tier]} allows ${fmt(calls ?? 0)} calls/day.${upgrade}`;
}

export function deviceLimitReached(tier: Tier): string {
  return `${API_PLAN_NAMES[tier]} allows up to ${API_DEVICES[tier]} devices. Revoke a key or upgrade to Premium for unlimited devices.`;
}

/** The /api-docs page's forms: create a key, or revoke one. */
export const ApiKeyFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), name: CreateApiKeySchema.shape.name }),
  z.object({ intent: z.literal("revoke"), id: ApiKeyIdSchema }),
]);
