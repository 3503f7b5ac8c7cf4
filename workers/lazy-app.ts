// A Hono sub-app loaded on its first request (docs/decisions/070-light-enough-for-2g.md): what only some requests
// need (the admin desk, the assistant, the phone channels, payment webhooks) stays out of the chunk every isolate
// evaluates when it starts. Mounted with `app.route(prefix, lazyApp(() => import("./x").then((m) => m.x)))`, it
// answers exactly as the sub-app mounted directly would: the same Request object (the per-request state kept by it,
// workers/db-reads.ts and workers/auth/session-pass.ts, still applies), the variables the parent's middleware set
// (the session, the database, the nonce) in and back out, an error thrown to the parent's error handler, and a path
// the sub-app does not know falls through to the parent's next route and its 404.
import { type Context, type Env, Hono, type Next } from "hono";
import { routePath } from "hono/route";

const parents = new WeakMap<Request, Context>();
const UNMATCHED = "x-linkup-lazy-unmatched";

// Any Hono app: its route types are not read here, only its routes (Hono's `route` copies them).
type SubApp = Pick<Hono, "routes">;

export function lazyApp<E extends Env>(load: () => Promise<SubApp>): Hono<E> {
  let sub: Promise<SubApp> | undefined;
  // The sub-app mounted at the prefix it is reached by (the parent's route path without its "/*"), once per prefix.
  const mounted = new Map<string, Hono<E>>();
  const mountAt = (base: string, app: SubApp): Hono<E> => {
    let inner = mounted.get(base);
    if (!inner) {
      inner = new Hono<E>();
      inner.use(async (c, next) => {
        const parent = parents.get(c.req.raw);
        const vars = parent ? Object.entries(parent.var) : [];
        for (const [k, v] of vars) c.set(k as never, v as never);
        try {
          await next();
        } finally {
          if (parent) for (const [k, v] of Object.entries(c.var)) parent.set(k as never, v as never);
        }
      });
      inner.route(base, app as unknown as Hono<E>);
      // An error goes on to the parent's handler, as it would from a directly mounted sub-app.
      inner.onError((err) => {
        throw err;
      });
      inner.notFound(() => new Response(null, { status: 404, headers: { [UNMATCHED]: "1" } }));
      mounted.set(base, inner);
    }
    return inner;
  };

  const wrapper = new Hono<E>();
  wrapper.all("*", async (c: Context<E>, next: Next) => {
    sub ??= load().catch((e: unknown) => {
      sub = undefined; // a failed load is forgotten: the next request tries again
      throw e;
    });
    const inner = mountAt(routePath(c).replace(/\/?\*$/, ""), await sub);
    let ctx: ExecutionContext | undefined;
    try {
      ctx = c.executionCtx as ExecutionContext;
    } catch {
      // app.request() in tests has no execution context.
    }
    parents.set(c.req.raw, c as Context);
    const res = await inner.fetch(c.req.raw, c.env, ctx);
    if (!res.headers.has(UNMATCHED)) return res;
    await next();
  });
  return wrapper;
}
