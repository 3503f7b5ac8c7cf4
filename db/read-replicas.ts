// Reads a D1 read replica may serve, through D1's Sessions API (docs/decisions/057-pages-ask-once-and-replicas.md).
// A request's queries run in one D1 session: sequentially consistent inside it, its writes forwarded to the
// primary. Where the session starts is the caller's choice: "first-unconstrained" (any replica: reads that may be
// slightly stale), "first-primary" (reads that must see the latest), or a bookmark a person's earlier write left,
// so they read their own writes. libSQL has no sessions: there every query goes to the one database.
import { isWriteSql } from "./query-count";

export type ReadStart = "first-unconstrained" | "first-primary" | { bookmark: string };

export interface ReadSession {
  /** The D1 session, shaped as a binding (drizzle uses only prepare and batch). */
  binding: D1Database;
  /** Whether its reads may be answered by a replica (every start but "first-primary"). */
  replica: boolean;
  /** Whether a statement of this session wrote: then its bookmark is worth handing to the person's next request. */
  wrote(): boolean;
  /** The latest bookmark the session has seen (null before its first query). */
  bookmark(): string | null;
}

// Bookmarks are opaque strings D1 hands out ("00000001-00000002-00004f3c-…" on Cloudflare); anything else a
// cookie carries is ignored rather than passed to withSession.
const BOOKMARK = /^[0-9a-zA-Z-]{1,160}$/;

export function validBookmark(value: string | null | undefined): string | null {
  return value && BOOKMARK.test(value) && !value.startsWith("first-") ? value : null;
}

/** Opens a D1 session on `db`; null when the binding has no Sessions API (then the caller uses the binding). */
export function openReadSession(db: D1Database, start: ReadStart): ReadSession | null {
  if (typeof db.withSession !== "function") return null;
  const session = db.withSession(typeof start === "string" ? start : start.bookmark);
  let wrote = false;
  const binding = new Proxy(session, {
    get(target, prop) {
      if (prop === "prepare")
        return (sql: string) => {
          if (isWriteSql(sql)) wrote = true;
          return target.prepare(sql);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as unknown as D1Database;
  return {
    binding,
    replica: start !== "first-primary",
    wrote: () => wrote,
    bookmark: () => session.getBookmark(),
  };
}
