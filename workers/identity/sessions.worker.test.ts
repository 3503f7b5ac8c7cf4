// Sessions and devices (issue 15): every signed-in browser is listed with its device and last use, and the
// person can sign out one of them or all the others; the ended browsers are signed out on the server.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { anonymousSession, call, signInByCode } from "../../tests/workers/helpers";

/** A fresh browser with its own user agent signs in with the phone; returns its session cookie. */
async function browserSignsIn(phone: string, ua: string) {
  const signed = await signInByCode(phone, { headers: { "user-agent": ua } });
  expect(signed.status).toBe(200);
  return signed.cookie;
}

const ANDROID = "Mozilla/5.0 (Linux; Android 13; SM-A135F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
const WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";

type Session = { ref: string; device: string; current: boolean; lastUsedAt: string; createdAt: string };

async function list(cookie: string) {
  const res = await call("/api/security/sessions", { cookie });
  expect(res.status).toBe(200);
  return (await res.json<{ sessions: Session[] }>()).sessions;
}

const signedIn = async (cookie: string) => (await call("/api/me", { cookie })).status === 200;

describe("sessions and devices", () => {
  it("lists every signed-in browser with its device and last use, this one first, without its stored id", async () => {
    const phone = "+2348030000101";
    const android = await browserSignsIn(phone, ANDROID);
    const iphone = await browserSignsIn(phone, IPHONE);
    const sessions = await list(iphone);
    expect(sessions.map((s) => [s.device, s.current])).toEqual([
      ["Safari on iOS", true],
      ["Chrome on Android", false],
    ]);
    for (const s of sessions) expect(Number.isNaN(Date.parse(s.lastUsedAt))).toBe(false);
    const ids = await env.DB.prepare("select id from sessions").all<{ id: string }>();
    for (const s of sessions) expect(ids.results.map((r) => r.id)).not.toContain(s.ref);
    expect((await list(android)).find((s) => s.current)?.device).toBe("Chrome on Android");
  });

  it("updates a session's last use when it is used again", async () => {
    const phone = "+2348030000102";
    const cookie = await browserSignsIn(phone, WINDOWS);
    await env.DB.prepare("update sessions set last_used_at = ? where user_agent = ?")
      .bind(Date.UTC(2026, 0, 1), WINDOWS)
      .run();
    expect((await list(cookie))[0].lastUsedAt.startsWith("2026-01-01")).toBe(false);
  });

  it("signs out one other browser, which is then signed out on the server", async () => {
    const phone = "+2348030000103";
    const android = await browserSignsIn(phone, ANDROID);
    const iphone = await browserSignsIn(phone, IPHONE);
    const other = (await list(iphone)).find((s) => !s.current)!;
    const res = await call(`/api/security/sessions/${other.ref}`, { method: "DELETE", cookie: iphone });
    expect(await res.json()).toEqual({ ok: true, current: false });
    expect(await signedIn(android)).toBe(false);
    expect(await signedIn(iphone)).toBe(true);
    expect((await list(iphone)).map((s) => s.device)).toEqual(["Safari on iOS"]);
  });

  it("signs out all other browsers and keeps this one", async () => {
    const phone = "+2348030000104";
    const a = await browserSignsIn(phone, ANDROID);
    const b = await browserSignsIn(phone, WINDOWS);
    const c = await browserSignsIn(phone, IPHONE);
    const res = await call("/api/security/sessions/sign-out-others", { method: "POST", cookie: c, json: {} });
    expect(await res.json()).toEqual({ ok: true, ended: 2 });
    expect([await signedIn(a), await signedIn(b), await signedIn(c)]).toEqual([false, false, true]);
  });

  it("ending this browser's own session signs it out", async () => {
    const cookie = await browserSignsIn("+2348030000105", ANDROID);
    const [mine] = await list(cookie);
    const res = await call(`/api/security/sessions/${mine.ref}`, { method: "DELETE", cookie });
    expect(await res.json()).toEqual({ ok: true, current: true });
    expect(await signedIn(cookie)).toBe(false);
  });

  it("cannot end another person's session, and refuses a malformed reference or no sign-in", async () => {
    const victim = await browserSignsIn("+2348030000106", ANDROID);
    const [theirs] = await list(victim);
    const { cookie: stranger } = await anonymousSession();
    const res = await call(`/api/security/sessions/${theirs.ref}`, { method: "DELETE", cookie: stranger });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No such session", code: "session_not_found" });
    expect(await signedIn(victim)).toBe(true);
    const bad = await call("/api/security/sessions/not-a-ref!", { method: "DELETE", cookie: stranger });
    expect(bad.status).toBe(400);
    expect((await call("/api/security/sessions")).status).toBe(401);
  });
});
