// Limits per client address (issue 11): how many anonymous sessions one address may start in an hour, and how
// many AI commands anonymous visitors from one address may use in a day, so starting a new anonymous session
// resets neither. Counted in D1 (address_counters) with fixed windows, keyed by an HMAC of the address; see
// docs/decisions/012-limits-per-client-address.md for why not Cloudflare's rate-limiting binding.
import type { Context } from "hono";
import { VERIFICATION } from "../../core/identity";
import type { Db } from "../../db";
import { giveBackCount, takeCount } from "../../db/queries/address-counters";
import { mac } from "../mac";
import type { AppBindings, AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** Each limit: its window and default, and the var that overrides it (wrangler.toml [vars]). */
export const ADDRESS_LIMITS = {
  anonSession: { windowMs: HOUR_MS, defaultLimit: 60, variable: "ANON_SESSIONS_PER_ADDRESS_PER_HOUR" },
  anonAi: { windowMs: DAY_MS, defaultLimit: 30, variable: "ANON_AI_PER_ADDRESS_PER_DAY" },
  // Counted per person (the "address" is `person:<user id>`): each checkout calls the payment provider.
  checkout: { windowMs: HOUR_MS, defaultLimit: 10, variable: "CHECKOUTS_PER_PERSON_PER_HOUR" },
  // Per person too: reports to the staff desk (docs/decisions/038-reports-and-device-bans.md).
  reports: { windowMs: DAY_MS, defaultLimit: 10, variable: "REPORTS_PER_PERSON_PER_DAY" },
  // Reports by people without a verified phone, per address: new anonymous identities share it
  // (docs/decisions/047-limits-taken-atomically.md).
  anonReports: { windowMs: DAY_MS, defaultLimit: 10, variable: "ANON_REPORTS_PER_ADDRESS_PER_DAY" },
  // SOS per person, per address for senders without a verified phone, and the harder budget of an SOS to an area
  // far from where the sender was known to be: counted from the broadcasts themselves in the insert
  // (workers/sos/limits.ts, docs/decisions/047-limits-taken-atomically.md), not address_counters.
  sos: { windowMs: HOUR_MS, defaultLimit: 10, variable: "SOS_PER_PERSON_PER_HOUR" },
  anonSos: { windowMs: HOUR_MS, defaultLimit: 10, variable: "ANON_SOS_PER_ADDRESS_PER_HOUR" },
  farSos: { windowMs: HOUR_MS, defaultLimit: 2, variable: "FAR_SOS_PER_PERSON_PER_HOUR" },
  // Counted from the verifications table itself (workers/identity/verification.ts), not address_counters.
  verificationCodes: {
    windowMs: HOUR_MS,
    defaultLimit: VERIFICATION.maxCodesPerIpPerHour,
    variable: "VERIFICATION_CODES_PER_ADDRESS_PER_HOUR",
  },
} as const;

export type AddressLimit = keyof typeof ADDRESS_LIMITS;

export function addressLimit(env: AppEnv, kind: AddressLimit): number {
  const { variable, defaultLimit } = ADDRESS_LIMITS[kind];
  const raw: string | undefined = env[variable];
  const n = raw && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) ? n : defaultLimit;
}

/**
 * The caller's address. Cloudflare sets CF-Connecting-IP on every request it forwards; without it (only a
 * local run) development applies no address limit, and anywhere else all such callers share one budget.
 */
export function clientAddress(env: AppEnv, header: string | null | undefined): string | null {
  const ip = header?.trim();
  if (ip) return ip;
  return env.ENVIRONMENT === "development" ? null : "unknown";
}

/** The address as the database keeps it: an HMAC under SESSION_SECRET, never the address itself. */
export function hashedAddress(env: AppEnv, address: string): Promise<string> {
  return mac(env, `address:${address}`);
}

async function counterKey(env: AppEnv, kind: AddressLimit, address: string, now: Date) {
  const { windowMs } = ADDRESS_LIMITS[kind];
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return {
    key: `${kind}:${await hashedAddress(env, address)}`,
    window: new Date(start).toISOString(),
    expiresAt: new Date(start + windowMs),
  };
}

export type AddressTake = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Counts one use for the address if it is still under its limit in this window (one atomic upsert). */
export async function takeAddressToken(
  env: AppEnv,
  db: Db,
  kind: AddressLimit,
  address: string | null,
  now = new Date(),
): Promise<AddressTake> {
  if (!address) return { ok: true };
  const limit = addressLimit(env, kind);
  const { key, window, expiresAt } = await counterKey(env, kind, address, now);
  const refused = { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000)) } as const;
  if (limit <= 0) return refused;
  return (await takeCount(db, { key, window, expiresAt }, limit, now)) ? { ok: true } : refused;
}

/** Gives one use back (the per-person limit refused the request after the address counted it). */
export async function giveBackAddressToken(env: AppEnv, db: Db, kind: AddressLimit, address: string | null, now = new Date()) {
  if (!address) return;
  const { key, window } = await counterKey(env, kind, address, now);
  await giveBackCount(db, key, window);
}

export const ANON_AI_BUDGET_SPENT =
  "Anonymous visitors from your network have used today's free AI commands. Verify your phone number to get your own daily AI commands, or upgrade to Premium for unlimited AI commands.";

export const TOO_MANY_SESSIONS = "Too many new sessions were started from your network. Please try again later.";

/** Guard before creating an anonymous user: 429 with Retry-After once the caller's address used its hour. */
export async function requireAnonymousStartAllowed(c: Context<AppBindings>): Promise<void> {
  const taken = await takeAddressToken(c.env, c.var.db, "anonSession", clientAddress(c.env, c.req.header("cf-connecting-ip")));
  if (taken.ok) return;
  c.header("Retry-After", String(taken.retryAfterSeconds));
  throw new DomainError("too_many_sessions", TOO_MANY_SESSIONS, { retryAfterSeconds: taken.retryAfterSeconds });
}

export const TOO_MANY_CHECKOUTS = "Too many payment attempts. Please try again later.";

/** Guard before a payment session: 429 with Retry-After once the person started their hour's checkouts. */
export async function requireCheckoutAllowed(c: Context<AppBindings>, userId: string): Promise<void> {
  const taken = await takeAddressToken(c.env, c.var.db, "checkout", `person:${userId}`);
  if (taken.ok) return;
  c.header("Retry-After", String(taken.retryAfterSeconds));
  throw new DomainError("too_many_checkouts", TOO_MANY_CHECKOUTS, { retryAfterSeconds: taken.retryAfterSeconds });
}
