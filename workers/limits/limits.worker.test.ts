// Limits per client address through the real Worker and D1: anonymous session starts per hour, the anonymous
// AI budget per day, and public figures that count people, not sessions (issue 11).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db";
import { call, signInByCode } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { ADDRESS_LIMITS, ANON_AI_BUDGET_SPENT, addressLimit, TOO_MANY_SESSIONS, takeAddressToken } from "./index";

const appEnv = env as unknown as AppEnv;
const db = createDb(appEnv);
let seq = 1;
/** A fresh documentation address (RFC 5737) per test. */
const newAddress = () => `198.51.100.${seq++}`;

const startFrom = (address: string) => call("/api/auth/anonymous", { method: "POST", headers: { "cf-connecting-ip": address } });
const cookieOf = (res: Response) => res.headers.getSetCookie()[0]?.split(";")[0] ?? "";

async function ask(cookie: string, address: string) {
  return call("/api/ai/chat", { method: "POST", cookie, headers: { "cf-connecting-ip": address }, json: { message: "market rice" } });
}

describe("anonymous sessions per client address", () => {
  it("refuses more than the hourly limit from one address with 429, Retry-After and the error envelope", { timeout: 30_000 }, async () => {
    const address = newAddress();
    const limit = addressLimit(appEnv, "anonSession");
    for (let i = 0; i < limit; i++) expect((await startFrom(address)).status).toBe(201);
    const refused = await startFrom(address);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toEqual({ error: TOO_MANY_SESSIONS, code: "too_many_sessions", retryAfterSeconds: retryAfter });
    // A first visit asking for a code would start a session too: held back the same way.
    const register = await call("/api/auth/register", {
      method: "POST",
      headers: { "cf-connecting-ip": address },
      json: { phoneNumber: "08031230000" },
    });
    expect(register.status).toBe(429);
    // Another address is not held back.
    expect((await startFrom(newAddress())).status).toBe(201);
  });

  it("counts in windows: the next hour starts afresh (controlled clock)", async () => {
    const address = newAddress();
    const limit = addressLimit(appEnv, "anonSession");
    const t0 = new Date("2026-04-01T10:00:00Z");
    for (let i = 0; i < limit; i++) expect((await takeAddressToken(appEnv, db, "anonSession", address, t0)).ok).toBe(true);
    expect(await takeAddressToken(appEnv, db, "anonSession", address, new Date(t0.getTime() + 59 * 60_000))).toEqual({
      ok: false,
      retryAfterSeconds: 60,
    });
    expect(
      (await takeAddressToken(appEnv, db, "anonSession", address, new Date(t0.getTime() + ADDRESS_LIMITS.anonSession.windowMs))).ok,
    ).toBe(true);
  });
});

describe("the anonymous AI budget per client address", () => {
  // About twenty requests through the assistant: more than the default 5 s on a busy machine.
  it("is not reset by starting new anonymous sessions, and does not hold back a verified user", { timeout: 60_000 }, async () => {
    const address = newAddress();
    const budget = addressLimit(appEnv, "anonAi");
    let used = 0;
    // Anonymous sessions from one address, each using its own free allowance until the address's budget is spent.
    for (let sessions = 0; used < budget && sessions < addressLimit(appEnv, "anonSession") - 1; sessions++) {
      const started = await startFrom(address);
      expect(started.status).toBe(201);
      const cookie = cookieOf(started);
      while (used < budget && (await ask(cookie, address)).status === 200) used++;
    }
    expect(used).toBe(budget);
    const fresh = cookieOf(await startFrom(address));
    const refused = await ask(fresh, address);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: ANON_AI_BUDGET_SPENT, code: "anonymous_ai_spent", offer: "limit_reached" });
    // The refused command was not charged to the new session.
    const usage = await (await call("/api/ai/usage", { cookie: fresh })).json<{ aiCommands: { used: number } }>();
    expect(usage.aiCommands.used).toBe(0);

    // Anonymous visitors elsewhere still have theirs.
    const elsewhere = newAddress();
    expect((await ask(cookieOf(await startFrom(elsewhere)), elsewhere)).status).toBe(200);

    // A verified person on the same network has their own allowance.
    const phone = `+234803${String(Date.now() % 1e7).padStart(7, "0")}`;
    const verified = await signInByCode(phone, { cookie: fresh });
    expect(verified.status).toBe(200);
    expect((await ask(verified.cookie, address)).status).toBe(200);
  });
});

describe("public figures", () => {
  it("count people who did something, not bare anonymous sessions", async () => {
    // The figures are kept a minute in the edge cache (workers/admin/edge-cache.ts): each reading here is fresh.
    const stats = async () => {
      await (caches as unknown as { default: Cache }).default.delete(new Request("https://linkup.internal/public-stats"));
      return (await (await call("/api/stats/public")).json<{ users: number }>()).users;
    };
    const before = await stats();
    for (let i = 0; i < 3; i++) await startFrom(newAddress());
    expect(await stats()).toBe(before);
    const address = newAddress();
    expect((await ask(cookieOf(await startFrom(address)), address)).status).toBe(200);
    expect(await stats()).toBe(before + 1);
  });
});

describe("public figures on the landing page", () => {
  it("are counted at most once a minute, not on every load", async () => {
    const edge = (caches as unknown as { default: Cache }).default;
    await edge.delete(new Request("https://linkup.internal/public-stats"));
    const first = await (await call("/api/stats/public")).json<{ users: number }>();
    const address = newAddress();
    expect((await ask(cookieOf(await startFrom(address)), address)).status).toBe(200);
    // A new person on LinkUp, but the minute is not over: the same figures, from the cache.
    expect(await (await call("/api/stats/public")).json()).toEqual(first);
    await edge.delete(new Request("https://linkup.internal/public-stats"));
    expect((await (await call("/api/stats/public")).json<{ users: number }>()).users).toBe(first.users + 1);
  });
});
