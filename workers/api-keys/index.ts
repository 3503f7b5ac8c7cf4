// API keys (docs/decisions/032-public-api-and-keys.md): a verified person creates and revokes keys; a call with
// `Authorization: Bearer <key>` acts as the key's owner on the public API only, counted per owner per server day
// over all their keys (docs/decisions/047-limits-taken-atomically.md).
import type { MiddlewareHandler } from "hono";
import {
  API_DAILY_CALLS,
  API_DEVICES,
  API_KEY_PREFIX,
  API_PLAN_NAMES,
  type ApiKeysAnswer,
  type ApiKeySummary,
  type CreatedApiKey,
  dailyLimitReached,
  deviceLimitReached,
} from "../../core/api-keys";
import { newId } from "../../core/ids";
import { serverDay } from "../../core/rewards";
import type { Db } from "../../db";
import {
  countActiveApiKeys,
  findActiveApiKey,
  insertApiKey,
  listActiveApiKeys,
  revokeApiKey as revokeRow,
  takeApiCall,
} from "../../db/queries/api-keys";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { refuseIfBanned } from "../admin/bans";
import { mac } from "../mac";
import { refreshIfLapsed } from "../billing";
import type { AppBindings, AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";

/** Keys are stored as an HMAC under SESSION_SECRET, apart from session tokens by their own label. */
const keyHash = (env: AppEnv, key: string) => mac(env, `api-key:${key}`);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listApiKeys(db: Db, user: User, now = new Date()): Promise<ApiKeysAnswer> {
  const tier = user.subscriptionTier;
  const rows = await listActiveApiKeys(db, user.id, serverDay(now));
  return {
    tier,
    plan: API_PLAN_NAMES[tier],
    dailyCalls: API_DAILY_CALLS[tier],
    devices: API_DEVICES[tier],
    canCreate: user.authMode === "verified",
    keys: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: iso(r.lastUsedAt),
      callsToday: Number(r.callsToday),
    })),
  };
}

/** Creates a key for a verified person within their plan's devices; the key is in this answer only. */
export async function createApiKey(env: AppEnv, db: Db, user: User, name: string): Promise<CreatedApiKey> {
  const devices = API_DEVICES[user.subscriptionTier];
  if (devices !== null && (await countActiveApiKeys(db, user.id)) >= devices) {
    throw new DomainError("device_limit", deviceLimitReached(user.subscriptionTier), {
      values: { plan: API_PLAN_NAMES[user.subscriptionTier], devices },
    });
  }
  const key = `${API_KEY_PREFIX}${newId(32)}`;
  const row = { id: newId(), userId: user.id, name, hint: key.slice(0, API_KEY_PREFIX.length + 4), keyHash: await keyHash(env, key) };
  await insertApiKey(db, row);
  const summary: ApiKeySummary = { id: row.id, name, hint: row.hint, createdAt: new Date().toISOString(), lastUsedAt: null, callsToday: 0 };
  return { ...summary, key };
}

export async function revokeApiKey(db: Db, user: User, id: string): Promise<void> {
  if (!(await revokeRow(db, user.id, id, new Date()))) throw new DomainError("api_key_not_found", "API key not found");
}

function secondsToNextDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Runs after loadSession. A request with a bearer key is the key's owner, whatever cookie it carries, and may
 * reach only the public API's key operations (core/public-api.ts); each call counts against the owner's plan.
 */
export const apiKeyCaller: MiddlewareHandler<AppBindings> = async (c, next) => {
  const header = c.req.header("authorization");
  if (header === undefined) return next();
  const key = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1];
  c.set("user", null);
  c.set("sessionHash", null);
  c.set("pendingSecondFactorUserId", null);
  if (!key?.startsWith(API_KEY_PREFIX) || key.length > 100) throw new DomainError("api_key_invalid", "Invalid API key");
  // The public API's table (with the schemas it documents) loads with the first keyed request, not with every
  // isolate (docs/decisions/082-a-worker-that-starts-small.md).
  const { keyOperation } = await import("../../core/public-api");
  if (!keyOperation(c.req.method, new URL(c.req.url).pathname))
    throw new DomainError("api_key_endpoint", "API keys cannot call this endpoint");
  const found = await findActiveApiKey(c.var.db, await keyHash(c.env, key));
  const owner = found ? await findUserById(c.var.db, found.userId) : undefined;
  if (!found || !owner) throw new DomainError("api_key_invalid", "Invalid API key");
  // A ban revokes the keys; this refuses one that escaped it (docs/decisions/049-abuse-bans-claims-and-names.md).
  refuseIfBanned(owner);
  const now = new Date();
  const user = await refreshIfLapsed(c.var.db, owner, now);
  const calls = await takeApiCall(c.var.db, found.id, serverDay(now), API_DAILY_CALLS[user.subscriptionTier], now);
  if (calls === null) {
    const retryAfterSeconds = secondsToNextDay(now);
    c.header("Retry-After", String(retryAfterSeconds));
    throw new DomainError("api_daily_limit", dailyLimitReached(user.subscriptionTier), {
      retryAfterSeconds,
      values: { plan: API_PLAN_NAMES[user.subscriptionTier], calls: API_DAILY_CALLS[user.subscriptionTier] ?? 0 },
    });
  }
  c.set("user", user);
  await next();
};
