// The session pass in the Worker (docs/decisions/065-the-session-off-d1.md): issued beside the session cookie after a
// session read, it answers the session for the hot reads (a page's visitor, its rooms, a socket upgrade) for
// PASS_TTL_MS without a D1 query. Writes and every other read still read the session from D1, so a sign-out, a
// ban or a tier change refuses any write at once and reaches another device's hot reads within the pass's life.
import type { Context, MiddlewareHandler } from "hono";
import { getTableColumns } from "drizzle-orm";
import { checkPass, type Mac, PASS_MAX_CHARS, PASS_TTL_MS, signPass } from "../../core/session-pass";
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

/** The session's user and unread badge from a fresh pass this request may use, or null (read D1 instead). */
export async function sessionFromPass(c: Context, sessionHash: string, mac: Mac): Promise<{ user: User; unread: number } | null> {
  const link = linkOf(c);
  if (!link || link.wrote) return null;
  if (!passMayServe(c.req.method, new URL(c.req.url).pathname)) return null;
  const text = readCookieValue(c.req.header("cookie"), PASS_COOKIE);
  if (!text) return null;
  const checked = await checkPass(text, sessionHash, mac);
  if (!checked.ok) return null;
  const user = userOf(checked.pass.u);
  return user ? { user, unread: checked.pass.n } : null;
}

/**
 * After a session read from D1: a GET's answer carries a fresh pass; any other method clears the old one (it may
 * have changed what the pass holds), so the next hot read asks D1 once and gets the new state.
 */
export async function afterSessionRead(
  c: Context,
  read: { sessionHash: string; user: User; unread: number } | null,
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
  // A tier that lapses by the clock is re-read when it lapses (workers/billing refreshIfLapsed).
  const lapse = read.user.tierExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const e = Math.min(now + PASS_TTL_MS, lapse);
  if (e <= now) return;
  const value = await signPass({ v: 1, s: read.sessionHash, e, n: read.unread, u: { ...read.user } }, mac);
  link.out = value.length <= PASS_MAX_CHARS ? { value } : link.hadPass ? { clear: true } : undefined;
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
