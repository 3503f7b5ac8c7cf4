// How a page's loaders and actions call LinkUp's own API in-process (docs/decisions/001): the same validated
// routes a browser uses, with the visitor's cookie and headers. One page request reads the session once however
// many loaders call (the root's and the route's both ask /api/me); a call that may write starts afresh, so what it
// changed (a new cookie, a new nickname) is what the loaders after it see.
import { shareSessionReads } from "./auth/session";
import { pageMayWrite, sharePass } from "./auth/session-pass";
import { shareRequestReads } from "./db-reads";
import type { AppEnv } from "./env";

export type Fetch = (request: Request, env: AppEnv, ctx: ExecutionContext) => Response | Promise<Response>;

const callsOf = new WeakMap<Request, number>();

/** How many in-process API calls the page request has made so far (the development answer's header shows it). */
export function inProcessCalls(request: Request): number {
  return callsOf.get(request) ?? 0;
}

/**
 * In development, the answer says how many in-process calls it took (x-linkup-in-process-calls), so a browser
 * test can count them per action (docs/decisions/057-pages-ask-once-and-replicas.md).
 */
export function withCallCount(response: Response, request: Request, env: Pick<AppEnv, "ENVIRONMENT">): Response {
  if (env.ENVIRONMENT !== "development") return response;
  try {
    response.headers.set("x-linkup-in-process-calls", String(inProcessCalls(request)));
  } catch {
    // An answer with immutable headers goes out as it is.
  }
  return response;
}

export function inProcessApi(fetch: Fetch, request: Request, env: AppEnv, ctx: ExecutionContext) {
  const sessionReads = new Map();
  return (path: string, init?: RequestInit): Promise<Response> => {
    callsOf.set(request, inProcessCalls(request) + 1);
    const headers = new Headers(init?.headers);
    const cookie = request.headers.get("cookie");
    if (cookie && !headers.has("cookie")) headers.set("cookie", cookie);
    // The visitor's own headers travel with the call, so the API's Origin and rate-limit checks apply to
    // page actions exactly as to browser requests.
    for (const name of ["user-agent", "origin", "cf-connecting-ip", "accept-language"]) {
      const value = request.headers.get(name);
      if (value && !headers.has(name)) headers.set(name, value);
    }
    const call = new Request(new URL(path, request.url), { ...init, headers });
    // The page's D1 session: its reads start where the page's do, and its writes are what the loaders after read.
    shareRequestReads(request, call, env);
    const reads = call.method === "GET" || call.method === "HEAD";
    // The page's session pass: what its calls issue reaches the page's answer; after a write they read D1 afresh.
    sharePass(request, call);
    if (reads) shareSessionReads(call, sessionReads, request);
    else {
      sessionReads.clear();
      pageMayWrite(request);
    }
    const answer = Promise.resolve(fetch(call, env, ctx));
    return reads ? answer : answer.finally(() => sessionReads.clear());
  };
}
