// An SOS reaches everyone in its area, most recently present first, in pages on the queue with no cap
// (docs/decisions/054-sos-a-durable-job.md). People are seeded straight into D1 (as bench/sos does) so an area
// bigger than a page and than a plan of pages stays quick; the push service is faked at the fetch edge.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encodeGeohash } from "../../core/geohash";
import { newId, toBase64Url } from "../../core/ids";
import { SOS_FANOUT_BATCH, type SosFanoutMessage } from "../../core/sos-schemas";
import { createDb } from "../../db";
import { pushSubscriptions, users } from "../../db/schema";
import { anonymousSession } from "../../tests/workers/helpers";
import { fakePushEdge, PUSH_SERVICE } from "../../tests/workers/push-edge";
import type { AppEnv } from "../env";
import { broadcastSos } from ".";
import { consumeSosFanout, INLINE_RECIPIENTS } from "./fanout";

const edge = fakePushEdge();
/** The people pushed in this test: one endpoint per person, named by their id. */
const pushed = () => edge.calls.map((path) => path.slice(1));

const db = createDb(env);

describe("an SOS to a big area", () => {
  it("alerts the most recently present first and everyone in the end, page by page, each message small", async () => {
    const at = { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
    const geohash = encodeGeohash(at.latitude, at.longitude);
    const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
    const p256dh = toBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
    const auth = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
    // Three pages and a bit; person i was last present i minutes ago.
    const n = 3 * SOS_FANOUT_BATCH + INLINE_RECIPIENTS + 7;
    const now = Date.now();
    const people = Array.from({ length: n }, (_, i) => ({ id: `page-${newId()}`, at: new Date(now - 60_000 * (i + 1)) }));
    for (let i = 0; i < n; i += 4) {
      const part = people.slice(i, i + 4);
      await db.insert(users).values(
        part.map((p) => ({
          id: p.id,
          nickname: "Neighbour",
          latitude: at.latitude,
          longitude: at.longitude,
          geohash,
          locationUpdatedAt: p.at,
        })),
      );
      await db
        .insert(pushSubscriptions)
        .values(part.map((p) => ({ id: p.id, userId: p.id, endpoint: `${PUSH_SERVICE}/${p.id}`, p256dh, auth })));
    }
    const sender = await anonymousSession();

    const queue: SosFanoutMessage[] = [];
    const appEnv = {
      ...(env as AppEnv),
      SOS_FANOUT: {
        send: async (body: SosFanoutMessage) => {
          queue.push(body);
        },
        sendBatch: async (messages: { body: SosFanoutMessage }[]) => {
          for (const m of messages) queue.push(m.body);
        },
      },
    } as unknown as AppEnv;
    const answer = await broadcastSos(appEnv, db, {
      userId: sender.user.id,
      message: "Building collapsed",
      emergencyType: "other",
      location: at,
      clientRequestId: newId(),
      channel: "web",
    });
    // The request itself alerts the ten most recently present; the answer counts the rest as queued.
    expect(answer.reached.push).toBe(INLINE_RECIPIENTS);
    expect(pushed().sort()).toEqual(
      people
        .slice(0, INLINE_RECIPIENTS)
        .map((p) => p.id)
        .sort(),
    );
    expect(answer.queued).toBe(n - INLINE_RECIPIENTS);

    let messages = 0;
    let largest = 0;
    while (queue.length) {
      const body = queue.shift() as SosFanoutMessage;
      messages++;
      largest = Math.max(largest, JSON.stringify(body).length);
      const batch = createMessageBatch<SosFanoutMessage>("linkup-sos-fanout", [{ id: newId(), timestamp: new Date(), attempts: 1, body }]);
      const ctx = createExecutionContext();
      await consumeSosFanout(batch, appEnv);
      expect((await getQueueResult(batch, ctx)).retryMessages).toEqual([]);
    }
    // Everyone, once.
    expect(pushed().length).toBe(n);
    expect(new Set(pushed()).size).toBe(n);
    // Pages of 50 from plans: 4 pages, a plan of them and an empty late plan; none carries a list of people.
    expect(messages).toBe(6);
    expect(largest).toBeLessThan(300);
  }, 60_000);
});
