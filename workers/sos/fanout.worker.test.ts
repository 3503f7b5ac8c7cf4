// The SOS fan-out through the queue, inside workerd: the real SOS_FANOUT queue and this Worker's consumer, real
// D1 and Web Push encryption. The push service is faked only at the outbound fetch edge.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newId, toBase64Url } from "../../core/ids";
import type { SosFanoutMessage } from "../../core/sos-schemas";
import { createDb } from "../../db";
import { countDeliveries } from "../../db/queries/emergency";
import { notifications } from "../../db/schema";
import { anonymousSession, call } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { consumeSosFanout, INLINE_RECIPIENTS } from "./fanout";
import { until } from "../../tests/workers/until";

const PUSH = "https://updates.push.services.mozilla.com";
let pushes: string[] = [];
let pushServiceDown = false;
const realFetch = globalThis.fetch;

beforeEach(() => {
  pushes = [];
  pushServiceDown = false;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(PUSH)) return realFetch(input, init);
    if (pushServiceDown) return new Response(null, { status: 503 });
    pushes.push(new URL(req.url).pathname);
    return new Response(null, { status: 201 });
  });
});
afterEach(() => vi.restoreAllMocks());

const db = createDb(env);

/** A point of its own per test, so areas never overlap. */
function place() {
  return { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
}

async function subscriberAt(at: { latitude: number; longitude: number }) {
  const s = await anonymousSession();
  expect((await call("/api/me/location", { method: "PUT", cookie: s.cookie, json: at })).status).toBe(200);
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const p256dh = toBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const keys = { p256dh, auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))) };
  const res = await call("/api/push/subscribe", { method: "POST", cookie: s.cookie, json: { endpoint: `${PUSH}/${s.user.id}`, keys } });
  expect(res.status).toBe(201);
  return s;
}

async function sos(cookie: string, at: { latitude: number; longitude: number }) {
  const res = await call("/api/emergency/broadcast", {
    method: "POST",
    cookie,
    json: { message: "Fire in the market", emergencyType: "fire", clientRequestId: newId(), location: at },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; reached: { push: number }; queued: number };
}

describe("SOS fan-out on the queue", () => {
  it("an area with more people than one request alerts is reached in full: the rest through the queue", async () => {
    const at = place();
    const sender = await anonymousSession();
    const people = [];
    for (let i = 0; i < INLINE_RECIPIENTS + 7; i++) people.push(await subscriberAt(at));

    const answer = await sos(sender.cookie, at);
    expect(answer.reached.push).toBe(INLINE_RECIPIENTS);
    expect(answer.queued).toBe(7);

    // Everyone is recorded, the request's own recipients too (claimed before their push, decision 054).
    await until(async () => (await countDeliveries(db, answer.id)).pushed === INLINE_RECIPIENTS + 7, 15_000);
    expect(await countDeliveries(db, answer.id)).toEqual({ pushed: INLINE_RECIPIENTS + 7, stored: 0, off: 0, failed: 0 });
    // Everyone got exactly one push.
    expect(pushes.sort()).toEqual(people.map((p) => `/${p.user.id}`).sort());
  }, 60_000);

  it("a batch whose pushes fail is retried, pushes again without storing the alert twice, and records the outcome", async () => {
    const at = place();
    const sender = await anonymousSession();
    const person = await subscriberAt(at);
    const { id } = await sos(sender.cookie, { latitude: at.latitude + 2, longitude: at.longitude }); // elsewhere: nobody alerted
    const body: SosFanoutMessage = { broadcastId: id, audience: "nearby", userIds: [person.user.id] };
    const run = async (attempts: number) => {
      const batch = createMessageBatch<SosFanoutMessage>("linkup-sos-fanout", [
        { id: `m${attempts}`, timestamp: new Date(), attempts, body },
      ]);
      const ctx = createExecutionContext();
      await consumeSosFanout(batch, env as AppEnv);
      return getQueueResult(batch, ctx);
    };

    pushServiceDown = true;
    const first = await run(1);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(await countDeliveries(db, id)).toMatchObject({ failed: 1 });

    pushServiceDown = false;
    const second = await run(2);
    expect(second.retryMessages).toEqual([]);
    expect(second.explicitAcks).toEqual(["m2"]);
    expect(pushes).toEqual([`/${person.user.id}`]);
    expect(await countDeliveries(db, id)).toMatchObject({ pushed: 1, failed: 0 });
    const stored = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, person.user.id), eq(notifications.type, "emergency")));
    expect(stored).toHaveLength(1);
  });

  it("drops a malformed message instead of retrying it forever", async () => {
    const batch = createMessageBatch("linkup-sos-fanout", [
      { id: "bad", timestamp: new Date(), attempts: 1, body: { broadcastId: "x", userIds: [] } },
    ]);
    const ctx = createExecutionContext();
    await consumeSosFanout(batch, env as AppEnv);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["bad"]);
    expect(result.retryMessages).toEqual([]);
  });
});
