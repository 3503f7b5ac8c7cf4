// The revocation feed a socket upgrade checks a session pass against (docs/decisions/079-a-pass-that-lasts-the-day.md).
// A socket's 101 cannot carry a cookie, so a reconnect cannot renew its pass and the pass lives half a day; what
// bounds a revocation there is this feed: each isolate reads the revocations written since its last read (triggers
// on `sessions` and `users`, db/queries/pass-revocations.ts) at most every REVOCATION_FEED_MS, on the primary (a
// replica may lag). One statement per isolate per interval, whatever the number of sockets; pages never use it
// (their one statement checks the session itself, db/queries/sessions.ts findFreshState).
import { PASS_TTL_MS } from "../../core/session-pass";
import { createDb, type DbEnv } from "../../db";
import { FEED_PAGE_ROWS, revocationsAfter } from "../../db/queries/pass-revocations";

/** How stale an isolate's copy of the feed may be: with D1's commit, the bound on a revoked pass opening a socket. */
export const REVOCATION_FEED_MS = 30_000;

// The triggers write `at` to the second (unixepoch() * 1000): a pass issued in the same second as a person's
// change is taken as issued before it (refused: its socket reads the session once).
const AT_PRECISION_MS = 1000;

interface Feed {
  readAt: number;
  lastId: number;
  sessions: Map<string, number>;
  people: Map<string, number>;
  reading?: Promise<void>;
}

// One copy per database per isolate (tests run several databases in one isolate).
const feeds = new Map<unknown, Feed>();

async function read(env: DbEnv, feed: Feed, now: number): Promise<void> {
  const db = createDb(env);
  const since = new Date(now - PASS_TTL_MS);
  for (;;) {
    const rows = await revocationsAfter(db, feed.lastId, since);
    for (const r of rows) {
      const at = r.at.getTime();
      if (r.sessionId) feed.sessions.set(r.sessionId, at);
      if (r.userId) feed.people.set(r.userId, Math.max(at, feed.people.get(r.userId) ?? 0));
      feed.lastId = r.id;
    }
    if (rows.length < FEED_PAGE_ROWS) break;
  }
  // What no pass still believed can be issued before: gone from memory too.
  for (const map of [feed.sessions, feed.people]) for (const [k, at] of map) if (at < since.getTime()) map.delete(k);
  feed.readAt = now;
}

async function current(env: DbEnv, now: number): Promise<Feed> {
  const key = env.DATABASE_URL || env.DB;
  let feed = feeds.get(key);
  if (!feed) {
    feed = { readAt: Number.NEGATIVE_INFINITY, lastId: 0, sessions: new Map(), people: new Map() };
    feeds.set(key, feed);
  }
  // A clock that went back (a test's, or an isolate's after a leap) reads again rather than trust a future read.
  if (now - feed.readAt >= REVOCATION_FEED_MS || now < feed.readAt) {
    // Concurrent upgrades of one isolate share one read.
    const f = feed;
    f.reading ??= read(env, f, now).finally(() => {
      f.reading = undefined;
    });
    await f.reading;
  }
  return feed;
}

/** Whether a pass for session `sessionHash` of person `userId`, issued at `issuedAt`, has been revoked. */
export async function passRevoked(
  env: DbEnv,
  pass: { sessionHash: string; userId: string; issuedAt: number },
  now = Date.now(),
): Promise<boolean> {
  const feed = await current(env, now);
  if (feed.sessions.has(pass.sessionHash)) return true;
  const changed = feed.people.get(pass.userId);
  return changed !== undefined && pass.issuedAt < changed + AT_PRECISION_MS;
}
