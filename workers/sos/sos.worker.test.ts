// SOS end to end inside workerd: real D1, the real MeshRoom Durable Object over a WebSocket, real Web Push
// encryption and VAPID. The push service is faked only at the outbound fetch edge.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeGeohash } from "../../core/geohash";
import { fromBase64Url, newId, toBase64Url } from "../../core/ids";
import { createDb } from "../../db";
import { emergencyBroadcasts, pushSubscriptions, users } from "../../db/schema";
import { anonymousSession, call, ORIGIN } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { notify } from "../notifications";
import { broadcastSos, MAX_SOS_PER_HOUR } from "./index";
import { until } from "../../tests/workers/until";

// A real push service host name (public names only are accepted); every request to it is answered by the fake below.
const PUSH = "https://updates.push.services.mozilla.com";
interface PushHit {
  path: string;
  headers: Headers;
  body: Uint8Array;
}
let pushes: PushHit[] = [];
const realFetch = globalThis.fetch;

beforeEach(() => {
  pushes = [];
  // The push service stand-in: /gone/* answers 410, /missing/* 404, /fail/* 500, the rest 201.
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(PUSH)) return realFetch(input, init);
    const path = new URL(req.url).pathname;
    pushes.push({ path, headers: req.headers, body: new Uint8Array(await req.arrayBuffer()) });
    const status = path.startsWith("/gone") ? 410 : path.startsWith("/missing") ? 404 : path.startsWith("/fail") ? 500 : 201;
    return new Response(null, { status });
  });
});
afterEach(() => vi.restoreAllMocks());

const db = createDb(env);

async function userAt(latitude: number, longitude: number) {
  const s = await anonymousSession();
  const res = await call("/api/me/location", { method: "PUT", cookie: s.cookie, json: { latitude, longitude } });
  expect(res.status).toBe(200);
  return s;
}

async function subscriberKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return { p256dh: toBase64Url(raw), auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))) };
}

async function subscribe(cookie: string, path: string) {
  const res = await call("/api/push/subscribe", {
    method: "POST",
    cookie,
    json: { endpoint: `${PUSH}${path}`, keys: await subscriberKeys() },
  });
  expect(res.status).toBe(201);
}

async function openRoom(cookie: string, room: string) {
  const res = await SELF.fetch(`${ORIGIN}/ws/rooms/${encodeURIComponent(room)}`, { headers: { upgrade: "websocket", cookie } });
  expect(res.status).toBe(101);
  const ws = res.webSocket as WebSocket;
  const frames: unknown[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => {
    // Only envelopes: the room also sends hello, presence and other control frames.
    const frame = JSON.parse(String(e.data)) as { type: string };
    if (frame.type === "envelope") frames.push(frame);
  });
  return { ws, frames };
}

async function sos(cookie: string, body: Record<string, unknown>) {
  const res = await call("/api/emergency/broadcast", {
    method: "POST",
    cookie,
    json: { message: "Help, my neighbour collapsed", emergencyType: "medical", clientRequestId: newId(), ...body },
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      id: string;
      reached: { room: number; push: number; contacts: number };
      failed: string[];
    },
  };
}

async function addContact(cookie: string, name: string, phone: string) {
  const res = await call("/api/contacts", { method: "POST", cookie, json: { name, phone } });
  expect(res.status).toBe(201);
}

async function outboxTo(phone: string) {
  const res = await call("/api/dev/outbox?limit=200");
  const { messages } = (await res.json()) as { messages: { to: string; channel: string; body: string }[] };
  return messages.filter((m) => m.to === phone);
}

describe("SOS broadcast", () => {
  it("reaches the area room, push subscribers in the area and the sender's contacts in one action", async () => {
    const sender = await userAt(6.5244, 3.3792); // Lagos
    const neighbour = await userAt(6.5251, 3.3801);
    const farAway = await userAt(9.0765, 7.3986); // Abuja
    await subscribe(neighbour.cookie, "/neighbour");
    await subscribe(farAway.cookie, "/far");
    await addContact(sender.cookie, "Mum", "08031234567");
    await addContact(sender.cookie, "Brother", "+2348059876543");
    const room = `nearby:${encodeGeohash(6.5244, 3.3792)}`;
    const { ws, frames } = await openRoom(neighbour.cookie, room);

    const { status, body } = await sos(sender.cookie, { location: { latitude: 6.5244, longitude: 3.3792 }, locationText: "Yaba market" });
    expect(status).toBe(201);
    expect(body.reached).toEqual({ room: 1, push: 1, contacts: 2 });
    expect(body.failed).toEqual([]);
    expect(body.room).toBe(room);

    // The room member sees an emergency envelope.
    await until(() => frames.length > 0);
    expect(frames[0]).toMatchObject({
      type: "envelope",
      envelope: { type: "emergency", priority: "high", room, senderId: sender.user.id, meta: { sosId: body.id } },
    });
    ws.close();

    // One push, to the neighbour only, encrypted and VAPID-signed.
    expect(pushes.map((p) => p.path)).toEqual(["/neighbour"]);
    const hit = pushes[0];
    expect(hit.headers.get("content-encoding")).toBe("aes128gcm");
    expect(hit.headers.get("urgency")).toBe("high");
    const auth = hit.headers.get("authorization") ?? "";
    const [, jwt, k] = /^vapid t=([^,]+), k=(.+)$/.exec(auth) ?? [];
    expect(k).toBe(env.VAPID_PUBLIC_KEY);
    const [h, c, sig] = jwt.split(".");
    const key = await crypto.subtle.importKey("raw", fromBase64Url(k), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    expect(
      await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, fromBase64Url(sig), new TextEncoder().encode(`${h}.${c}`)),
    ).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(fromBase64Url(c))).aud).toBe(PUSH);

    // The neighbour's notification centre has it; the faraway user's does not.
    const list = (await (await call("/api/notifications", { cookie: neighbour.cookie })).json()) as {
      notifications: { type: string; title: string; content: string; url: string; isRead: boolean }[];
    };
    expect(list.notifications[0]).toMatchObject({ type: "emergency", title: "SOS nearby: Medical", url: "/emergency", isRead: false });
    expect(list.notifications[0].content).toContain("Help, my neighbour collapsed");
    const far = (await (await call("/api/notifications", { cookie: farAway.cookie })).json()) as { notifications: unknown[] };
    expect(far.notifications).toHaveLength(0);

    // Contacts got WhatsApp messages (the dev outbox stands in for Twilio) with a map link.
    const mum = await outboxTo("+2348031234567");
    expect(mum).toHaveLength(1);
    expect(mum[0].channel).toBe("whatsapp");
    expect(mum[0].body).toContain("Help, my neighbour collapsed");
    expect(mum[0].body).toContain("maps.google.com/?q=6.52440,3.37920");
    expect(await outboxTo("+2348059876543")).toHaveLength(1);

    // The neighbour sees it as active SOS nearby, with its distance.
    const nearby = (await (await call("/api/emergency/nearby", { cookie: neighbour.cookie })).json()) as {
      items: { id: string; distanceMetres: number; canResolve: boolean; mine: boolean }[];
      areaUsers: number;
    };
    expect(nearby.areaUsers).toBe(2);
    const item = nearby.items.find((i) => i.id === body.id);
    expect(item).toMatchObject({ mine: false, canResolve: false });
    expect(item?.distanceMetres).toBeGreaterThan(50);
    expect(item?.distanceMetres).toBeLessThan(300);
  });

  it("the same clientRequestId twice makes one broadcast, one push and one message per contact", async () => {
    const sender = await userAt(7.3775, 3.947); // Ibadan
    const neighbour = await userAt(7.378, 3.9471);
    await subscribe(neighbour.cookie, "/ibadan");
    await addContact(sender.cookie, "Aunty", "08030000001");
    const clientRequestId = newId();
    const first = await sos(sender.cookie, { clientRequestId, location: { latitude: 7.3775, longitude: 3.947 } });
    const again = await sos(sender.cookie, { clientRequestId, location: { latitude: 7.3775, longitude: 3.947 } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, created: false, reached: first.body.reached });
    const rows = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, sender.user.id));
    expect(rows).toHaveLength(1);
    expect(pushes).toHaveLength(1);
    expect(await outboxTo("+2348030000001")).toHaveLength(1);
  });

  it("a failing push service does not stop the room or the contacts, and the answer says push failed", async () => {
    const sender = await userAt(12.0022, 8.592); // Kano
    const neighbour = await userAt(12.0025, 8.5922);
    await subscribe(neighbour.cookie, "/fail/kano");
    await addContact(sender.cookie, "Dad", "08030000002");
    const room = `nearby:${encodeGeohash(12.0022, 8.592)}`;
    const { ws, frames } = await openRoom(neighbour.cookie, room);
    const { status, body } = await sos(sender.cookie, { location: { latitude: 12.0022, longitude: 8.592 } });
    expect(status).toBe(201);
    expect(body.failed).toEqual(["push"]);
    expect(body.reached).toEqual({ room: 1, push: 0, contacts: 1 });
    await until(() => frames.length > 0);
    expect(frames).toHaveLength(1);
    ws.close();
    // The notification is still in the neighbour's centre.
    const list = (await (await call("/api/notifications", { cookie: neighbour.cookie })).json()) as { notifications: { type: string }[] };
    expect(list.notifications.map((n) => n.type)).toContain("emergency");
  });

  it("a failing room does not stop push and contacts", async () => {
    const sender = await userAt(4.8156, 7.0498); // Port Harcourt
    const neighbour = await userAt(4.8158, 7.0499);
    await subscribe(neighbour.cookie, "/ph");
    await addContact(sender.cookie, "Sister", "08030000003");
    const brokenRooms = {
      idFromName: (n: string) => env.ROOMS.idFromName(n),
      get: () => ({
        deliver: async () => {
          throw new Error("room unreachable");
        },
      }),
    };
    const result = await broadcastSos({ ...env, ROOMS: brokenRooms } as unknown as AppEnv, db, {
      userId: sender.user.id,
      message: "Fire at the filling station",
      emergencyType: "fire",
      location: { latitude: 4.8156, longitude: 7.0498 },
      clientRequestId: newId(),
      channel: "web",
    });
    expect(result.created).toBe(true);
    expect(result.failed).toEqual(["room"]);
    expect(result.reached).toEqual({ room: 0, push: 1, contacts: 1 });
  });

  it("falls back to SMS when WhatsApp fails for a contact", async () => {
    const sender = await userAt(9.0579, 7.4951);
    await addContact(sender.cookie, "Uncle", "08030000004");
    const sent: { to: string; from: string }[] = [];
    vi.mocked(globalThis.fetch).mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith("https://twilio.test/")) return realFetch(input, init);
      const form = new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer()));
      sent.push({ to: form.get("To") ?? "", from: form.get("From") ?? "" });
      // WhatsApp refused (e.g. the number has no WhatsApp); SMS accepted.
      return form.get("To")?.startsWith("whatsapp:")
        ? new Response(JSON.stringify({ message: "not a WhatsApp user" }), { status: 400 })
        : Response.json({ sid: "SM123" }, { status: 201 });
    });
    const twilioEnv = {
      ...env,
      TWILIO_ACCOUNT_SID: "ACtest",
      TWILIO_AUTH_TOKEN: "token",
      TWILIO_WHATSAPP_FROM: "+15550001111",
      TWILIO_SMS_FROM: "+15550002222",
      TWILIO_API_BASE: "https://twilio.test",
    } as unknown as AppEnv;
    const result = await broadcastSos(twilioEnv, db, {
      userId: sender.user.id,
      message: "Robbery in progress",
      emergencyType: "security",
      clientRequestId: newId(),
      channel: "web",
    });
    expect(result.reached.contacts).toBe(1);
    expect(result.failed).toEqual([]);
    expect(sent.map((s) => s.to)).toEqual(["whatsapp:+2348030000004", "+2348030000004"]);
  });

  it("an emergency contact who uses LinkUp is alerted in the app and by push, wherever they are", async () => {
    const sender = await userAt(6.5244, 3.3792); // Lagos
    const contact = await userAt(9.0765, 7.3986); // Abuja, far from the sender
    await db.update(users).set({ phone: "+2348037770001", authMode: "verified" }).where(eq(users.id, contact.user.id));
    await subscribe(contact.cookie, "/contact-user");
    await addContact(sender.cookie, "Cousin", "08037770001");
    const { body } = await sos(sender.cookie, { location: { latitude: 6.5244, longitude: 3.3792 } });
    expect(body.reached.contacts).toBe(1);
    expect(pushes.map((p) => p.path)).toContain("/contact-user");
    const list = (await (await call("/api/notifications", { cookie: contact.cookie })).json()) as { notifications: { title: string }[] };
    expect(list.notifications[0].title).toBe(`SOS from ${sender.user.nickname}: Medical`);
  });

  it("a Premium sender's SOS also reaches the neighbouring areas (about 10 km); a free sender's stays in its own", async () => {
    const here = { latitude: 6.5244, longitude: 3.3792 };
    const neighbour = await userAt(here.latitude + 0.06, here.longitude); // about 6.7 km north, another cell
    expect(encodeGeohash(here.latitude + 0.06, here.longitude)).not.toBe(encodeGeohash(here.latitude, here.longitude));
    const far = await userAt(here.latitude + 0.3, here.longitude); // about 33 km away
    await subscribe(neighbour.cookie, "/neighbour");
    await subscribe(far.cookie, "/far");
    const free = await userAt(here.latitude, here.longitude);
    await sos(free.cookie, { location: here });
    expect(pushes.map((p) => p.path)).not.toContain("/neighbour");
    const premium = await userAt(here.latitude, here.longitude);
    await db.update(users).set({ subscriptionTier: "premium" }).where(eq(users.id, premium.user.id));
    await sos(premium.cookie, { location: here });
    expect(pushes.map((p) => p.path)).toContain("/neighbour");
    expect(pushes.map((p) => p.path)).not.toContain("/far");
  });

  it("uses the user's last reported location when the SOS has none", async () => {
    const sender = await userAt(6.4531, 3.3958);
    const { status, body } = await sos(sender.cookie, {});
    expect(status).toBe(201);
    expect(body.room).toBe(`nearby:${encodeGeohash(6.4531, 3.3958)}`);
  });

  it("refuses an empty message and unsigned requests, but never asks for verification", async () => {
    const s = await anonymousSession();
    const empty = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: s.cookie,
      json: { message: "   ", clientRequestId: newId() },
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toContain("Please describe the emergency");
    const noSession = await call("/api/emergency/broadcast", { method: "POST", json: { message: "help", clientRequestId: newId() } });
    expect(noSession.status).toBe(401);
    // Anonymous, no location: still sent, to contacts only.
    const ok = await sos(s.cookie, {});
    expect(ok.status).toBe(201);
    expect(ok.body.room).toBeNull();
  });
});

describe("resolving an SOS", () => {
  it("only the sender or an admin can resolve", async () => {
    const sender = await userAt(10.5105, 7.4165); // Kaduna
    const other = await userAt(10.5106, 7.4166);
    const { body } = await sos(sender.cookie, { location: { latitude: 10.5105, longitude: 7.4165 } });
    const byOther = await call(`/api/emergency/${body.id}/resolve`, { method: "POST", cookie: other.cookie });
    expect(byOther.status).toBe(403);
    expect(((await byOther.json()) as { error: string }).error).toBe("Only the sender or LinkUp staff can resolve this SOS");

    const bySender = await call(`/api/emergency/${body.id}/resolve`, { method: "POST", cookie: sender.cookie });
    expect(bySender.status).toBe(200);
    expect(await bySender.json()).toMatchObject({ id: body.id, status: "resolved" });
    const nearby = (await (await call("/api/emergency/nearby", { cookie: other.cookie })).json()) as { items: { id: string }[] };
    expect(nearby.items.map((i) => i.id)).not.toContain(body.id);

    const second = await sos(sender.cookie, { location: { latitude: 10.5105, longitude: 7.4165 } });
    const admin = await anonymousSession();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.user.id));
    const byAdmin = await call(`/api/emergency/${second.body.id}/resolve`, { method: "POST", cookie: admin.cookie });
    expect(byAdmin.status).toBe(200);

    const missing = await call("/api/emergency/nope-not-here/resolve", { method: "POST", cookie: sender.cookie });
    expect(missing.status).toBe(404);
  });
});

describe("push subscriptions and quiet hours", () => {
  it("removes subscriptions the push service says are gone (404/410)", async () => {
    const sender = await userAt(6.335, 5.6037); // Benin City
    const a = await userAt(6.3351, 5.6038);
    const b = await userAt(6.3352, 5.6039);
    await subscribe(a.cookie, "/gone/a");
    await subscribe(b.cookie, "/missing/b");
    const first = await sos(sender.cookie, { location: { latitude: 6.335, longitude: 5.6037 } });
    expect(first.body.reached.push).toBe(0);
    expect(first.body.failed).toEqual([]);
    expect(pushes).toHaveLength(2);
    const left = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, a.user.id));
    expect(left).toHaveLength(0);
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, b.user.id))).toHaveLength(0);
    pushes = [];
    await sos(sender.cookie, { location: { latitude: 6.335, longitude: 5.6037 } });
    expect(pushes).toHaveLength(0);
  });

  it("quiet hours hold back everything but emergencies", async () => {
    const user = await userAt(11.8469, 13.1571); // Maiduguri
    await subscribe(user.cookie, "/quiet");
    // A quiet window around now, in WAT.
    const wat = new Date(Date.now() + 3600_000);
    const hh = (h: number) => String((h + 24) % 24).padStart(2, "0");
    const res = await call("/api/notifications/prefs", {
      method: "PUT",
      cookie: user.cookie,
      json: { quietHours: true, quietStart: `${hh(wat.getUTCHours() - 1)}:00`, quietEnd: `${hh(wat.getUTCHours() + 2)}:00` },
    });
    expect(res.status).toBe(200);

    const system = await notify(env as AppEnv, db, user.user.id, {
      type: "system",
      title: "Update",
      content: "New version",
      priority: "low",
    });
    expect(system.id).not.toBeNull();
    expect(system.held).toBe(true);
    expect(pushes).toHaveLength(0);

    const sender = await userAt(11.847, 13.1572);
    const { body } = await sos(sender.cookie, { location: { latitude: 11.847, longitude: 13.1572 } });
    expect(body.reached.push).toBe(1);
    expect(pushes.map((p) => p.path)).toEqual(["/quiet"]);

    // Outside quiet hours the same system notice is pushed.
    await call("/api/notifications/prefs", { method: "PUT", cookie: user.cookie, json: { quietHours: false } });
    pushes = [];
    const later = await notify(env as AppEnv, db, user.user.id, { type: "system", title: "Update", content: "Again", priority: "low" });
    expect(later.pushed).toBe(1);
  });

  it("a type switched off in preferences is neither stored nor pushed", async () => {
    const user = await userAt(8.4966, 4.5421);
    await subscribe(user.cookie, "/prefs");
    await call("/api/notifications/prefs", { method: "PUT", cookie: user.cookie, json: { systemUpdates: false } });
    const r = await notify(env as AppEnv, db, user.user.id, { type: "system", title: "Update", content: "x", priority: "low" });
    expect(r.id).toBeNull();
    expect(pushes).toHaveLength(0);
  });

  it("accepts loopback http endpoints in development only through validation, and refuses other http", async () => {
    const s = await anonymousSession();
    const keys = await subscriberKeys();
    const http = await call("/api/push/subscribe", {
      method: "POST",
      cookie: s.cookie,
      json: { endpoint: "http://push.example.com/x", keys },
    });
    expect(http.status).toBe(400);
    const loop = await call("/api/push/subscribe", { method: "POST", cookie: s.cookie, json: { endpoint: "http://127.0.0.1:9/x", keys } });
    expect(loop.status).toBe(201);
    const bad = await call("/api/push/subscribe", {
      method: "POST",
      cookie: s.cookie,
      json: { endpoint: `${PUSH}/x`, keys: { p256dh: "short", auth: "x" } },
    });
    expect(bad.status).toBe(400);
    const del = await call("/api/push/subscribe", { method: "DELETE", cookie: s.cookie, json: { endpoint: "http://127.0.0.1:9/x" } });
    expect(await del.json()).toEqual({ ok: true, removed: true });
    const key = await call("/api/push/vapid-public-key");
    expect(await key.json()).toEqual({ publicKey: env.VAPID_PUBLIC_KEY });
  });
});

describe("flood protection", () => {
  it("refuses more than the hourly cap of new SOS from one user, but still answers replays", async () => {
    const s = await anonymousSession();
    const first = await sos(s.cookie, { clientRequestId: "replay-me-0001" });
    expect(first.status).toBe(201);
    for (let i = 1; i < MAX_SOS_PER_HOUR; i++) expect((await sos(s.cookie, {})).status).toBe(201);
    const over = await sos(s.cookie, {});
    expect(over.status).toBe(429);
    expect((over.body as unknown as { error: string }).error).toBe(
      "Too many SOS from you in the last hour. If you are in danger, call 112 or 199.",
    );
    const replay = await sos(s.cookie, { clientRequestId: "replay-me-0001" });
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
  });
});
