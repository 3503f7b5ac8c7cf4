// Two-factor authentication (issue 15): TOTP checked against RFC 6238's own test vectors at their times,
// single-use codes and backup codes, a lock after five wrong codes, and the second step of every new sign-in.
import { env } from "cloudflare:test";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db";
import { createUser } from "../../db/queries/users";
import { twoFactor } from "../../db/schema";
import { anonymousSession, call, signInByCode } from "../../tests/workers/helpers";
import { enableTwoFactor, proveSecondFactor } from "./two-factor";

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890"; the 6-digit ends of its 8-digit answers.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const AT_59 = new Date(59_000);
const AT_1111111109 = new Date(1_111_111_109_000);

async function userWithRfcSecret() {
  const db = createDb(env);
  const user = await createUser(db);
  await db.insert(twoFactor).values({ userId: user.id, secret: RFC_SECRET });
  return { db, user };
}

const totpNow = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

/** A fresh browser signs in with the phone; its cookie and the verify answer. */
async function signIn(phone: string) {
  const signed = await signInByCode(phone);
  expect(signed.status).toBe(200);
  return signed;
}

describe("two-factor codes (RFC 6238)", () => {
  it("accept the RFC's codes at its times, each once, and give 10 backup codes on enabling", async () => {
    const { db, user } = await userWithRfcSecret();
    const enabled = await enableTwoFactor(env, db, user.id, "287082", AT_59);
    expect(enabled.ok).toBe(true);
    if (!enabled.ok) return;
    expect(enabled.backupCodes).toHaveLength(10);
    expect(new Set(enabled.backupCodes).size).toBe(10);
    // The same code again, in the same 30 seconds, is refused: a watched code cannot be replayed.
    expect(await proveSecondFactor(env, db, user.id, "287082", AT_59)).toMatchObject({ ok: false, status: 400 });
    expect(await proveSecondFactor(env, db, user.id, "081804", AT_1111111109)).toEqual({ ok: true, usedBackup: false });
    expect(await proveSecondFactor(env, db, user.id, "081805", AT_1111111109)).toMatchObject({ ok: false, status: 400, attemptsLeft: 4 });
  });

  it("refuse a code from outside the one-step window", async () => {
    const { db, user } = await userWithRfcSecret();
    expect(await enableTwoFactor(env, db, user.id, "287082", new Date(59_000 + 120_000))).toMatchObject({ ok: false, status: 400 });
  });

  it("spend each backup code once", async () => {
    const { db, user } = await userWithRfcSecret();
    const enabled = await enableTwoFactor(env, db, user.id, "287082", AT_59);
    if (!enabled.ok) throw new Error("not enabled");
    const [first] = enabled.backupCodes;
    expect(await proveSecondFactor(env, db, user.id, first.toUpperCase(), AT_1111111109)).toEqual({ ok: true, usedBackup: true });
    expect(await proveSecondFactor(env, db, user.id, first, AT_1111111109)).toMatchObject({ ok: false, status: 400 });
    const stored = await env.DB.prepare("select code_hash from backup_codes where user_id = ?").bind(user.id).all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    for (const r of stored.results) for (const c of enabled.backupCodes) expect(r.code_hash).not.toContain(c.replace("-", ""));
  });

  it("keep a secret written before sealing working, and seal it on first use", async () => {
    const { db, user } = await userWithRfcSecret();
    expect(await enableTwoFactor(env, db, user.id, "287082", AT_59)).toMatchObject({ ok: true });
    const row = await env.DB.prepare("select secret from two_factor where user_id = ?").bind(user.id).first<{ secret: string }>();
    expect(row!.secret).not.toContain(RFC_SECRET);
    expect(row!.secret.startsWith("v1.")).toBe(true);
    expect(await proveSecondFactor(env, db, user.id, "081804", AT_1111111109)).toEqual({ ok: true, usedBackup: false });
  });

  it("sign in once when the same right code arrives ten times at once", async () => {
    const { db, user } = await userWithRfcSecret();
    await enableTwoFactor(env, db, user.id, "287082", AT_59);
    const answers = await Promise.all(Array.from({ length: 10 }, () => proveSecondFactor(env, db, user.id, "081804", AT_1111111109)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
  });

  it("give a guesser who retries all day long no more than 35 tries, with longer pauses each time", async () => {
    const { db, user } = await userWithRfcSecret();
    await enableTwoFactor(env, db, user.id, "287082", AT_59);
    const start = AT_1111111109.getTime();
    let t = start;
    const pauses: number[] = [];
    while (t < start + 24 * 3600_000) {
      const r = await proveSecondFactor(env, db, user.id, "000000", new Date(t));
      if (r.ok) throw new Error("a wrong code passed");
      if (r.status === 429) {
        pauses.push(r.retryAfterSeconds!);
        t += r.retryAfterSeconds! * 1000;
      }
    }
    const row = await env.DB.prepare("select failed_attempts from two_factor where user_id = ?")
      .bind(user.id)
      .first<{ failed_attempts: number }>();
    expect(row!.failed_attempts).toBeLessThanOrEqual(35);
    expect(pauses.slice(0, 4)).toEqual([900, 1800, 3600, 7200]);
    // A right code ends the pauses' growth: the next wrong one starts again at five tries.
    const after = t + 86_400_000;
    expect(
      await proveSecondFactor(
        env,
        db,
        user.id,
        new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(RFC_SECRET), digits: 6, period: 30 }).generate({ timestamp: after }),
        new Date(after),
      ),
    ).toMatchObject({ ok: true });
    expect(await proveSecondFactor(env, db, user.id, "000000", new Date(after + 60_000))).toMatchObject({ status: 400, attemptsLeft: 4 });
  });

  it("lock after five wrong codes, even against the right one", async () => {
    const { db, user } = await userWithRfcSecret();
    await enableTwoFactor(env, db, user.id, "287082", AT_59);
    for (let i = 0; i < 4; i++) expect(await proveSecondFactor(env, db, user.id, "000000", AT_1111111109)).toMatchObject({ status: 400 });
    expect(await proveSecondFactor(env, db, user.id, "000000", AT_1111111109)).toMatchObject({ status: 429, retryAfterSeconds: 900 });
    expect(await proveSecondFactor(env, db, user.id, "081804", AT_1111111109)).toMatchObject({ ok: false, status: 429 });
  });
});

describe("two-factor through the API", () => {
  it("enrols with a QR code and secret, is on only after a code, and asks for a second code at the next sign-in", async () => {
    const phone = "+2348030000201";
    const { cookie } = await signIn(phone);
    const setup = await call("/api/security/two-factor/setup", { method: "POST", cookie, json: {} });
    expect(setup.status).toBe(200);
    const { setup: s } = await setup.json<{ setup: { secret: string; otpauthUrl: string; qrSvg: string } }>();
    expect(s.qrSvg.startsWith("<svg")).toBe(true);
    expect(s.otpauthUrl).toContain(`secret=${s.secret}`);
    // At rest the secret is sealed: the row is not the base32 secret the app was given.
    const stored = await env.DB.prepare("select t.secret from two_factor t join users u on u.id = t.user_id where u.phone = ?")
      .bind(phone)
      .first<{ secret: string }>();
    expect(stored!.secret).not.toContain(s.secret);
    // Not on yet: a sign-in now needs only the phone code.
    expect((await signIn(phone)).body.user).toBeTruthy();

    const wrong = await call("/api/security/two-factor/enable", { method: "POST", cookie, json: { code: "123456" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "Invalid code. Please try again.", code: "two_factor_wrong_code", attemptsLeft: 4 });
    const on = await call("/api/security/two-factor/enable", { method: "POST", cookie, json: { code: totpNow(s.secret) } });
    const { backupCodes } = await on.json<{ backupCodes: string[] }>();
    expect(backupCodes).toHaveLength(10);
    expect(await (await call("/api/security/two-factor", { cookie })).json()).toEqual({ enabled: true, backupCodesLeft: 10, setup: null });

    // A new sign-in: the phone code alone signs in to nothing.
    const next = await signIn(phone);
    expect(next.body).toEqual({ secondFactorRequired: true, merged: false, methods: { code: true, passkey: false } });
    expect((await call("/api/me", { cookie: next.cookie })).status).toBe(401);
    expect((await call("/api/security/sessions", { cookie: next.cookie })).status).toBe(401);
    const bad = await call("/api/auth/second-factor", { method: "POST", cookie: next.cookie, json: { code: "000000" } });
    expect(bad.status).toBe(400);
    const good = await call("/api/auth/second-factor", { method: "POST", cookie: next.cookie, json: { code: backupCodes[0] } });
    expect(good.status).toBe(200);
    const full = good.headers.getSetCookie()[0].split(";")[0];
    expect((await call("/api/me", { cookie: full })).status).toBe(200);
    expect((await (await call("/api/security/two-factor", { cookie: full })).json<{ backupCodesLeft: number }>()).backupCodesLeft).toBe(9);
    // The half-signed-in token is gone.
    expect((await call("/api/auth/second-factor", { method: "POST", cookie: next.cookie, json: { code: backupCodes[1] } })).status).toBe(
      400,
    );

    // Turning it off takes a code too.
    expect((await call("/api/security/two-factor/disable", { method: "POST", cookie: full, json: { code: "000000" } })).status).toBe(400);
    const off = await call("/api/security/two-factor/disable", { method: "POST", cookie: full, json: { code: backupCodes[2] } });
    expect(await off.json()).toEqual({ enabled: false });
    expect((await signIn(phone)).body.user).toBeTruthy();
    // Four sign-ins through the real flow: slow on a shared machine.
  }, 20_000);

  it("check at most five of 100 wrong codes sent at once, and answer the rest 429 with Retry-After", async () => {
    const phone = "+2348030000202";
    const { cookie } = await signIn(phone);
    const setup = await call("/api/security/two-factor/setup", { method: "POST", cookie, json: {} });
    const { setup: s } = await setup.json<{ setup: { secret: string } }>();
    expect((await call("/api/security/two-factor/enable", { method: "POST", cookie, json: { code: totpNow(s.secret) } })).status).toBe(200);
    const pending = await signIn(phone);
    expect(pending.body.secondFactorRequired).toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        call("/api/auth/second-factor", { method: "POST", cookie: pending.cookie, json: { code: "000000" } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((st) => st === 400).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((st) => st === 429).length).toBeGreaterThanOrEqual(96);
    expect(statuses.every((st) => st === 400 || st === 429)).toBe(true);
    for (const a of answers.filter((x) => x.status === 429)) expect(Number(a.headers.get("Retry-After"))).toBeGreaterThan(0);
    const row = await env.DB.prepare("select t.failed_attempts from two_factor t join users u on u.id = t.user_id where u.phone = ?")
      .bind(phone)
      .first<{ failed_attempts: number }>();
    expect(row!.failed_attempts).toBe(5);
  }, 20_000);

  it("needs a verified phone to set up, and refuses a second-factor call with no sign-in waiting", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/security/two-factor/setup", { method: "POST", cookie, json: {} });
    expect(res.status).toBe(403);
    const none = await call("/api/auth/second-factor", { method: "POST", cookie, json: { code: "123456" } });
    expect(await none.json()).toEqual({ error: "No sign-in is waiting for a second code", code: "no_sign_in_waiting" });
  });
});
