// A page's loaders read the session once (issue 28: the root and the route loader each asked /api/me, three
// session reads per page load), and a call that writes is followed by fresh reads.
import { describe, expect, it } from "vitest";
import { anonymousSession, ORIGIN } from "../tests/workers/helpers";
import { inProcessApi } from "./in-process-api";
import { createServer } from "./server";
import { bareCtx, countedEnv, statementsOf } from "../tests/workers/statements";

const server = createServer(async () => new Response("page"));

describe("the API called in-process by a page", () => {
  it("reads the session once for all the loaders of one page", async () => {
    const { cookie } = await anonymousSession();
    const page = new Request(`${ORIGIN}/chat`, { headers: { cookie } });
    const api = inProcessApi(server.fetch, page, countedEnv, bareCtx);
    const spent = await statementsOf(async () => {
      for (let i = 0; i < 3; i++) expect((await api("/api/me")).status).toBe(200);
    });
    expect(spent).toEqual({ reads: 1, writes: 0 });
    // Another page request reads it again: nothing is shared across visitors or requests.
    const other = inProcessApi(server.fetch, page, countedEnv, bareCtx);
    expect(await statementsOf(() => other("/api/me"))).toEqual({ reads: 1, writes: 0 });
  });

  it("reads the session afresh after a call that writes, so the next loader sees the change", async () => {
    const { cookie } = await anonymousSession();
    const page = new Request(`${ORIGIN}/settings`, { method: "POST", headers: { cookie, origin: ORIGIN } });
    const api = inProcessApi(server.fetch, page, countedEnv, bareCtx);
    await api("/api/me");
    const saved = await api("/api/me", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ nickname: "Chiamaka" }),
    });
    expect(saved.status).toBe(200);
    const me = await (await api("/api/me")).json<{ user: { nickname: string } }>();
    expect(me.user.nickname).toBe("Chiamaka");
  });
});
