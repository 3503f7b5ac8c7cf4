// The session pass (docs/decisions/065-the-session-off-d1.md, 079-a-pass-that-lasts-the-day.md): a page load issues
// and renews it, the hot reads after it ask D1 nothing for the session, and it never outlives what it stands for: a
// forged, expired or foreign pass is refused, sign-out and panic clear it on the device that did it, and a revoked or
// banned session is refused at once everywhere on pages and API calls, and on socket upgrades within
// REVOCATION_FEED_MS (the revocation feed).
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkPass, PASS_RENEW_AFTER_MS, PASS_TTL_MS, signPass } from "../../core/session-pass";
import { adminSession, anonymousSession, call, ORIGIN, signInByCode, verifiedSession } from "../../tests/workers/helpers";
import { bareCtx as ctx, countedEnv as counted, statementsOf } from "../../tests/workers/statements";
import type { AppEnv } from "../env";
import { inProcessApi } from "../in-process-api";
import { createServer } from "../server";
import { REVOCATION_FEED_MS } from "./pass-revocations";
import { PASS_COOKIE } from "./session-pass";
import { sessionHash } from "./session";

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

const get = async (path: string, cookie: string) => server.fetch(new Request(`${ORIGIN}${path}`, { headers: { cookie } }), counted, ctx);

/** The pass an answer sets ("" when it clears it, undefined when it leaves it). */
function passOf(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PASS_COOKIE}=`));
  return set === undefined ? undefined : set.split(";")[0].slice(PASS_COOKIE.length + 1);
}

/** A signed-in browser with the pass its first page load was given. */
async function browserWithPass(session: { cookie: string }) {
  // The feed keeps times to the second: a pass issued in the second its person's row changed (sign-in) is not
  // believed by a socket, which then reads the session once. The page that issues it comes a second later.
  await new Promise((r) => setTimeout(r, 1000));
  const first = await get("/chat", session.cookie);
  expect(first.status).toBe(200);
  const pass = passOf(first);
  expect(pass).toBeTruthy();
  return { session: session.cookie, pass: pass as string, both: `${session.cookie}; ${PASS_COOKIE}=${pass}` };
}

const mac = (text: string) => sessionHash(env as unknown as AppEnv, text);
const AREA = "s1v0g";

/** A socket upgrade to `roomId` with these cookies, counted; the socket is closed at once when it opens. */
async function upgrade(roomId: string, cookie: string) {
  const res = await server.fetch(
    new Request(`${ORIGIN}/ws/rooms/${encodeURIComponent(roomId)}`, { headers: { cookie, upgrade: "websocket" } }),
    counted,
    ctx,
  );
  if (res.webSocket) {
    res.webSocket.accept();
    res.webSocket.close(1000, "test");
  }
  return res;
}

/** Runs `then` with the clock `ms` later (the pass and the feed read Date.now()). */
async function later(ms: number, then: () => Promise<void>) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + ms + 1);
  try {
    await then();
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  vi.useRealTimers();
});
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

  it("refuses a session ended from another device at once on its pages and reads, and on a socket within the feed's bound", async () => {
    const here = await verifiedSession("0816", "Ada");
    // The same person on a second browser, which has a pass, and whose socket opens on it without D1.
    const there = await browserWithPass(await signInByCode(here.local));
    const room = `nearby:${AREA}`;
    expect((await upgrade(room, there.both)).status).toBe(101); // the isolate's feed is read now, if it is old
    expect(await cost(async () => expect((await upgrade(room, there.both)).status).toBe(101))).toBe(0);
    const out = await call("/api/security/sessions/sign-out-others", { method: "POST", cookie: here.cookie, json: {} });
    expect(((await out.json()) as { ended: number }).ended).toBeGreaterThanOrEqual(1);
    // Writes, other reads, and now the hot reads and the page itself: the page's one statement finds no session.
    expect((await call("/api/me", { method: "PATCH", cookie: there.both, json: { nickname: "Thief" } })).status).toBe(401);
    expect((await call("/api/security/sessions", { cookie: there.both })).status).toBe(401);
    expect((await call("/api/me", { cookie: there.both })).status).toBe(401);
    const page = await get("/chat", there.both);
    expect(((await page.json()) as { me: unknown }).me).toBeNull();
    expect(passOf(page)).toBe("");
    // The socket: once the isolate's feed is as old as its bound, the revoked pass opens nothing.
    await later(REVOCATION_FEED_MS, async () => expect((await upgrade(room, there.both)).status).toBe(401));
  });

  it("refuses a banned person at once on pages, and their socket within the feed's bound", async () => {
    const admin = await adminSession();
    const person = await verifiedSession("0817", "Troll");
    const browser = await browserWithPass(person);
    const room = `nearby:${AREA}`;
    expect((await upgrade(room, browser.both)).status).toBe(101);
    expect(
      (await call(`/api/admin/people/${person.id}/ban`, { method: "POST", cookie: admin.cookie, json: { reason: "spam" } })).status,
    ).toBe(200);
    expect((await call("/api/me", { method: "PATCH", cookie: browser.both, json: { nickname: "Again" } })).status).toBe(401);
    expect((await call("/api/security/sessions", { cookie: browser.both })).status).toBe(401);
    expect((await call("/api/me", { cookie: browser.both })).status).toBe(401);
    await later(REVOCATION_FEED_MS, async () => expect((await upgrade(room, browser.both)).status).toBe(401));
  });

  it("is renewed by a page load once it is old, so the reconnects after that page open without D1", async () => {
    const person = await anonymousSession();
    const hash = await sessionHash(env as unknown as AppEnv, tokenOf(person.cookie));
    const { pass } = await browserWithPass(person);
    const browserOfSomeoneElse = await browserWithPass(await anonymousSession());
    const checked = await checkPass(pass, hash, mac);
    if (!checked.ok) throw new Error("pass did not check");
    // The pass of a page an hour ago: fresh still, past the age at which a page renews it.
    const old = await signPass({ ...checked.pass, i: Date.now() - PASS_RENEW_AFTER_MS - 1 }, mac);
    const page = await get("/chat", `${person.cookie}; ${PASS_COOKIE}=${old}`);
    expect(((await page.json()) as { me: { user: { id: string } } }).me.user.id).toBe(person.user.id);
    const renewed = passOf(page);
    expect(renewed).toBeTruthy();
    const again = await checkPass(renewed as string, hash, mac);
    if (!again.ok) throw new Error("renewed pass did not check");
    expect(again.pass.e).toBeGreaterThan(checked.pass.e);
    // A reconnect late in the day, long after the old pass would have lapsed, opens on the renewed one without D1.
    await later(PASS_TTL_MS - 60_000, async () => {
      expect((await upgrade(`nearby:${AREA}`, browserOfSomeoneElse.both)).status).toBe(101); // the feed, read once
      expect(
        await cost(async () => expect((await upgrade(`nearby:${AREA}`, `${person.cookie}; ${PASS_COOKIE}=${renewed}`)).status).toBe(101)),
      ).toBe(0);
      expect((await upgrade(`nearby:${AREA}`, `${person.cookie}; ${PASS_COOKIE}=${old}`)).status).toBe(101); // read from D1
    });
  });

  it("on a socket, is refused once the person's name changed elsewhere: the room gets the new one", async () => {
    const person = await anonymousSession();
    const phone = await browserWithPass(person);
    const laptop = await browserWithPass(person);
    expect((await call("/api/me", { method: "PATCH", cookie: laptop.both, json: { nickname: "Renamed" } })).status).toBe(200);
    await later(REVOCATION_FEED_MS, async () => {
      expect((await upgrade(`nearby:${AREA}`, laptop.both)).status).toBe(101); // the feed, read once
      // The phone's pass still holds the old name: the feed refuses it, and the upgrade reads the session (one query).
      expect(await cost(async () => expect((await upgrade(`nearby:${AREA}`, phone.both)).status).toBe(101))).toBe(1);
    });
  });

  it("reads the feed once per isolate per interval, not once per socket", async () => {
    // A day on: past any clock an earlier test set, so the isolate's feed is old whatever ran before.
    await later(2 * PASS_TTL_MS, async () => {
      const browsers: Awaited<ReturnType<typeof browserWithPass>>[] = [];
      for (let i = 0; i < 3; i++) browsers.push(await browserWithPass(await anonymousSession()));
      // The first upgrade reads what is new; the others use it.
      expect(await cost(async () => expect((await upgrade(`nearby:${AREA}`, browsers[0].both)).status).toBe(101))).toBe(1);
      for (const b of browsers.slice(1)) {
        expect(await cost(async () => expect((await upgrade(`nearby:${AREA}`, b.both)).status).toBe(101))).toBe(0);
      }
    });
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
