// SOS limits under parallel requests and the SOS area (docs/decisions/047-limits-taken-atomically.md): the
// person's hourly budget, the address's budget shared by anonymous identities, and an area far from where the
// sender was known to be, all through the real API.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeGeohash } from "../../core/geohash";
import { newId } from "../../core/ids";
import { createDb } from "../../db";
import { emergencyBroadcasts, users } from "../../db/schema";
import { anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import { MAX_SOS_PER_HOUR } from "./index";

const db = createDb(env);
const LAGOS = { latitude: 6.5244, longitude: 3.3792 };
const ABUJA = { latitude: 9.0765, longitude: 7.3986 };
const KANO = { latitude: 12.0022, longitude: 8.592 };
const PORT_HARCOURT = { latitude: 4.8156, longitude: 7.0498 };
const IBADAN = { latitude: 7.3775, longitude: 3.947 };
const REFUSED = "Too many SOS from you in the last hour. If you are in danger, call 112 or 199.";

// Push services are outside; nothing here needs their answer.
const realFetch = globalThis.fetch;
beforeEach(() => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.url.startsWith("https://updates.push.services.mozilla.com")) return new Response(null, { status: 201 });
    return realFetch(input, init);
  });
});
afterEach(() => vi.restoreAllMocks());

type Answer = { error?: string; id: string; created: boolean; room: string | null; areaWithheld: boolean };

async function sos(cookie: string, body: Record<string, unknown> = {}, ip?: string) {
  const res = await call("/api/emergency/broadcast", {
    method: "POST",
    cookie,
    headers: ip ? { "cf-connecting-ip": ip } : undefined,
    json: { message: "Armed men at the market", emergencyType: "security", clientRequestId: newId(), ...body },
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Answer };
}

async function at(cookie: string, where: { latitude: number; longitude: number }) {
  const res = await call("/api/me/location", { method: "PUT", cookie, json: where });
  expect(res.status).toBe(200);
}

async function notificationsOf(cookie: string) {
  const res = await call("/api/notifications", { cookie });
  return ((await res.json()) as { notifications: { type: string }[] }).notifications;
}

async function outboxTo(phone: string) {
  const res = await call("/api/dev/outbox?limit=200");
  const { messages } = (await res.json()) as { messages: { to: string; body: string }[] };
  return messages.filter((m) => m.to === phone);
}

function tally(results: { status: number }[]) {
  const by: Record<number, number> = {};
  for (const r of results) by[r.status] = (by[r.status] ?? 0) + 1;
  return by;
}

describe("SOS per person, under parallel requests", () => {
  it("100 parallel SOS from one person: exactly the hourly limit are sent, the rest get 429 with Retry-After", async () => {
    const s = await anonymousSession();
    const results = await Promise.all(Array.from({ length: 100 }, () => sos(s.cookie)));
    expect(tally(results)).toEqual({ 201: MAX_SOS_PER_HOUR, 429: 100 - MAX_SOS_PER_HOUR });
    for (const r of results.filter((r) => r.status === 429)) {
      expect(r.body.error).toBe(REFUSED);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(3600);
    }
    const rows = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, s.user.id));
    expect(rows).toHaveLength(MAX_SOS_PER_HOUR);
  });

  it("replays of one clientRequestId, even in parallel, spend one SOS of the hour and are answered from the record", async () => {
    const s = await anonymousSession();
    const clientRequestId = newId();
    const replays = await Promise.all(Array.from({ length: 30 }, () => sos(s.cookie, { clientRequestId })));
    expect(tally(replays)).toEqual({ 201: 1, 200: 29 });
    expect(new Set(replays.map((r) => r.body.id)).size).toBe(1);
    // The other nine of the hour are still there.
    const rest = await Promise.all(Array.from({ length: 20 }, () => sos(s.cookie)));
    expect(tally(rest)).toEqual({ 201: MAX_SOS_PER_HOUR - 1, 429: 20 - (MAX_SOS_PER_HOUR - 1) });
    // Past the limit a replay is still answered.
    const late = await sos(s.cookie, { clientRequestId });
    expect(late.status).toBe(200);
    expect(late.body.id).toBe(replays[0].body.id);
  });
});

describe("SOS per address", () => {
  it("anonymous identities from one address share one hourly budget; another address and a verified phone do not", async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, () => anonymousSession()));
    const results = await Promise.all(sessions.flatMap((s) => Array.from({ length: 5 }, () => sos(s.cookie, {}, "203.0.113.7"))));
    expect(tally(results)).toEqual({ 201: 10, 429: 30 });
    expect(results.find((r) => r.status === 429)?.body.error).toBe(REFUSED);
    expect(results.find((r) => r.status === 429)?.retryAfter).toMatch(/^\d+$/);
    // A new identity from that address is refused too; another address is not held up.
    const fresh = await anonymousSession();
    expect((await sos(fresh.cookie, {}, "203.0.113.7")).status).toBe(429);
    expect((await sos(fresh.cookie, {}, "198.51.100.4")).status).toBe(201);
    // A verified person behind the same (shared, carrier) address still sends.
    const verified = await verifiedSession("0814");
    expect((await sos(verified.cookie, {}, "203.0.113.7")).status).toBe(201);
  });
});

describe("the SOS area follows the sender", () => {
  it("an anonymous sender known in Lagos naming Abuja reaches their contacts but nobody in Abuja", async () => {
    const resident = await anonymousSession();
    await at(resident.cookie, ABUJA);
    const sender = await anonymousSession();
    await at(sender.cookie, LAGOS);
    const contact = await call("/api/contacts", { method: "POST", cookie: sender.cookie, json: { name: "Mum", phone: "08031110001" } });
    expect(contact.status).toBe(201);

    const named = await sos(sender.cookie, { location: ABUJA });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ room: null, areaWithheld: true });
    const typed = await sos(sender.cookie, { locationText: "Abuja" });
    expect(typed.body).toMatchObject({ room: null, areaWithheld: true });

    expect(await notificationsOf(resident.cookie)).toHaveLength(0);
    const nearby = (await (await call("/api/emergency/nearby", { cookie: resident.cookie })).json()) as { items: unknown[] };
    expect(nearby.items).toHaveLength(0);
    // The contact learns where the sender says they are.
    const told = await outboxTo("+2348031110001");
    expect(told).toHaveLength(2);
    expect(told.some((m) => m.body.includes("maps.google.com/?q=9.07650,7.39860"))).toBe(true);
    // The far place did not become the sender's known place.
    const row = await db.select().from(users).where(eq(users.id, sender.user.id)).get();
    expect(row?.geohash).toBe(encodeGeohash(LAGOS.latitude, LAGOS.longitude));
  });

  it("100 parallel SOS naming Abuja from an anonymous session known in Lagos: none reaches Abuja", async () => {
    const resident = await anonymousSession();
    await at(resident.cookie, ABUJA);
    const sender = await anonymousSession();
    await at(sender.cookie, LAGOS);
    const results = await Promise.all(Array.from({ length: 100 }, () => sos(sender.cookie, { location: ABUJA })));
    expect(tally(results)).toEqual({ 201: MAX_SOS_PER_HOUR, 429: 100 - MAX_SOS_PER_HOUR });
    expect(results.filter((r) => r.status === 201).every((r) => r.body.room === null && r.body.areaWithheld)).toBe(true);
    expect(await notificationsOf(resident.cookie)).toHaveLength(0);
  });

  it("someone who really moved reports where they are and their SOS alerts that area", async () => {
    const resident = await anonymousSession();
    await at(resident.cookie, IBADAN);
    const mover = await anonymousSession();
    await at(mover.cookie, LAGOS);
    // The page reports the device's position when it opens; then the SOS names the same place.
    await at(mover.cookie, IBADAN);
    const sent = await sos(mover.cookie, { location: IBADAN });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ room: `nearby:${encodeGeohash(IBADAN.latitude, IBADAN.longitude)}`, areaWithheld: false });
    expect((await notificationsOf(resident.cookie)).map((n) => n.type)).toEqual(["emergency"]);
  });

  it("a first SOS from someone LinkUp knew nowhere alerts the place it names", async () => {
    const resident = await anonymousSession();
    await at(resident.cookie, KANO);
    const first = await anonymousSession();
    const sent = await sos(first.cookie, { location: KANO });
    expect(sent.body).toMatchObject({ room: `nearby:${encodeGeohash(KANO.latitude, KANO.longitude)}`, areaWithheld: false });
    expect(await notificationsOf(resident.cookie)).toHaveLength(1);
  });

  it("a verified person's SOS reaches far areas twice an hour; a third far area only their contacts", async () => {
    const residents = await Promise.all(
      [ABUJA, KANO, PORT_HARCOURT].map(async (where) => {
        const r = await anonymousSession();
        await at(r.cookie, where);
        return r;
      }),
    );
    const person = await verifiedSession("0814");
    await at(person.cookie, LAGOS);
    const abuja = await sos(person.cookie, { location: ABUJA });
    expect(abuja.body).toMatchObject({ room: `nearby:${encodeGeohash(ABUJA.latitude, ABUJA.longitude)}`, areaWithheld: false });
    const kano = await sos(person.cookie, { location: KANO });
    expect(kano.body).toMatchObject({ room: `nearby:${encodeGeohash(KANO.latitude, KANO.longitude)}`, areaWithheld: false });
    const ph = await sos(person.cookie, { location: PORT_HARCOURT });
    expect(ph.status).toBe(201);
    expect(ph.body).toMatchObject({ room: null, areaWithheld: true });
    expect((await Promise.all(residents.map((r) => notificationsOf(r.cookie)))).map((n) => n.length)).toEqual([1, 1, 0]);
    // Where the person is now (Kano) is near: the hour's other SOS there alert it.
    const again = await sos(person.cookie, { location: KANO });
    expect(again.body).toMatchObject({ areaWithheld: false });
  });

  it("100 parallel far SOS from a verified person: two alert a far area, eight only contacts, 90 × 429", async () => {
    const person = await verifiedSession("0814");
    await at(person.cookie, LAGOS);
    // A hundred places about 110 km apart from each other and far from Lagos: whichever of them an accepted SOS
    // makes the person's known place, every other one is still far from it.
    const places = Array.from({ length: 100 }, (_, i) => ({ latitude: 20 + Math.floor(i / 10), longitude: 20 + (i % 10) }));
    const results = await Promise.all(places.map((location) => sos(person.cookie, { location })));
    expect(tally(results)).toEqual({ 201: MAX_SOS_PER_HOUR, 429: 100 - MAX_SOS_PER_HOUR });
    const sent = results.filter((r) => r.status === 201);
    expect(sent.filter((r) => !r.body.areaWithheld && r.body.room !== null)).toHaveLength(2);
    expect(sent.filter((r) => r.body.areaWithheld && r.body.room === null)).toHaveLength(8);
  });
});
