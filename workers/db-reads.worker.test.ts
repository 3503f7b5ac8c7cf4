// A request's D1 reads run in a D1 session (docs/decisions/057-pages-ask-once-and-replicas.md): a GET may be
// answered by a replica, a write hands its bookmark on, and the person's next request reads from no earlier
// than it. The local D1 has no replicas: these tests check where each request starts its session and that the
// write is seen, not which instance answered.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { anonymousSession, ORIGIN } from "../tests/workers/helpers";
import { BOOKMARK_COOKIE, BOOKMARK_HEADER } from "./db-reads";
import type { AppEnv } from "./env";
import { inProcessApi } from "./in-process-api";
import { createServer } from "./server";

const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

/** The test's bindings with the D1 binding recording where each session started. */
function recording() {
  const starts: string[] = [];
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "withSession")
        return (start?: string) => {
          starts.push(start ?? "first-unconstrained");
          return target.withSession(start);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { bindings: { ...env, DB } as unknown as AppEnv, starts };
}

// A page that renames its visitor in its action (as /settings does) and shows the name in its loader.
const server = createServer(async (request, bindings, executionCtx) => {
  const api = inProcessApi(server.fetch, request, bindings, executionCtx);
  if (request.method === "POST") {
    const saved = await api("/api/me", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ nickname: await request.text() }),
    });
    return new Response(null, { status: saved.ok ? 204 : saved.status });
  }
  const me = await (await api("/api/me")).json<{ user: { nickname: string } }>();
  return new Response(me.user.nickname);
});

const json = (cookie: string, body: unknown, method = "PATCH") =>
  ({ method, headers: { cookie, origin: ORIGIN, "content-type": "application/json" }, body: JSON.stringify(body) }) as const;

describe("reads a replica may answer", () => {
  it("starts a GET anywhere and a write on the primary", async () => {
    const { cookie } = await anonymousSession();
    const { bindings, starts } = recording();
    expect((await server.fetch(new Request(`${ORIGIN}/api/stats/public`), bindings, ctx)).status).toBe(200);
    expect((await server.fetch(new Request(`${ORIGIN}/api/me`, { headers: { cookie } }), bindings, ctx)).status).toBe(200);
    expect(starts).toEqual(["first-unconstrained", "first-unconstrained"]);
    const saved = await server.fetch(new Request(`${ORIGIN}/api/me`, json(cookie, { nickname: "Ngozi" })), bindings, ctx);
    expect(saved.status).toBe(200);
    expect(starts[2]).toBe("first-primary");
  });

  it("hands an API write's bookmark back in a header, and the next read starts from it and sees the write", async () => {
    const { cookie } = await anonymousSession();
    const { bindings, starts } = recording();
    const saved = await server.fetch(new Request(`${ORIGIN}/api/me`, json(cookie, { nickname: "Tunde" })), bindings, ctx);
    expect(saved.status).toBe(200);
    const bookmark = saved.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toBeTruthy();
    // The API's cookies stay its own: the bookmark is not among them.
    expect(saved.headers.getSetCookie().some((c) => c.startsWith(`${BOOKMARK_COOKIE}=`))).toBe(false);
    const read = await server.fetch(
      new Request(`${ORIGIN}/api/me`, { headers: { cookie, [BOOKMARK_HEADER]: bookmark ?? "" } }),
      bindings,
      ctx,
    );
    expect(starts.at(-1)).toBe(bookmark);
    expect((await read.json<{ user: { nickname: string } }>()).user.nickname).toBe("Tunde");
    // A read without a write leaves no bookmark to carry.
    expect(read.headers.get(BOOKMARK_HEADER)).toBeNull();
  });

  it("gives the browser's own fetch the bookmark as a cookie too, so the page it loads next reads the write", async () => {
    const { cookie } = await anonymousSession();
    const { bindings, starts } = recording();
    const init = json(cookie, { nickname: "Halima" });
    const saved = await server.fetch(
      new Request(`${ORIGIN}/api/me`, { ...init, headers: { ...init.headers, "sec-fetch-site": "same-origin" } }),
      bindings,
      ctx,
    );
    expect(saved.status).toBe(200);
    // The session cookie's place is kept: the bookmark comes after whatever the route set.
    const pair = saved.headers.getSetCookie().at(-1)?.split(";")[0] ?? "";
    expect(pair).toBe(`${BOOKMARK_COOKIE}=${saved.headers.get(BOOKMARK_HEADER)}`);
    const page = await server.fetch(new Request(`${ORIGIN}/settings`, { headers: { cookie: `${cookie}; ${pair}` } }), bindings, ctx);
    expect(await page.text()).toBe("Halima");
    expect(starts.at(-1)).toBe(saved.headers.get(BOOKMARK_HEADER));
  });

  it("leaves a page action's bookmark in a cookie, and the person's next page load reads their write", async () => {
    const { cookie } = await anonymousSession();
    const { bindings, starts } = recording();
    const action = await server.fetch(
      new Request(`${ORIGIN}/settings`, { method: "POST", headers: { cookie, origin: ORIGIN }, body: "Amaka" }),
      bindings,
      ctx,
    );
    expect(action.status).toBe(204);
    // The action and its in-process API call shared one session, begun on the primary.
    expect(starts).toEqual(["first-primary"]);
    const set = action.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`));
    expect(set).toMatch(/HttpOnly/);
    const pair = set?.split(";")[0] ?? "";
    const bookmark = pair.slice(BOOKMARK_COOKIE.length + 1);
    expect(bookmark).not.toBe("");

    const page = await server.fetch(new Request(`${ORIGIN}/settings`, { headers: { cookie: `${cookie}; ${pair}` } }), bindings, ctx);
    expect(await page.text()).toBe("Amaka");
    expect(starts.at(-1)).toBe(bookmark);
  });

  it("ignores a bookmark cookie that is not one", async () => {
    const { cookie } = await anonymousSession();
    const { bindings, starts } = recording();
    const page = await server.fetch(
      new Request(`${ORIGIN}/settings`, { headers: { cookie: `${cookie}; ${BOOKMARK_COOKIE}=first-primary` } }),
      bindings,
      ctx,
    );
    expect(page.status).toBe(200);
    expect(starts).toEqual(["first-unconstrained"]);
  });
});
