// The session pass in the Worker (docs/decisions/065-the-session-off-d1.md, 079-a-pass-that-lasts-the-day.md): issued
// beside the session cookie after a session read, it answers who the person is for the hot reads (a page's visitor,
// its rooms, a socket upgrade) for up to PASS_TTL_MS without reading the session. Writes and every other read still
// read the session from D1. A page served by a pass checks in its one statement that the session still stands (a
// sign-out or ban elsewhere refuses it at once) and renews the pass; a socket upgrade, which cannot renew it, checks
// the revocation feed (workers/auth/pass-revocations.ts, within REVOCATION_FEED_MS).
import type { Context, MiddlewareHandler } from "hono";
import { getTableColumns } from "drizzle-orm";
import { checkPass, type Mac, PASS_MAX_CHARS, PASS_RENEW_AFTER_MS, PASS_TTL_MS, signPass } from "../../core/session-pass";
import type { DbEnv } from "../../db";
import { passRevoked } from "./pass-revocations";
import { type User, users } from "../../db/schema";

export const PASS_COOKIE = "linkup_pass";

/**
 * The reads a pass may answer: GETs whose answer is the visitor's own header, their rooms, their SOS screen,
 * the landing's public figures (the same for everyone, asked with the visitor's cookie) and socket upgrades. Everything else (the security centre, billing, my data, staff screens) reads the session from D1,
 * so what a stale pass can show is only what those show (docs/decisions/065).
 */
const PASS_PATHS = [
  /^\/api\/me$/,
  /^\/api\/rooms$/,
  /^\/api\/notifications\/unread-count$/,
  /^\/api\/emergency\/nearby$/,
  /^\/api\/contacts$/,
  /^\/api\/stats\/public$/,
  /^\/ws\/rooms\/[^/]+$/,
];

export function passMayServe(method: string, pathname: string): boolean {
  return (method === "GET" || method === "HEAD") && PASS_PATHS.some((p) => p.test(pathname));
}

// The users columns the row's JSON must carry, and which of them are dates: a pass issued before a column was added
// lacks it and is treated as stale.
const COLUMNS = Object.entries(getTableColumns(users));
const DATE_KEYS = new Set(COLUMNS.filter(([, c]) => c.columnType === "SQLiteTimestamp").map(([k]) => k));

function userOf(row: Record<string, unknown>): User | null {
  const out: Record<string, unknown> = {};
  for (const [key] of COLUMNS) {
    if (!(key in row)) return null;
    const value = row[key];
    out[key] = DATE_KEYS.has(key) && value !== null ? new Date(String(value)) : value;
  }
  return out as User;
}

/** What the answer does with the pass cookie: set a new one, clear it, or leave it. */
type PassOut = { value: string } | { clear: true };

/**
 * One per answer the browser gets: a page's in-process API calls share their page's (workers/in-process-api.ts),
 * so the pass the root loader's session read issues reaches the page's answer, and a page action's write makes
 * the loaders after it read the session afresh.
 */
interface PassLink {
  out?: PassOut;
  wrote: boolean;
  hadPass: boolean;
}

const links = new WeakMap<Request, PassLink>();
const ofContext = new WeakMap<object, { link: PassLink; top: boolean }>();

/** An in-process call of `page` shares the page's pass. */
export function sharePass(page: Request, call: Request): void {
  const link = links.get(page);
  if (link) links.set(call, link);
}

/** A page's in-process call that may write: the page's later calls read the session from D1 (its new state). */
export function pageMayWrite(page: Request): void {
  const link = links.get(page);
  if (!link) return;
  link.wrote = true;
  if (link.hadPass) link.out = { clear: true };
}

/** Registered once in workers/server.ts: hands the answer's pass decision to the browser as a cookie. */
export const handOutPasses: MiddlewareHandler = async (c, next) => {
  const shared = links.get(c.req.raw);
  const link = shared ?? { wrote: false, hadPass: (c.req.header("cookie") ?? "").includes(`${PASS_COOKIE}=`) };
  if (!shared) links.set(c.req.raw, link);
  ofContext.set(c, { link, top: !shared });
  await next();
  if (shared || !link.out) return;
  const secure = new URL(c.req.url).protocol === "https:" ? "; Secure" : "";
  const cookie =
    "value" in link.out
      ? `${PASS_COOKIE}=${link.out.value}; Path=/; Max-Age=${PASS_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`
      : `${PASS_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
  try {
    c.res.headers.append("set-cookie", cookie);
  } catch {
    // A socket's 101 has immutable headers: the next page load issues the pass.
  }
};

/** Registered after workers/body.ts: a buffered copy of the request (what the page handler sees) keeps its pass. */
export const followPassCopies: MiddlewareHandler = async (c, next) => {
  const entry = ofContext.get(c);
  if (entry && !links.has(c.req.raw)) links.set(c.req.raw, entry.link);
  await next();
};

function linkOf(c: Context): PassLink | null {
  return ofContext.get(c)?.link ?? null;
}

/** What a fresh pass this request may use answers, or null (read D1 instead). */
export interface Passed {
  user: User;
  unread: number;
  issuedAt: number;
}

/**
 * The session's user and unread badge from a fresh pass this request may use, or null (read D1 instead). On a socket
 * upgrade a pass the revocation feed names is refused here; a page checks the session in its own statement.
 */
export async function sessionFromPass(c: Context, sessionHash: string, mac: Mac): Promise<Passed | null> {
  const link = linkOf(c);
  if (!link || link.wrote) return null;
  const path = new URL(c.req.url).pathname;
  if (!passMayServe(c.req.method, path)) return null;
  const text = readCookieValue(c.req.header("cookie"), PASS_COOKIE);
  if (!text) return null;
  const checked = await checkPass(text, sessionHash, mac);
  if (!checked.ok) return null;
  const user = userOf(checked.pass.u);
  if (!user) return null;
  if (isSocketPath(path) && (await passRevoked(c.env as DbEnv, { sessionHash, userId: user.id, issuedAt: checked.pass.i }))) return null;
  return { user, unread: checked.pass.n, issuedAt: checked.pass.i };
}

export function isSocketPath(pathname: string): boolean {
  return pathname.startsWith("/ws/");
}

/**
 * After a session read from D1: a GET's answer carries a fresh pass; any other method clears the old one (it may
 * have changed what the pass holds), so the next hot read asks D1 once and gets the new state.
 */
export async function afterSessionRead(
  c: Context,
  read: { sessionHash: string; user: User; unread: number; sessionExpiresAt?: Date | null } | null,
  mac: Mac,
  now = Date.now(),
): Promise<void> {
  const link = linkOf(c);
  if (!link) return;
  const reads = c.req.method === "GET" || c.req.method === "HEAD";
  if (!read || !reads) {
    if (link.hadPass || link.out) link.out = { clear: true };
    return;
  }
  // A tier that lapses by the clock is re-read when it lapses (workers/billing refreshIfLapsed); a pass never
  // outlives its session.
  const lapse = read.user.tierExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const ends = read.sessionExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const e = Math.min(now + PASS_TTL_MS, lapse, ends);
  if (e <= now) return;
  const value = await signPass({ v: 2, s: read.sessionHash, i: now, e, n: read.unread, u: { ...read.user } }, mac);
  link.out = value.length <= PASS_MAX_CHARS ? { value } : link.hadPass ? { clear: true } : undefined;
}

/**
 * A page served by a pass whose one statement found the session standing and the row unchanged: a pass older than
 * PASS_RENEW_AFTER_MS is issued again, so the reconnects between this page and the next find it fresh.
 */
export async function renewPass(
  c: Context,
  passed: Passed,
  read: { sessionHash: string; unread: number; sessionExpiresAt: Date | null },
  mac: Mac,
  now = Date.now(),
): Promise<void> {
  if (now - passed.issuedAt < PASS_RENEW_AFTER_MS) return;
  await afterSessionRead(c, { ...read, user: passed.user }, mac, now);
}

/** The session ended or changed on this request (sign-out, panic, a new sign-in): the pass goes with it. */
export function dropPass(c: Context): void {
  const link = linkOf(c);
  if (!link) return;
  link.wrote = true;
  if (link.hadPass || link.out) link.out = { clear: true };
}

function readCookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=") || null;
  }
  return null;
}
