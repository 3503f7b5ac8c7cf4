// How a page's loaders and actions call LinkUp's own API in-process (docs/decisions/001): the same validated
// routes a browser uses, with the visitor's cookie and headers. One page request reads the session once however
// many loaders call (the root's and the route's both ask /api/me); a call that may write starts afresh, so what it
// changed (a new cookie, a new nickname) is what the loaders after it see.
import { shareSessionReads } from "./auth/session";
import { shareRequestReads } from "./db-reads";
import type { AppEnv } from "./env";

type Fetch = (request: Request, env: AppEnv, ctx: ExecutionContext) => Response | Promise<Response>;

export function inProcessApi(fetch: Fetch, request: Request, env: AppEnv, ctx: ExecutionContext) {
  const sessionReads = new Map();
  return (path: string, init?: RequestInit): Promise<Response> => {
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
    if (reads) shareSessionReads(call, sessionReads);
    else sessionReads.clear();
    const answer = Promise.resolve(fetch(call, env, ctx));
    return reads ? answer : answer.finally(() => sessionReads.clear());
  };
}
