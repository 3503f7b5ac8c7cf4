// Opaque session cookies (docs/architecture.md §4): the browser holds a random token; the database holds only its HMAC.
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createDb } from "../../db";
import { deleteSession, findFreshState, findSession, insertSession, touchSession } from "../../db/queries/sessions";
import type { User } from "../../db/schema";
import { findUserById } from "../../db/queries/users";
import { unreadCount } from "../../db/queries/notifications";
import { isBanned, refuseIfBanned } from "../admin/bans";
import { requestReads } from "../db-reads";
import { linkDevice } from "./device";
import { newId } from "../../core/ids";
import { mac as sessionHash } from "../mac";
import { isSecureRequest } from "./request";
import { PASS_TOUCH_INTERVAL_MS, SESSION_TOUCH_INTERVAL_MS } from "../../core/session-pass";
import { afterSessionRead, dropPass, isSocketPath, renewPass, sessionFromPass } from "./session-pass";
import { refreshIfLapsed } from "../billing";
import type { AppBindings } from "../env";
import { DomainError } from "../../core/domain-error";

export { sessionHash };

export const SESSION_COOKIE = "linkup_session";
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
// A sign-in waiting for its second factor lives as long as a phone code, not a month: guesses against the
// second factor are bounded in time as well as in number (docs/decisions/046-sign-in-is-one-state-machine.md).
export const PENDING_SESSION_TTL_MS = 15 * 60 * 1000;
// "Last used" in the sessions list is this precise; it keeps session reads from writing on every request.
const TOUCH_INTERVAL_MS = SESSION_TOUCH_INTERVAL_MS;

export { isSecureRequest };

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
  // A pass names its session: the old one's goes, and the next hot read issues one for this session.
  dropPass(c);
  c.set("sessionHash", id);
  c.set("user", null);
  c.set("pendingSecondFactorUserId", opts.secondFactorPending ? userId : null);
}

export async function endSession(c: Context<AppBindings>): Promise<void> {
  if (c.var.sessionHash) await deleteSession(c.var.db, c.var.sessionHash);
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: isSecureRequest(c) });
  // Signed out here: this browser's pass goes at once too (docs/decisions/065-the-session-off-d1.md).
  dropPass(c);
  c.set("user", null);
  c.set("sessionHash", null);
  c.set("pendingSecondFactorUserId", null);
}

type SessionRead = ReturnType<typeof findSession>;
type SharedReads = { reads: Map<string, SessionRead>; chatLists: boolean };

/**
 * Session reads shared by the in-process API calls of one page request (its loaders: the root's and the route's
 * each ask /api/me): one read of the session per page load instead of one per call. The page handler creates the
 * map and clears it around any call that may write (docs/architecture.md §3, issue 28).
 */
const sharedReads = new WeakMap<Request, SharedReads>();

// The chat screen (its document and its loaders' data): the session read carries its rooms and lists, so a load
// whose session pass has expired is one statement (docs/decisions/065-the-session-off-d1.md).
const CHAT_PAGE = /^\/chat(\.data)?$/;

/** Lets `request` (an in-process API call of the page `page`) share the session reads in `reads`. */
export function shareSessionReads(request: Request, reads: Map<string, SessionRead>, page?: Request): void {
  sharedReads.set(request, { reads, chatLists: page ? CHAT_PAGE.test(new URL(page.url).pathname) : false });
}

/** The fresh part of a pass-served page's state (db/queries/sessions.ts findFreshState): once per page, like the session read. */
function readFresh(
  c: Context<AppBindings>,
  db: ReturnType<typeof createDb>,
  userId: string,
  hash: string,
): ReturnType<typeof findFreshState> {
  const shared = sharedReads.get(c.req.raw);
  if (!shared) return findFreshState(db, userId, hash);
  const key = `fresh:${userId}:${hash}`;
  let read = shared.reads.get(key) as ReturnType<typeof findFreshState> | undefined;
  if (!read) {
    read = findFreshState(db, userId, hash, new Date(), { chatLists: shared.chatLists });
    (shared.reads as Map<string, unknown>).set(key, read);
  }
  return read;
}

function readSession(c: Context<AppBindings>, db: ReturnType<typeof createDb>, hash: string): SessionRead {
  const shared = sharedReads.get(c.req.raw);
  if (!shared) return findSession(db, hash);
  let read = shared.reads.get(hash);
  if (!read) {
    read = findSession(db, hash, new Date(), { chatLists: shared.chatLists });
    shared.reads.set(hash, read);
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
  c.set("sessionChatLists", null);
  const token = getCookie(c, SESSION_COOKIE);
  if (token && token.length <= 64) {
    const hash = await sessionHash(c.env, token);
    const mac = (text: string) => sessionHash(c.env, text);
    // A fresh pass answers a hot read without reading the session (docs/decisions/065-the-session-off-d1.md, 079);
    // a socket upgrade's is checked against the revocation feed inside sessionFromPass.
    let passed = await sessionFromPass(c, hash, mac);
    const socket = isSocketPath(c.req.path);
    // A page's one statement also answers whether the session still stands (ended on another device, banned: the
    // pass is refused at once) and the row's version: a pass issued by a read that raced a write of the person's row
    // (a page's GET in flight while their location was saved) holds the old row and is not believed.
    const fresh = passed && !socket ? await readFresh(c, db, passed.user.id, hash) : undefined;
    if (passed && !socket && (!fresh?.sessionExpiresAt || fresh.updatedAt?.getTime() !== passed.user.updatedAt?.getTime())) passed = null;
    if (passed) {
      c.set("user", passed.user);
      c.set("sessionHash", hash);
      // Who they are comes from the pass; what others change (a notification, an SOS nearby) is read fresh, in
      // one statement per page, except on a socket upgrade, which needs neither.
      if (socket || !fresh) c.set("sessionUnread", { userId: passed.user.id, count: passed.unread });
      else {
        c.set("sessionUnread", {
          userId: passed.user.id,
          count: Number(fresh.unreadNotifications ?? passed.unread),
          sosNearby: fresh.sosNearby ?? null,
        });
        if (fresh.chatLists) c.set("sessionChatLists", { userId: passed.user.id, lists: fresh.chatLists });
        // The session was just checked: the pass is renewed, so the reconnects until the next page find it fresh.
        const unread = Number(fresh.unreadNotifications ?? passed.unread);
        await renewPass(c, passed, { sessionHash: hash, unread, sessionExpiresAt: fresh.sessionExpiresAt }, mac);
        const now = new Date();
        if (!fresh.sessionLastUsedAt || now.getTime() - fresh.sessionLastUsedAt.getTime() > PASS_TOUCH_INTERVAL_MS) {
          await touchSession(db, hash, now, new Date(now.getTime() - PASS_TOUCH_INTERVAL_MS));
          fresh.sessionLastUsedAt = now;
        }
      }
      await next();
      return;
    }
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
      c.set("sessionUnread", { userId: session.user.id, count: Number(session.unreadNotifications ?? 0), sosNearby: session.sosNearby });
      if (session.chatLists) c.set("sessionChatLists", { userId: session.user.id, lists: session.chatLists });
    }
    const user = c.var.user;
    await afterSessionRead(
      c,
      user
        ? { sessionHash: hash, user, unread: Number(session?.unreadNotifications ?? 0), sessionExpiresAt: session?.sessionExpiresAt }
        : null,
      mac,
    );
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
    if (origin !== undefined && !sameSiteOrigin(c, origin)) throw new DomainError("cross_origin", "Cross-origin request refused");
    const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (origin === undefined && SIMPLE_TYPES.includes(type)) {
      throw new DomainError("json_required", "Send JSON (Content-Type: application/json) or call from the LinkUp site");
    }
  }
  await next();
};

/** WebSocket upgrades from a browser always carry an Origin: another site's page may not open our rooms. */
export function checkSocketOrigin(c: Context<AppBindings>): void {
  const origin = c.req.header("origin");
  if (origin !== undefined && !sameSiteOrigin(c, origin)) throw new DomainError("cross_origin", "Cross-origin WebSocket refused");
}

// Permission guards (epic-stack `requireUser` style): every check on the server goes through these.
export function requireUser(c: Context<AppBindings>): User {
  const user = c.var.user;
  if (!user) throw new DomainError("sign_in_required", "Sign in required");
  return user;
}

export function requireVerified(c: Context<AppBindings>): User {
  const user = requireUser(c);
  if (user.authMode !== "verified") throw new DomainError("verification_required", "This feature requires phone verification");
  return user;
}

/** Staff (the support desk) or an admin. */
export function requireStaff(c: Context<AppBindings>): User {
  const user = requireVerified(c);
  if (user.role !== "staff" && user.role !== "admin") throw new DomainError("staff_required", "Staff access required");
  return user;
}

export function requireAdmin(c: Context<AppBindings>): User {
  const user = requireVerified(c);
  if (user.role !== "admin") throw new DomainError("admin_required", "Admin access required");
  return user;
}
