// Phone verification through the real Worker and D1: code rules, limits, the merge on verify, roles.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VERIFICATION } from "../../core/identity";
import { createDb } from "../../db";
import { anonymousSession, call, latestCode, pastResendWait } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { confirmVerification, startVerification } from "./verification";

const appEnv = env as unknown as AppEnv;
const db = createDb(appEnv);
const twilioEnv = {
  ...appEnv,
  TWILIO_ACCOUNT_SID: "AC_test",
  TWILIO_WHATSAPP_FROM: "whatsapp:+14155238886",
  TWILIO_SMS_FROM: "+14155238887",
  TWILIO_API_BASE: "https://twilio.test",
} as AppEnv;

afterEach(() => vi.restoreAllMocks());

let phoneSeq = 100;
/** A fresh Nigerian number per test, in the local written form, with its normalised twin. */
function newPhone() {
  const local = `0803${String(4_000_000 + phoneSeq++).padStart(7, "0")}`;
  return { local, e164: `+234${local.slice(1)}` };
}

function wrongCode(code: string) {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0");
}

async function register(cookie: string | undefined, phoneNumber: string, extra: Record<string, unknown> = {}) {
  return call("/api/auth/register", { method: "POST", cookie, json: { phoneNumber, nickname: "Chidi", ...extra } });
}

async function verify(cookie: string, phoneNumber: string, code: string) {
  return call("/api/auth/verify", { method: "POST", cookie, json: { phoneNumber, code } });
}

const cookieOf = (res: Response) => res.headers.getSetCookie()[0]?.split(";")[0];

async function me(cookie: string) {
  const res = await call("/api/me", { cookie });
  return { status: res.status, user: res.status === 200 ? (await res.json<{ user: Record<string, unknown> }>()).user : null };
}

/** Anonymous user verified with a phone over HTTP; returns the signed-in cookie. */
async function verifiedUser(phone = newPhone()) {
  const { cookie } = await anonymousSession();
  expect((await register(cookie, phone.local)).status).toBe(200);
  const res = await verify(cookie, phone.local, await latestCode(phone.e164));
  expect(res.status).toBe(200);
  return { cookie: cookieOf(res)!, phone, user: (await res.json<{ user: { id: string } }>()).user };
}

describe("POST /api/auth/register", () => {
  it("sends a 6-digit code over WhatsApp to the normalised phone and stores only its hash", async () => {
    const { cookie } = await anonymousSession();
    const phone = newPhone();
    const res = await register(cookie, phone.local);
    expect(res.status).toBe(200);
    const { verification } = await res.json<{ verification: { phone: string; channel: string; expiresAt: string; resendAt: string } }>();
    expect(verification.phone).toBe(phone.e164);
    expect(verification.channel).toBe("whatsapp");
    expect(Date.parse(verification.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(verification.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const out = await env.DB.prepare('select channel, body from outbound_messages where "to" = ?')
      .bind(phone.e164)
      .first<{ channel: string; body: string }>();
    expect(out?.channel).toBe("whatsapp");
    const code = await latestCode(phone.e164);
    const rows = await env.DB.prepare("select * from verifications where phone = ?").bind(phone.e164).all();
    expect(rows.results).toHaveLength(1);
    expect(JSON.stringify(rows.results)).not.toContain(code);
    // The nickname typed in the flow is the requesting user's.
    expect((await me(cookie)).user?.nickname).toBe("Chidi");
  });

  it("sends by SMS when asked", async () => {
    const phone = newPhone();
    const res = await register(undefined, phone.local, { channel: "sms" });
    expect(res.status).toBe(200);
    const out = await env.DB.prepare('select channel from outbound_messages where "to" = ?').bind(phone.e164).first<{ channel: string }>();
    expect(out?.channel).toBe("sms");
  });

  it("starts an anonymous session for a first visit, which then verifies", async () => {
    const phone = newPhone();
    const res = await register(undefined, phone.local);
    expect(res.status).toBe(200);
    const cookie = cookieOf(res)!;
    expect(cookie).toMatch(/^linkup_session=/);
    expect((await me(cookie)).user).toMatchObject({ authMode: "anonymous", nickname: "Chidi" });
    const ok = await verify(cookie, phone.local, await latestCode(phone.e164));
    expect(ok.status).toBe(200);
    expect((await ok.json<{ user: { authMode: string; phone: string } }>()).user).toMatchObject({
      authMode: "verified",
      phone: phone.e164,
    });
  });

  it("refuses an empty phone, a wrong channel, malformed JSON and a foreign Origin", async () => {
    const empty = await register(undefined, "  ");
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "Please enter your phone number to continue" });
    const channel = await register(undefined, newPhone().local, { channel: "telegram" });
    expect(channel.status).toBe(400);
    expect((await channel.json<{ error: string }>()).error).toContain("channel");
    const malformed = await call("/api/auth/register", { method: "POST", body: "{phone", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "Malformed JSON body", code: "malformed_json" });
    const foreign = await call("/api/auth/register", {
      method: "POST",
      json: { phoneNumber: newPhone().local },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
  });

  it("refuses a new code within 60 seconds, with the wait", async () => {
    const { cookie } = await anonymousSession();
    const phone = newPhone();
    expect((await register(cookie, phone.local)).status).toBe(200);
    const again = await register(cookie, phone.local);
    expect(again.status).toBe(429);
    const body = await again.json<{ error: string; retryAfterSeconds: number }>();
    expect(body.error).toMatch(/^Please wait \d+ seconds before requesting a new code\.$/);
    expect(body.retryAfterSeconds).toBeGreaterThan(50);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(Number(again.headers.get("retry-after"))).toBe(body.retryAfterSeconds);
  });

  it("sends through Twilio's REST API when it is configured", async () => {
    const { user } = await anonymousSession();
    const phone = newPhone();
    const sent: { url: string; auth: string | null; form: URLSearchParams }[] = [];
    // Twilio is faked only at the outbound fetch edge.
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({
        url: String(input),
        auth: new Headers(init?.headers).get("authorization"),
        form: new URLSearchParams(String(init?.body)),
      });
      return Response.json({ sid: "SM123" }, { status: 201 });
    });
    const r = await startVerification(twilioEnv, db, { phone: phone.local, channel: "whatsapp", ip: null, userId: user.id });
    expect(r.ok).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe("https://twilio.test/2010-04-01/Accounts/AC_test/Messages.json");
    expect(sent[0].auth).toBe(`Basic ${btoa("AC_test:test-twilio-auth-token")}`);
    expect(sent[0].form.get("To")).toBe(`whatsapp:${phone.e164}`);
    expect(sent[0].form.get("From")).toBe("whatsapp:+14155238886");
    const code = sent[0].form.get("Body")?.match(/\b(\d{6})\b/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(await confirmVerification(twilioEnv, db, { phone: phone.e164, code: code!, userId: user.id })).toMatchObject({ ok: true });
  });

  it("says honestly when the code could not be sent, and lets the person try again at once", async () => {
    const { user } = await anonymousSession();
    const phone = newPhone();
    // Twilio refuses the message (e.g. a number it cannot reach): nothing arrives.
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ code: 21211, message: "Invalid 'To' Phone Number" }, { status: 400 }),
    );
    const failed = await startVerification(twilioEnv, db, { phone: phone.local, channel: "sms", ip: null, userId: user.id });
    expect(failed).toMatchObject({ ok: false, status: 502, error: "Failed to send verification code. Please try again." });
    vi.restoreAllMocks();
    const retry = await startVerification(appEnv, db, { phone: phone.local, channel: "whatsapp", ip: null, userId: user.id });
    expect(retry.ok).toBe(true);
  });
});

describe("code rules", () => {
  it("refuses a code that is not 6 digits with the product's text", async () => {
    const { cookie } = await anonymousSession();
    const phone = newPhone();
    await register(cookie, phone.local);
    for (const code of ["12345", "1234567", "12a456", ""]) {
      const res = await verify(cookie, phone.local, code);
      expect(res.status).toBe(400);
      expect((await res.json<{ error: string }>()).error).toBe("Please enter a 6-digit verification code");
    }
  });

  it("verifies the session's user with the right code, once, and rotates the session", async () => {
    const { cookie } = await anonymousSession();
    const before = (await me(cookie)).user!;
    const phone = newPhone();
    await register(cookie, phone.local);
    const code = await latestCode(phone.e164);
    const res = await verify(cookie, phone.local, code);
    expect(res.status).toBe(200);
    const body = await res.json<{ user: Record<string, unknown>; merged: boolean }>();
    expect(body).toMatchObject({ merged: false, user: { id: before.id, authMode: "verified", phone: phone.e164, role: "user" } });
    const fresh = cookieOf(res)!;
    expect(fresh).not.toBe(cookie);
    expect((await me(fresh)).user).toMatchObject({ id: before.id, authMode: "verified" });
    expect((await me(cookie)).status).toBe(401);
    // The verified sign-in is a security event in the user's notification centre.
    const centre = await (await call("/api/notifications", { cookie: fresh })).json<{ notifications: { type: string; title: string }[] }>();
    expect(centre.notifications[0]).toMatchObject({ type: "security", title: "Phone verified" });
    // Single use: the same code does not work twice.
    const again = await verify(fresh, phone.local, code);
    expect(again.status).toBe(400);
    expect((await again.json<{ error: string }>()).error).toBe("Invalid verification code. Please try again.");
  });

  it("ends the code after 5 wrong tries, even for the right code afterwards", async () => {
    const { cookie } = await anonymousSession();
    const phone = newPhone();
    await register(cookie, phone.local);
    const code = await latestCode(phone.e164);
    for (let i = 1; i <= VERIFICATION.maxAttempts; i++) {
      const res = await verify(cookie, phone.local, wrongCode(code));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Invalid verification code. Please try again.", attemptsLeft: 5 - i });
    }
    const right = await verify(cookie, phone.local, code);
    expect(right.status).toBe(429);
    expect((await right.json<{ reason: string }>()).reason).toBe("too_many_attempts");
    expect((await me(cookie)).user?.authMode).toBe("anonymous");
  });

  it("accepts the right code on the fifth try", async () => {
    const { cookie } = await anonymousSession();
    const phone = newPhone();
    await register(cookie, phone.local);
    const code = await latestCode(phone.e164);
    for (let i = 0; i < 4; i++) expect((await verify(cookie, phone.local, wrongCode(code))).status).toBe(400);
    expect((await verify(cookie, phone.local, code)).status).toBe(200);
  });

  it("expires a code after 10 minutes (controlled clock)", async () => {
    const t0 = new Date("2026-03-01T10:00:00Z");
    const late = newPhone();
    const a = await anonymousSession();
    expect((await startVerification(appEnv, db, { phone: late.local, channel: "whatsapp", ip: null, userId: a.user.id, now: t0 })).ok).toBe(
      true,
    );
    const expired = await confirmVerification(appEnv, db, {
      phone: late.local,
      code: await latestCode(late.e164),
      userId: a.user.id,
      now: new Date(t0.getTime() + VERIFICATION.ttlMs),
    });
    expect(expired).toMatchObject({ ok: false, status: 400, reason: "expired" });
    expect(expired.ok || expired.error.startsWith("Invalid verification code. Please try again.")).toBe(true);

    const inTime = newPhone();
    const b = await anonymousSession();
    await startVerification(appEnv, db, { phone: inTime.local, channel: "sms", ip: null, userId: b.user.id, now: t0 });
    const ok = await confirmVerification(appEnv, db, {
      phone: inTime.local,
      code: await latestCode(inTime.e164),
      userId: b.user.id,
      now: new Date(t0.getTime() + VERIFICATION.ttlMs - 1000),
    });
    expect(ok).toMatchObject({ ok: true, merged: false });
  });

  it("only honours the newest code of a phone", async () => {
    const t0 = new Date("2026-03-02T10:00:00Z");
    const phone = newPhone();
    const { user } = await anonymousSession();
    await startVerification(appEnv, db, { phone: phone.local, channel: "whatsapp", ip: null, userId: user.id, now: t0 });
    const first = await latestCode(phone.e164);
    const later = new Date(t0.getTime() + 61_000);
    expect(
      (await startVerification(appEnv, db, { phone: phone.local, channel: "whatsapp", ip: null, userId: user.id, now: later })).ok,
    ).toBe(true);
    const second = await latestCode(phone.e164);
    if (first !== second) {
      expect(await confirmVerification(appEnv, db, { phone: phone.local, code: first, userId: user.id, now: later })).toMatchObject({
        ok: false,
        status: 400,
      });
    }
    expect(await confirmVerification(appEnv, db, { phone: phone.local, code: second, userId: user.id, now: later })).toMatchObject({
      ok: true,
    });
  });

  it("sends at most 5 codes per phone per hour to one requester", async () => {
    const t0 = new Date("2026-03-03T10:00:00Z");
    const phone = newPhone();
    const { user } = await anonymousSession();
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    for (let i = 0; i < 5; i++) {
      const r = await startVerification(appEnv, db, {
        phone: phone.local,
        channel: "whatsapp",
        ip: null,
        userId: user.id,
        now: at(i * 61),
      });
      expect(r.ok).toBe(true);
    }
    const sixth = await startVerification(appEnv, db, {
      phone: phone.local,
      channel: "whatsapp",
      ip: null,
      userId: user.id,
      now: at(5 * 61),
    });
    expect(sixth).toMatchObject({ ok: false, status: 429, reason: "phone_hourly_limit" });
    expect(sixth.ok ? "" : sixth.error).toMatch(/^Too many codes were sent to this number\. Please try again in \d+ minutes\.$/);
    // An hour after the first, a code may be sent again.
    const later = await startVerification(appEnv, db, {
      phone: phone.local,
      channel: "whatsapp",
      ip: null,
      userId: user.id,
      now: at(3601),
    });
    expect(later.ok).toBe(true);
  });

  it("limits codes per IP address per hour across phones", async () => {
    const t0 = new Date("2026-03-04T10:00:00Z");
    const { user } = await anonymousSession();
    const ip = "203.0.113.7";
    for (let i = 0; i < VERIFICATION.maxCodesPerIpPerHour; i++) {
      const r = await startVerification(appEnv, db, { phone: newPhone().local, channel: "sms", ip, userId: user.id, now: t0 });
      expect(r.ok).toBe(true);
    }
    const over = await startVerification(appEnv, db, { phone: newPhone().local, channel: "sms", ip, userId: user.id, now: t0 });
    expect(over).toMatchObject({ ok: false, status: 429, reason: "ip_limit" });
    // Another address is not held back.
    const other = await startVerification(appEnv, db, {
      phone: newPhone().local,
      channel: "sms",
      ip: "203.0.113.8",
      userId: user.id,
      now: t0,
    });
    expect(other.ok).toBe(true);
  });

  it("keeps the live code for the code-entry screen", async () => {
    const { cookie } = await anonymousSession();
    expect(await (await call("/api/auth/verification", { cookie })).json()).toEqual({ verification: null });
    const phone = newPhone();
    await register(cookie, phone.local, { channel: "sms" });
    const { verification } = await (await call("/api/auth/verification", { cookie })).json<{ verification: Record<string, string> }>();
    expect(verification).toMatchObject({ phone: phone.e164, channel: "sms" });
    expect(Date.parse(verification.resendAt) - Date.now()).toBeGreaterThan(50_000);
  });

  it("refuses a verified user asking to verify a different number", async () => {
    const { cookie } = await verifiedUser();
    const res = await register(cookie, newPhone().local);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain("already verified");
  });
});

describe("verifying a phone that already has an owner", () => {
  it("moves the session to the owner and merges the anonymous user's data", async () => {
    const owner = await verifiedUser();
    await call("/api/me", { method: "PATCH", cookie: owner.cookie, json: { language: "hausa", quietStart: "21:00", nickname: "Ngozi" } });

    // A second device starts anonymously and builds up some data.
    const { cookie, user: anon } = await anonymousSession();
    await call("/api/me", { method: "PATCH", cookie, json: { locationText: "Kano", interests: ["farming"] } });
    await env.DB.batch([
      env.DB.prepare("insert into rooms (id, kind, name) values (?, 'group', 'Farmers')").bind(`group:${anon.id}`),
      env.DB.prepare("insert into room_members (room_id, user_id) values (?, ?)").bind(`group:${anon.id}`, anon.id),
      env.DB.prepare("insert into device_keys (user_id, device_id, public_key) values (?, 'dev-2', 'pk-2')").bind(anon.id),
      env.DB.prepare("insert into emergency_contacts (id, user_id, name, phone) values (?, ?, 'Mama', '+2348030000000')").bind(
        `c-${anon.id}`,
        anon.id,
      ),
    ]);

    await pastResendWait(owner.phone.e164);
    expect((await register(cookie, owner.phone.local)).status).toBe(200);
    const res = await verify(cookie, owner.phone.local, await latestCode(owner.phone.e164));
    expect(res.status).toBe(200);
    const body = await res.json<{ user: Record<string, unknown>; merged: boolean }>();
    expect(body.merged).toBe(true);
    // The owner's identity and settings win; empty fields are filled from the anonymous user.
    expect(body.user).toMatchObject({
      id: owner.user.id,
      nickname: "Ngozi",
      authMode: "verified",
      locationText: "Kano",
      interests: ["farming"],
    });
    expect((body.user.settings as Record<string, unknown>).language).toBe("hausa");

    const signedIn = (await me(cookieOf(res)!)).user!;
    expect(signedIn.id).toBe(owner.user.id);
    // Both devices are the same person now.
    expect((await me(owner.cookie)).user?.id).toBe(owner.user.id);

    const q = (s: string, ...b: unknown[]) =>
      env.DB.prepare(s)
        .bind(...b)
        .first<{ n: number }>();
    expect((await q("select count(*) n from room_members where user_id = ?", owner.user.id))?.n).toBe(1);
    expect((await q("select count(*) n from device_keys where user_id = ?", owner.user.id))?.n).toBe(1);
    expect((await q("select count(*) n from emergency_contacts where user_id = ?", owner.user.id))?.n).toBe(1);
    expect((await q("select count(*) n from users where id = ?", anon.id))?.n).toBe(0);
    // The account heard of the new sign-in.
    const notes = await env.DB.prepare("select title, content from notifications where user_id = ? and type = 'security'")
      .bind(owner.user.id)
      .all<{ title: string; content: string }>();
    expect(notes.results).toContainEqual({
      title: "New sign-in to your account",
      content: `A browser on the LinkUp web app signed in with ${owner.phone.e164}. If this was not you, call support.`,
    });
  });

  it("never verifies a session with a code another session asked for", async () => {
    const owner = await verifiedUser();
    const attacker = await anonymousSession();
    await pastResendWait(owner.phone.e164);
    expect((await register(attacker.cookie, owner.phone.local)).status).toBe(200);
    const code = await latestCode(owner.phone.e164);
    // Whoever learns the code cannot use it from another browser.
    const other = await anonymousSession();
    const res = await verify(other.cookie, owner.phone.local, code);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toBe("Invalid verification code. Please try again.");
    expect((await me(other.cookie)).user).toMatchObject({ id: other.user.id, authMode: "anonymous" });
  });
});

describe("someone else asking for a person's phone", () => {
  it("neither cancels the person's live code nor spends their hourly limit", async () => {
    const t0 = new Date("2026-03-05T10:00:00Z");
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const phone = newPhone();
    const person = await anonymousSession();
    const start = (userId: string, s: number) =>
      startVerification(appEnv, db, { phone: phone.local, channel: "whatsapp", ip: null, userId, now: at(s) });
    expect((await start(person.user.id, 0)).ok).toBe(true);
    const code = await latestCode(phone.e164);

    // Another session asks for the same number as often as its own limit allows, right after.
    const other = await anonymousSession();
    for (let i = 0; i < VERIFICATION.maxCodesPerPhonePerHour; i++) expect((await start(other.user.id, 1 + i * 61)).ok).toBe(true);
    expect(await start(other.user.id, 1 + 5 * 61)).toMatchObject({ ok: false, reason: "phone_hourly_limit" });

    // The person's code still works, and they can still ask for new ones.
    expect(await confirmVerification(appEnv, db, { phone: phone.local, code, userId: person.user.id, now: at(330) })).toMatchObject({
      ok: true,
      user: { id: person.user.id },
    });
    const again = await anonymousSession();
    expect((await start(again.user.id, 331)).ok).toBe(true);
  });

  it("does not make the person wait for the 60-second resend of someone else's request", async () => {
    const phone = newPhone();
    const other = await anonymousSession();
    expect((await register(other.cookie, phone.local)).status).toBe(200);
    const person = await anonymousSession();
    expect((await register(person.cookie, phone.local)).status).toBe(200);
    // Each session still waits for its own resend.
    const res = await register(person.cookie, phone.local);
    expect(res.status).toBe(429);
    expect((await res.json<{ reason: string }>()).reason).toBe("resend_too_soon");
  });
});

describe("one phone, one account", () => {
  it("normalises every written form to the one number and never makes a second account for it", async () => {
    const phone = newPhone();
    const rest = phone.e164.slice(4); // the 10 digits after +234
    const first = await verifiedUser(phone);
    for (const written of [
      `+234 ${phone.local}`,
      `234${rest}`,
      rest,
      `(${phone.local.slice(0, 4)}) ${phone.local.slice(4, 7)}-${phone.local.slice(7)}`,
    ]) {
      const { cookie } = await anonymousSession();
      await pastResendWait(phone.e164);
      const reg = await register(cookie, written);
      expect(reg.status).toBe(200);
      expect((await reg.json<{ verification: { phone: string } }>()).verification.phone).toBe(phone.e164);
      const res = await verify(cookie, written, await latestCode(phone.e164));
      expect(res.status).toBe(200);
      expect((await res.json<{ user: { id: string } }>()).user.id).toBe(first.user.id);
    }
    const { n } = (await env.DB.prepare("select count(*) n from users where phone = ?").bind(phone.e164).first<{ n: number }>())!;
    expect(n).toBe(1);
  });

  it.each([
    ["80312345678", "11 digits without the leading 0"],
    ["0803 123 4567 ext 12", "an extension"],
    ["0803-CALL-ME", "letters"],
    ["080312345", "too short"],
  ])("refuses %s (%s) with one clear message", async (phoneNumber) => {
    const { cookie } = await anonymousSession();
    const res = await register(cookie, phoneNumber);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Please enter a valid phone number", reason: "invalid_phone" });
  });
});

describe("roles", () => {
  it("makes a phone listed in ADMIN_PHONES an admin when verified, in any written form", async () => {
    const phone = newPhone();
    const { cookie, user } = await anonymousSession();
    const adminEnv = { ...appEnv, ADMIN_PHONES: ` +1 555 0100, ${phone.local.replace(/(\d{4})(\d{3})/, "$1 $2 ")}` } as AppEnv;
    await startVerification(adminEnv, db, { phone: phone.local, channel: "whatsapp", ip: null, userId: user.id });
    const r = await confirmVerification(adminEnv, db, { phone: phone.local, code: await latestCode(phone.e164), userId: user.id });
    expect(r).toMatchObject({ ok: true, user: { role: "admin", authMode: "verified" } });
    expect((await me(cookie)).user).toMatchObject({ role: "admin", tier: "free", authMode: "verified" });
  });

  it("keeps other verified phones as users", async () => {
    const { user } = await verifiedUser();
    expect(user).toMatchObject({ role: "user" });
  });
});
