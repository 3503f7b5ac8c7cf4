// Opaque session cookies (docs/architecture.md §4): the browser holds a random token; the database holds only its HMAC.
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createDb } from "../../db";
import { deleteSession, findSession, insertSession, touchSession } from "../../db/queries/sessions";
import type { User } from "../../db/schema";
import { findUserById } from "../../db/queries/users";
import { unreadCount } from "../../db/queries/notifications";
import { isBanned, refuseIfBanned } from "../admin/bans";
import { requestReads } from "../db-reads";
import { linkDevice } from "./device";
import { newId, toBase64Url } from "../../core/ids";
import { refreshIfLapsed } from "../billing";
import type { AppBindings, AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";

export const SESSION_COOKIE = "linkup_session";
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
// A sign-in waiting for its second factor lives as long as a phone code, not a month: guesses against the
// second factor are bounded in time as well as in number (docs/decisions/046-sign-in-is-one-state-machine.md).
export const PENDING_SESSION_TTL_MS = 15 * 60 * 1000;
// "Last used" in the sessions list is this precise; it keeps session reads from writing on every request.
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

async function hmac(secret: string, token: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token))));
}

export function sessionHash(env: AppEnv, token: string): Promise<string> {
  return hmac(env.SESSION_SECRET ?? "", token);
}

export function isSecureRequest(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:";
}

/** Starts a session for the user and sets the cookie on the answer. */
export async function startSession(
  c: Context<AppBindings>,
  userId: string,
  opts: { secondFactorPending?: boolean; pendingMergeFrom?: string | null } = {},
): Promise<void> {
  // Every sign-in path ends here: a suspended account never gets a session (docs/decisions/025-bans.md).
  const user = await findUserById(c.var.db, userId);
  if (user) refuseIfBanned(user);
  const token = newId(32);
  const id = await sessionHash(c.env, token);
  const pending = opts.secondFactorPending ?? false;
  const ttl = pending ? PENDING_SESSION_TTL_MS : SESSION_TTL_MS;
  await insertSession(c.var.db, {
    id,
    userId,
    expiresAt: new Date(Date.now() + ttl),
    lastUsedAt: new Date(),
    secondFactorPending: pending,
    pendingMergeFrom: pending ? (opts.pendingMergeFrom ?? null) : null,
    userAgent: c.req.header("user-agent")?.slice(0, 200),
  });
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: isSecureRequest(c),
    path: "/",
    maxAge: ttl / 1000,
  });
  // After the session cookie: callers that pass a fresh session on read the first Set-Cookie. A sign-in still
  // owing its second factor ties nothing to the account yet.
  if (!pending) await linkDevice(c, userId);
  c.set("sessionHash", id);
  c.set("user", null);
  c.set("pendingSecondFactorUserId", opts.secondFactorPending ? userId : null);
}

export async function endSession(c: Context<AppBindings>): Promise<void> {
  if (c.var.sessionHash) await deleteSession(c.var.db, c.var.sessionHash);
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: isSecureRequest(c) });
  c.set("user", null);
  c.set("sessionHash", null);
  c.set("pendingSecondFactorUserId", null);
}

type SessionRead = ReturnType<typeof findSession>;

/**
 * Session reads shared by the in-process API calls of one page request (its loaders: the root's and the route's
 * each ask /api/me): one read of the session per page load instead of one per call. The page handler creates the
 * map and clears it around any call that may write (docs/architecture.md §3, issue 28).
 */
const sharedReads = new WeakMap<Request, Map<string, SessionRead>>();

/** Lets `request` (an in-process API call of a page) share the session reads in `reads`. */
export function shareSessionReads(request: Request, reads: Map<string, SessionRead>): void {
  sharedReads.set(request, reads);
}

function readSession(c: Context<AppBindings>, db: ReturnType<typeof createDb>, hash: string): SessionRead {
  const shared = sharedReads.get(c.req.raw);
  if (!shared) return findSession(db, hash);
  let read = shared.get(hash);
  if (!read) {
    read = findSession(db, hash);
    shared.set(hash, read);
  }
  return read;
}

/** Puts the database and the signed-in user (or null) on every request. */
export const loadSession: MiddlewareHandler<AppBindings> = async (c, next) => {
  // Reads run in the request's D1 session: replicas may answer a GET's (workers/db-reads.ts).
  const db = createDb(c.env, requestReads(c.req.raw, c.env));
  c.set("db", db);
  c.set("user", null);
  c.set("sessionHash", null);
  c.set("pendingSecondFactorUserId", null);
  c.set("sessionUnread", null);
  const token = getCookie(c, SESSION_COOKIE);
  if (token && token.length <= 64) {
    const hash = await sessionHash(c.env, token);
    const session = await readSession(c, db, hash);
    if (session && isBanned(session.user)) {
      // Banned while this request was on its way (the ban ends sessions): it is served signed out.
      await deleteSession(db, hash);
    } else if (session?.secondFactorPending) {
      // Phone proven, second factor owed: this session may only prove it (or sign out).
      c.set("pendingSecondFactorUserId", session.user.id);
      c.set("sessionHash", hash);
    } else if (session) {
      const now = new Date();
      if (!session.lastUsedAt || now.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        await touchSession(db, hash, now, new Date(now.getTime() - TOUCH_INTERVAL_MS));
        // A read shared with the page's other calls: they need not touch it again.
        session.lastUsedAt = now;
      }
      // A trial, grace period or grant that ran out by the clock ends before this request is served.
      c.set("user", await refreshIfLapsed(db, session.user));
      c.set("sessionHash", hash);
      c.set("sessionUnread", { userId: session.user.id, count: Number(session.unreadNotifications ?? 0) });
    }
  }
  await next();
};

/** The user's unread notifications: as read with the session when it is theirs, else counted now. */
export async function unreadNotifications(c: Context<AppBindings>, user: User): Promise<number> {
  const read = c.var.sessionUnread;
  return read?.userId === user.id ? read.count : unreadCount(c.var.db, user.id);
}

/** Whether an Origin header names this site (the request's own origin or APP_URL's). */
export function sameSiteOrigin(c: Context<AppBindings>, origin: string): boolean {
  const own = new URL(c.req.url).origin;
  return origin === own || Boolean(c.env.APP_URL && origin === new URL(c.env.APP_URL).origin);
}

// Content types a cross-site HTML form (or a no-cors fetch) can send without a CORS preflight.
const SIMPLE_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"];

/**
 * Mutating requests need a same-site Origin, or, without any Origin (non-browser clients), a content type no
 * cross-site form can send: JSON or the route's own media type. A foreign Origin is always refused.
 * Cookies are SameSite=Lax; this closes the rest (docs/decisions/010-production-is-not-development.md).
 */
export const checkOrigin: MiddlewareHandler<AppBindings> = async (c, next) => {
  if (!["GET", "HEAD", "OPTIONS"].includes(c.req.method)) {
    const origin = c.req.header("origin");
    if (origin !== undefined && !sameSiteOrigin(c, origin)) throw new DomainError("forbidden", "Cross-origin request refused");
    const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (origin === undefined && SIMPLE_TYPES.includes(type)) {
      throw new DomainError("unsupported_media_type", "Send JSON (Content-Type: application/json) or call from the LinkUp site");
    }
  }
  await next();
};

/** WebSocket upgrades from a browser always carry an Origin: another site's page may not open our rooms. */
export function checkSocketOrigin(c: Context<AppBindings>): void {
  const origin = c.req.header("origin");
  if (origin !== undefined && !sameSiteOrigin(c, origin)) throw new DomainError("forbidden", "Cross-origin WebSocket refused");
}

// Permission guards (epic-stack `requireUser` style): every check on the server goes through these.
export function requireUser(c: Context<AppBindings>): User {
  const user = c.var.user;
  if (!user) throw new DomainError("unauthenticated", "Sign in required");
  return user;
}

export function requireVerified(c: Context<AppBindings>): User {
  const user = requireUser(c);
  if (user.authMode !== "verified")
    throw new DomainError("forbidden", "This feature requires phone verification", { code: "verification_required" });
  return user;
}

/** Staff (the support desk) or an admin. */
export function requireStaff(c: Context<AppBindings>): User {
  const user = requireVerified(c);
  if (user.role !== "staff" && user.role !== "admin") throw new DomainError("forbidden", "Staff access required");
  return user;
}

export function requireAdmin(c: Context<AppBindings>): User {
  const user = requireVerified(c);
  if (user.role !== "admin") throw new DomainError("forbidden", "Admin access required");
  return user;
}
