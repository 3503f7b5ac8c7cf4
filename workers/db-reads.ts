// Where a request's D1 reads may be answered (docs/decisions/057-pages-ask-once-and-replicas.md). Reads of a
// GET or HEAD may be slightly stale: they start anywhere ("first-unconstrained"), or no earlier than the bookmark
// the person's last write left in a cookie, so they read their own writes. Every other method starts on the
// primary, so a read before a write (a limit, a count, a uniqueness check) sees the latest. The page's in-process
// API calls share the page request's session (workers/in-process-api.ts), so an action's loaders see its writes.
// Webhooks, the queue, the Cron and the rooms use the binding itself: the primary.
import type { MiddlewareHandler } from "hono";
import { readCookie } from "../core/device";
import type { DbEnv } from "../db";
import { openReadSession, type ReadSession, type ReadStart, validBookmark } from "../db/read-replicas";

export const BOOKMARK_COOKIE = "linkup_db_bookmark";
export const BOOKMARK_HEADER = "x-d1-bookmark";
// Long enough to outlast any replica lag; past it a replica has long caught up with the write.
const BOOKMARK_MAX_AGE_S = 300;

const sessions = new WeakMap<Request, ReadSession | null>();
const opened = new WeakSet<Request>();
// workers/body.ts replaces a request that has a body with a buffered copy: the copy reads in the original's session.
const originals = new WeakMap<object, Request>();
const copies = new WeakMap<Request, Request>();

export function readStartFor(request: Request): ReadStart {
  if (request.method !== "GET" && request.method !== "HEAD") return "first-primary";
  const bookmark =
    validBookmark(request.headers.get(BOOKMARK_HEADER)) ?? validBookmark(readCookie(request.headers.get("cookie"), BOOKMARK_COOKIE));
  return bookmark ? { bookmark } : "first-unconstrained";
}

/** The D1 session of this request, opened on first use (null on libSQL, which has no sessions). */
export function requestReads(copy: Request, env: DbEnv): ReadSession | null {
  const request = copies.get(copy) ?? copy;
  const known = sessions.get(request);
  if (known !== undefined) return known;
  const session = env.DATABASE_URL ? null : openReadSession(env.DB, readStartFor(request));
  sessions.set(request, session);
  opened.add(request);
  return session;
}

/** An in-process call of a page runs in the page request's D1 session. */
export function shareRequestReads(page: Request, call: Request, env: DbEnv): void {
  sessions.set(call, requestReads(page, env));
}

/**
 * After the answer: a request whose session wrote hands its bookmark to the person's next request. Pages (their
 * documents, actions and .data requests) and the browser's own fetches from them (Sec-Fetch-Site: same-origin,
 * Fetch Metadata) set the cookie, so a page loaded after a write from the chat screen reads it; API answers also
 * carry the header, for other clients, whose answers' cookies stay the ones the route sets.
 */
export const rememberWrites: MiddlewareHandler<{ Bindings: DbEnv }> = async (c, next) => {
  const request = c.req.raw;
  originals.set(c, request);
  await next();
  const session = sessions.get(request);
  if (!session || !opened.has(request) || !session.wrote()) return;
  const bookmark = validBookmark(session.bookmark());
  if (!bookmark) return;
  const url = new URL(c.req.url);
  const page = !/^\/(api|ws|webhooks|ussd)(\/|$)/.test(url.pathname);
  const browser = c.req.header("sec-fetch-site") === "same-origin";
  const secure = url.protocol === "https:" ? "; Secure" : "";
  try {
    if (page || browser)
      c.res.headers.append(
        "set-cookie",
        `${BOOKMARK_COOKIE}=${bookmark}; Path=/; Max-Age=${BOOKMARK_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
      );
    if (!page) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  } catch {
    // An answer with immutable headers (a socket's 101): an upgrade writes nothing the person reads back.
  }
};

/** After workers/body.ts: a buffered copy of the request is the same request for its D1 session. */
export const followBodyCopies: MiddlewareHandler = async (c, next) => {
  const original = originals.get(c);
  if (original && original !== c.req.raw) copies.set(c.req.raw, original);
  await next();
};
