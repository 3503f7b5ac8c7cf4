// The session pass (docs/decisions/065-the-session-off-d1.md): a page load issues it, the hot reads after it ask D1
// nothing for the session, and it never outlives what it stands for: a forged, expired or foreign pass is refused,
// sign-out and panic clear it on the device that did it, and a revoked or banned session's writes and other reads
// are refused at once everywhere, its hot reads once the pass expires.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkPass, PASS_TTL_MS, signPass } from "../../core/session-pass";
import { adminSession, anonymousSession, call, ORIGIN, signInByCode, verifiedSession } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { inProcessApi } from "../in-process-api";
import { createServer } from "../server";
import { PASS_COOKIE } from "./session-pass";
import { sessionHash } from "./session";
import { bareCtx, countedEnv, statementsOf } from "../../tests/workers/statements";

// A page like /chat: the root loader asks /api/me, the route's loader /api/rooms (web/app/routes/chat.tsx).
const server = createServer(async (request, pageEnv, pageCtx) => {
  const api = inProcessApi(server.fetch, request, pageEnv, pageCtx);
  const [me, rooms] = await Promise.all([api("/api/me"), api("/api/rooms")]);
  return Response.json({ me: me.status === 200 ? await me.json() : null, rooms: rooms.status });
});

async function cost(run: () => Promise<unknown>) {
  const { reads, writes } = await statementsOf(run);
  return reads + writes;
}

const get = async (path: string, cookie: string) =>
  server.fetch(new Request(`${ORIGIN}${path}`, { headers: { cookie } }), countedEnv, bareCtx);

/** The pass an answer sets ("" when it clears it, undefined when it leaves it). */
function passOf(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PASS_COOKIE}=`));
  return set === undefined ? undefined : set.split(";")[0].slice(PASS_COOKIE.length + 1);
}

/** A signed-in browser with the pass its first page load was given. */
async function browserWithPass(session: { cookie: string }) {
  const first = await get("/chat", session.cookie);
  expect(first.status).toBe(200);
  const pass = passOf(first);
  expect(pass).toBeTruthy();
  return { session: session.cookie, pass: pass as string, both: `${session.cookie}; ${PASS_COOKIE}=${pass}` };
}

const mac = (text: string) => sessionHash(env as unknown as AppEnv, text);
const tokenOf = (cookie: string) => decodeURIComponent(cookie.split("=")[1]);

describe("the session pass", () => {
  it("is issued by a page load and answers the next one's session without D1: /chat costs one query either way", async () => {
    const person = await anonymousSession();
    const browser = await browserWithPass(person);
    // No pass (or an expired one): the session read carries the chat screen's rooms, one statement too.
    expect(await cost(() => get("/chat", browser.session))).toBe(1);
    const answers: Response[] = [];
    expect(await cost(async () => answers.push(await get("/chat", browser.both)))).toBe(1); // the rooms' one statement
    expect(((await answers[0].json()) as { me: { user: { id: string } } }).me.user.id).toBe(person.user.id);
    // A fresh pass is not issued again on every load.
    expect(passOf(answers[0])).toBeUndefined();
    // A read off the pass's paths reads the session from D1 however fresh the pass is.
    expect(await cost(() => get("/api/security/sessions", browser.both))).toBeGreaterThanOrEqual(2);
  });

  it("is refused when forged, expired or another session's: the session is read from D1 instead", async () => {
    const person = await anonymousSession();
    const hash = await sessionHash(env as unknown as AppEnv, tokenOf(person.cookie));
    const { pass } = await browserWithPass(person);
    const checked = await checkPass(pass, hash, mac);
    if (!checked.ok) throw new Error(`the issued pass did not check: ${checked.reason}`);
    const claim = (over: { e?: number; s?: string; nickname?: string }) => ({
      ...checked.pass,
      e: over.e ?? Date.now() + PASS_TTL_MS,
      s: over.s ?? hash,
      u: { ...checked.pass.u, role: "admin", nickname: over.nickname ?? "Claimed" },
    });
    const meWith = async (passText: string) => {
      const res = await call("/api/me", { cookie: `${person.cookie}; ${PASS_COOKIE}=${passText}` });
      return ((await res.json()) as { user: { nickname: string; role: string } }).user;
    };
    // Control: a pass signed with the server's secret is believed, so the refusals below are the checks at work.
    expect(await meWith(await signPass(claim({ nickname: "Believed" }), mac))).toMatchObject({ nickname: "Believed", role: "admin" });
    const forged = await signPass(claim({}), async (text) => sessionHash({ SESSION_SECRET: "a guess" } as AppEnv, text));
    const expired = await signPass(claim({ e: Date.now() - 1 }), mac);
    const foreign = await signPass(claim({ s: await sessionHash(env as unknown as AppEnv, "someone else's token") }), mac);
    for (const bad of [forged, expired, foreign, `${pass}x`]) {
      expect(await meWith(bad)).toMatchObject({ nickname: person.user.nickname, role: "user" });
    }
    // Even a believed pass carries no staff rights: staff screens read the session (and its role) from D1.
    const believed = await signPass(claim({}), mac);
    const desk = await call("/api/admin/people?query=x", { cookie: `${person.cookie}; ${PASS_COOKIE}=${believed}` });
    expect(desk.status).toBe(403);
  });

  it("goes with the session on sign-out and panic, on the device that did it", async () => {
    for (const [path, json] of [
      ["/api/auth/logout", undefined],
      ["/api/security/panic", {}],
    ] as const) {
      const browser = await browserWithPass(await anonymousSession());
      const res = await call(path, { method: "POST", cookie: browser.both, headers: { origin: ORIGIN }, json });
      expect(res.status).toBe(200);
      expect(passOf(res)).toBe("");
      // The same cookies sent again (a browser that kept them) are signed out for every write and non-hot read.
      expect((await call("/api/security/sessions", { cookie: browser.both })).status).toBe(401);
      expect((await call("/api/me", { method: "PATCH", cookie: browser.both, json: { nickname: "Back" } })).status).toBe(401);
    }
  });

  it("refuses a session ended from another device: its writes at once, its hot reads once the pass expires", async () => {
    const here = await verifiedSession("0816", "Ada");
    // The same person on a second browser, which has a pass.
    const there = await browserWithPass(await signInByCode(here.local));
    const out = await call("/api/security/sessions/sign-out-others", { method: "POST", cookie: here.cookie, json: {} });
    expect(((await out.json()) as { ended: number }).ended).toBeGreaterThanOrEqual(1);
    expect((await call("/api/me", { method: "PATCH", cookie: there.both, json: { nickname: "Thief" } })).status).toBe(401);
    expect((await call("/api/security/sessions", { cookie: there.both })).status).toBe(401);
    const hash = await sessionHash(env as unknown as AppEnv, tokenOf(there.session));
    const checked = await checkPass(there.pass, hash, mac);
    if (!checked.ok) throw new Error("pass did not check");
    const lapsed = await signPass({ ...checked.pass, e: Date.now() - 1 }, mac);
    expect((await call("/api/me", { cookie: `${there.session}; ${PASS_COOKIE}=${lapsed}` })).status).toBe(401);
  });

  it("refuses a banned person's writes at once, and their hot reads once the pass expires", async () => {
    const admin = await adminSession();
    const person = await verifiedSession("0817", "Troll");
    const browser = await browserWithPass(person);
    expect(
      (await call(`/api/admin/people/${person.id}/ban`, { method: "POST", cookie: admin.cookie, json: { reason: "spam" } })).status,
    ).toBe(200);
    expect((await call("/api/me", { method: "PATCH", cookie: browser.both, json: { nickname: "Again" } })).status).toBe(401);
    expect((await call("/api/security/sessions", { cookie: browser.both })).status).toBe(401);
    const hash = await sessionHash(env as unknown as AppEnv, tokenOf(browser.session));
    const checked = await checkPass(browser.pass, hash, mac);
    if (!checked.ok) throw new Error("pass did not check");
    const lapsed = await signPass({ ...checked.pass, e: Date.now() - 1 }, mac);
    expect((await call("/api/me", { cookie: `${browser.session}; ${PASS_COOKIE}=${lapsed}` })).status).toBe(401);
  });

  it("is cleared by the person's own write, so their next load reads what they changed", async () => {
    const browser = await browserWithPass(await anonymousSession());
    const saved = await call("/api/me", { method: "PATCH", cookie: browser.both, json: { nickname: "Renamed" } });
    expect(saved.status).toBe(200);
    expect(passOf(saved)).toBe("");
    const next = await get("/chat", browser.session);
    expect(((await next.json()) as { me: { user: { nickname: string } } }).me.user.nickname).toBe("Renamed");
    expect(passOf(next)).toBeTruthy();
  });
});
