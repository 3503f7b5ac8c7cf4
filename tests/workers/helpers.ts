// Shared helpers for Worker integration tests: requests through the real Worker, with a session.
import { env, SELF } from "cloudflare:test";

export const ORIGIN = "http://localhost:5173";

export async function call(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  if (init.cookie) headers.set("cookie", init.cookie);
  const res = await SELF.fetch(`${ORIGIN}${path}`, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  return res;
}

/** Starts an anonymous user and returns the cookie that signs its requests. */
export async function anonymousSession(): Promise<{ cookie: string; user: { id: string; nickname: string } }> {
  const res = await call("/api/auth/anonymous", { method: "POST" });
  if (res.status !== 201) throw new Error(`anonymous start failed: ${res.status}`);
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  const { user } = (await res.json()) as { user: { id: string; nickname: string } };
  return { cookie, user };
}

/**
 * Twilio configured and faked at its HTTP edge (outbound fetch), for tests that run outside development where
 * the dev outbox does not exist. Answers every message with 201; `sent` holds what Twilio would have sent.
 */
export function fakeTwilio(spyOn: (fetchImpl: typeof fetch) => void) {
  const base = "http://twilio.loopback";
  const sent: { to: string; body: string }[] = [];
  const realFetch = globalThis.fetch;
  spyOn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(`${base}/`)) return realFetch(input, init);
    const form = new URLSearchParams(await req.text());
    sent.push({ to: form.get("To") ?? "", body: form.get("Body") ?? "" });
    return Response.json({ sid: `SM_fake_${sent.length}` }, { status: 201 });
  });
  const bindings = {
    TWILIO_ACCOUNT_SID: "AC22222222222222222222222222222222",
    TWILIO_AUTH_TOKEN: "test-twilio-auth-token",
    TWILIO_WHATSAPP_FROM: "+14155238886",
    TWILIO_SMS_FROM: "+14155238887",
    TWILIO_API_BASE: base,
  };
  return { bindings, sent };
}

let verifiedSeq = 0;
/**
 * A person verified by phone through the real flow (register, the code from the dev outbox, verify). `prefix`
 * keeps the phones of one test file apart from another's, e.g. "0805".
 */
export async function verifiedSession(prefix: string, nickname = "Ada") {
  return signInWithPhone(`${prefix}${String(3_000_000 + verifiedSeq++).padStart(7, "0")}`, nickname);
}

/** The admin phone of the test env (ADMIN_PHONES in vitest.workers.config.ts). */
export const ADMIN_LOCAL_PHONE = "08099990001";

/** An admin, made the way the service makes one: verifying a phone that ADMIN_PHONES names. */
export async function adminSession() {
  return signInWithPhone(ADMIN_LOCAL_PHONE, "Boss");
}

/**
 * Sets a person's tier through the staff API (a complimentary grant by an admin, or its end for "free"), never by
 * writing the database.
 */
export async function setTier(userId: string, tier: "free" | "premium" | "enterprise") {
  const admin = await adminSession();
  const res =
    tier === "free"
      ? await call(`/api/admin/subscriptions/complimentary/${userId}/end`, { method: "POST", cookie: admin.cookie })
      : await call("/api/admin/subscriptions/complimentary", {
          method: "POST",
          cookie: admin.cookie,
          json: { userId, tier, endsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), reason: "test" },
        });
  if (!res.ok) throw new Error(`setting the tier failed: ${res.status} ${await res.text()}`);
}

async function signInWithPhone(local: string, nickname: string) {
  const e164 = `+234${local.slice(1)}`;
  const { cookie } = await anonymousSession();
  const registered = await call("/api/auth/register", { method: "POST", cookie, json: { phoneNumber: local, nickname } });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.status}`);
  const res = await call("/api/auth/verify", { method: "POST", cookie, json: { phoneNumber: local, code: await latestCode(e164) } });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status}`);
  const signed = res.headers.getSetCookie()[0]?.split(";")[0] ?? cookie;
  const { user } = await res.json<{ user: { id: string } }>();
  return { cookie: signed, phone: e164, local, id: user.id };
}

/** Bans or unbans a person through the staff desk's API, as staff would. */
export async function setBanned(admin: { cookie: string }, userId: string, banned: boolean) {
  const res = await call(`/api/admin/people/${userId}/${banned ? "ban" : "unban"}`, {
    method: "POST",
    cookie: admin.cookie,
    json: banned ? { reason: "abuse" } : undefined,
  });
  if (res.status !== 200) throw new Error(`${banned ? "ban" : "unban"} failed: ${res.status}`);
}

let areaSeq = 0;
/**
 * Puts people in one area room (a position there, the room joined), so they know each other and a direct chat
 * between them opens at once rather than as a message request (docs/decisions/050-consent-before-a-stranger-reaches-you.md).
 */
export async function shareAnAreaRoom(...people: { cookie: string }[]) {
  // A different area each time (about 5 km apart), so tests do not fill one area room.
  const n = areaSeq++;
  const latitude = 4 + (n % 80) * 0.1 + Math.random() * 0.01;
  const longitude = 3 + Math.floor(n / 80) * 0.1 + Math.random() * 0.01;
  for (const p of people) {
    const placed = await call("/api/me/location", { method: "PUT", cookie: p.cookie, json: { latitude, longitude } });
    if (placed.status !== 200) throw new Error(`location failed: ${placed.status}`);
    const joined = await call("/api/rooms/nearby/join", { method: "POST", cookie: p.cookie });
    if (joined.status !== 200) throw new Error(`joining the area room failed: ${joined.status}`);
  }
}

/** The E.164 form of a test phone ("0803…" or "+234803…"). */
export function e164Of(phone: string): string {
  return phone.startsWith("0") ? `+234${phone.slice(1)}` : phone;
}

/** The text of the last message the dev outbox holds for a phone, if any. */
export async function lastMessageTo(phone: string): Promise<string | undefined> {
  const row = await env.DB.prepare('select body from outbound_messages where "to" = ? order by created_at desc, rowid desc limit 1')
    .bind(e164Of(phone))
    .first<{ body: string }>();
  return row?.body;
}

/** The last 6-digit code the dev outbox holds for a phone. */
export async function latestCode(phone: string): Promise<string> {
  const code = (await lastMessageTo(phone))?.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  return code;
}

/**
 * Ages a phone's earlier codes (every phone's without one) by two minutes, past the 60-second resend wait
 * (docs/product/identity.md): the one clock a test cannot wait out, so the one row a test writes itself.
 */
export async function pastResendWait(phone?: string): Promise<void> {
  if (phone) await env.DB.prepare("update verifications set created_at = created_at - 120000 where phone = ?").bind(e164Of(phone)).run();
  else await env.DB.prepare("update verifications set created_at = created_at - 120000").run();
}

/**
 * A browser (a new one unless `cookie` is given) proves the phone by code: past the resend wait, register,
 * the code from the outbox, verify. The verify answer, its body, and the session cookie it sets.
 */
export async function signInByCode(phone: string, opts: { cookie?: string; headers?: HeadersInit } = {}) {
  await pastResendWait(phone);
  const reg = await call("/api/auth/register", {
    method: "POST",
    cookie: opts.cookie,
    headers: opts.headers,
    json: { phoneNumber: phone },
  });
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  const browser = opts.cookie ?? reg.headers.getSetCookie()[0].split(";")[0];
  const res = await call("/api/auth/verify", {
    method: "POST",
    cookie: browser,
    headers: opts.headers,
    json: { phoneNumber: phone, code: await latestCode(phone) },
  });
  const cookie = res.headers.getSetCookie()[0]?.split(";")[0] ?? browser;
  return { status: res.status, cookie, body: await res.json<Record<string, unknown>>() };
}
