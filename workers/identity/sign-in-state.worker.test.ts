// Sign-in is one state machine (issue 27, findings 1 and 2; docs/decisions/046-sign-in-is-one-state-machine.md):
// a phone code proves the phone, the second factor proves the person, and nothing about an account changes until
// both are proven. The attack these tests replay: a victim's phone code (SIM swap, phishing) typed from an identity
// the attacker controls, in the hope that the merge hands the victim's account to the attacker's other browsers.
import { env } from "cloudflare:test";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { adminSession, anonymousSession, call, latestCode, pastResendWait, verifiedSession } from "../../tests/workers/helpers";

const cookieOf = (res: Response) => res.headers.getSetCookie()[0]?.split(";")[0] ?? "";
const totp = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });

/** Turns two-factor on for a signed-in person through the API; answers the secret and the backup codes. */
async function enableTotp(cookie: string) {
  const setup = await call("/api/security/two-factor/setup", { method: "POST", cookie, json: {} });
  const { setup: s } = await setup.json<{ setup: { secret: string } }>();
  const on = await call("/api/security/two-factor/enable", { method: "POST", cookie, json: { code: totp(s.secret).generate() } });
  expect(on.status).toBe(200);
  const { backupCodes } = await on.json<{ backupCodes: string[] }>();
  return { secret: s.secret, backupCodes };
}

/** A browser's push subscription keys: a real P-256 public key and a 16-byte secret, base64url. */
async function pushKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const b64url = (b: ArrayBuffer | Uint8Array) =>
    btoa(String.fromCharCode(...new Uint8Array(b)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  return { p256dh: b64url(await crypto.subtle.exportKey("raw", pair.publicKey)), auth: b64url(crypto.getRandomValues(new Uint8Array(16))) };
}

/** The attacker's first browser asks for a code to the victim's phone while anonymous; the code is intercepted. */
async function interceptCode(victimLocal: string, victimE164: string) {
  await pastResendWait(victimE164);
  const browser1 = await anonymousSession();
  const reg = await call("/api/auth/register", { method: "POST", cookie: browser1.cookie, json: { phoneNumber: victimLocal } });
  expect(reg.status).toBe(200);
  return { browser1, code: await latestCode(victimE164) };
}

describe("the account merge and the second factor", () => {
  it.each([
    ["a person", () => verifiedSession("0806", "Victim"), "08061234567"],
    ["an admin", adminSession, "08061234568"],
  ])(
    "refuses %s's code typed from an identity verified with another number: no browser becomes them",
    async (_, victimOf, attackerLocal) => {
      const victim = await victimOf();
      await enableTotp(victim.cookie);
      const { browser1, code } = await interceptCode(victim.local, victim.phone);

      // Browser 1 verifies the attacker's own phone and makes an API key; browser 2 signs in to that account.
      const attackerE164 = `+234${attackerLocal.slice(1)}`;
      await call("/api/auth/register", { method: "POST", cookie: browser1.cookie, json: { phoneNumber: attackerLocal } });
      const own = await call("/api/auth/verify", {
        method: "POST",
        cookie: browser1.cookie,
        json: { phoneNumber: attackerLocal, code: await latestCode(attackerE164) },
      });
      expect(own.status).toBe(200);
      const attacker1 = cookieOf(own);
      const key = await (await call("/api/api-keys", { method: "POST", cookie: attacker1, json: { name: "k" } })).json<{ key: string }>();
      await pastResendWait();
      const browser2 = await anonymousSession();
      await call("/api/auth/register", { method: "POST", cookie: browser2.cookie, json: { phoneNumber: attackerLocal } });
      const signed2 = await call("/api/auth/verify", {
        method: "POST",
        cookie: browser2.cookie,
        json: { phoneNumber: attackerLocal, code: await latestCode(attackerE164) },
      });
      const attacker2 = cookieOf(signed2);
      const attackerId = (await signed2.json<{ user: { id: string } }>()).user.id;

      // The replay of the intercepted code: refused, as /register refuses a second number.
      const replay = await call("/api/auth/verify", { method: "POST", cookie: attacker1, json: { phoneNumber: victim.local, code } });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ reason: "already_verified" });

      // Browser 2 and the API key are still the attacker; the victim still has their own account.
      const me2 = await (await call("/api/me", { cookie: attacker2 })).json<{ user: { id: string; phone: string; role: string } }>();
      expect(me2.user).toMatchObject({ id: attackerId, phone: attackerE164, role: "user" });
      expect((await call("/api/admin/sql", { method: "POST", cookie: attacker2, json: { query: "select 1" } })).status).toBe(403);
      const byKey = await (await call("/api/me", { headers: { authorization: `Bearer ${key.key}` } })).json<{ user: { id: string } }>();
      expect(byKey.user.id).toBe(attackerId);
      const meVictim = await (await call("/api/me", { cookie: victim.cookie })).json<{ user: { id: string } }>();
      expect(meVictim.user.id).toBe(victim.id);
      await env.DB.prepare("delete from two_factor where user_id = ?").bind(victim.id).run();
    },
    20_000,
  );

  it("changes nothing on a two-factor account until the second factor is proven: no merge, contact, push or session", async () => {
    const victim = await verifiedSession("0806", "Victim");
    const { backupCodes } = await enableTotp(victim.cookie);
    const { browser1, code } = await interceptCode(victim.local, victim.phone);
    // The anonymous identity that will type the code plants what an attacker would want carried over.
    const contact = await call("/api/contacts", {
      method: "POST",
      cookie: browser1.cookie,
      json: { name: "Mallory", phone: "+2348069999999" },
    });
    expect(contact.status, await contact.clone().text()).toBeLessThan(300);
    const push = await call("/api/push/subscribe", {
      method: "POST",
      cookie: browser1.cookie,
      json: { endpoint: "https://push.attacker-relay.net/abc", keys: await pushKeys() },
    });
    expect(push.status, await push.clone().text()).toBeLessThan(300);

    const verify = await call("/api/auth/verify", { method: "POST", cookie: browser1.cookie, json: { phoneNumber: victim.local, code } });
    expect(verify.status).toBe(200);
    expect(await verify.json()).toEqual({ secondFactorRequired: true, merged: false, methods: { code: true, passkey: false } });
    const pending = cookieOf(verify);
    // The waiting session lasts minutes, not the month of a full one.
    expect(verify.headers.getSetCookie()[0]).toMatch(/Max-Age=900\b/);

    const rows = async (q: string) => (await env.DB.prepare(q).bind(victim.id).all()).results.length;
    expect(await rows("select 1 from emergency_contacts where user_id = ? and phone = '+2348069999999'")).toBe(0);
    expect(await rows("select 1 from push_subscriptions where user_id = ? and endpoint like '%attacker%'")).toBe(0);
    // The anonymous identity still exists on its own; the victim has their one full session.
    expect((await env.DB.prepare("select 1 from users where id = ?").bind(browser1.user.id).first()) !== null).toBe(true);
    expect(await rows("select 1 from sessions where user_id = ? and second_factor_pending = 0")).toBe(1);
    expect((await call("/api/me", { cookie: pending })).status).toBe(401);

    // Once the person proves the second factor, the browser that did both is the account, and only then merges.
    const done = await call("/api/auth/second-factor", { method: "POST", cookie: pending, json: { code: backupCodes[0] } });
    expect(done.status).toBe(200);
    const full = cookieOf(done);
    expect((await (await call("/api/me", { cookie: full })).json<{ user: { id: string } }>()).user.id).toBe(victim.id);
    expect(await rows("select 1 from emergency_contacts where user_id = ? and phone = '+2348069999999'")).toBe(1);
    expect((await env.DB.prepare("select 1 from users where id = ?").bind(browser1.user.id).first()) === null).toBe(true);
  }, 20_000);

  it("does not make an attacker admin through a two-factor admin's phone code", async () => {
    const admin = await adminSession();
    await enableTotp(admin.cookie);
    const { browser1, code } = await interceptCode(admin.local, admin.phone);
    const verify = await call("/api/auth/verify", { method: "POST", cookie: browser1.cookie, json: { phoneNumber: admin.local, code } });
    expect(await verify.json()).toMatchObject({ secondFactorRequired: true, merged: false });
    const pending = cookieOf(verify);
    const sql = await call("/api/admin/sql", { method: "POST", cookie: pending, json: { query: "select count(*) from users" } });
    expect(sql.status).toBe(401);
    // Guessing the second factor does not get far: the lock holds, and the session never becomes the admin.
    for (let i = 0; i < 6; i++) await call("/api/auth/second-factor", { method: "POST", cookie: pending, json: { code: "000000" } });
    expect((await call("/api/me", { cookie: pending })).status).toBe(401);
    expect((await call("/api/admin/sql", { method: "POST", cookie: pending, json: { query: "select 1" } })).status).toBe(401);
    // Turn it off again for the other tests of this file that sign the admin in (they share one database).
    await env.DB.prepare("delete from two_factor where user_id = ?").bind(admin.id).run();
  }, 20_000);

  it("finishes a waiting sign-in once however many proofs race: one full session", async () => {
    const person = await verifiedSession("0806", "Racer");
    const { backupCodes } = await enableTotp(person.cookie);
    const { browser1, code } = await interceptCode(person.local, person.phone);
    const verify = await call("/api/auth/verify", { method: "POST", cookie: browser1.cookie, json: { phoneNumber: person.local, code } });
    const pending = cookieOf(verify);
    const answers = await Promise.all(
      backupCodes.map((c) => call("/api/auth/second-factor", { method: "POST", cookie: pending, json: { code: c } })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const full = await env.DB.prepare("select count(*) as n from sessions where user_id = ? and second_factor_pending = 0")
      .bind(person.id)
      .first<{ n: number }>();
    // The person's first browser and the one that finished signing in.
    expect(full?.n).toBe(2);
  }, 20_000);
});
