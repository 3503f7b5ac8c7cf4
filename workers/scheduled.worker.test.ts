// The Cron through the Worker's exported handler (tests/workers/entry.ts, the same `scheduled` as workers/app.ts):
// the every-minute schedule resumes an SOS a dead Worker left unfinished (docs/decisions/054-sos-a-durable-job.md)
// and does nothing else; the 15-minute schedule runs the other jobs (retention, decision 051) and leaves SOS to it.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { armFault, resetFaults } from "../core/faults";
import { newId, toBase64Url } from "../core/ids";
import { createDb } from "../db";
import { findBroadcast } from "../db/queries/emergency";
import { emergencyBroadcasts, users, verifications } from "../db/schema";
import handler from "../tests/workers/entry";
import { anonymousSession, call } from "../tests/workers/helpers";
import { SOS_SWEEP_CRON, SOS_UNFINISHED_AFTER_MS } from "./sos";

const db = createDb(env);
const PUSH = "https://updates.push.services.mozilla.com";
let pushes: string[] = [];
const realFetch = globalThis.fetch;

beforeEach(() => {
  pushes = [];
  resetFaults();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(PUSH)) return realFetch(input, init);
    pushes.push(new URL(req.url).pathname);
    return new Response(null, { status: 201 });
  });
});
afterEach(() => {
  resetFaults();
  vi.restoreAllMocks();
});

/** What Cloudflare does on a schedule: the exported handler's `scheduled`, and everything it left running. */
async function cron(schedule: string) {
  const ctx = createExecutionContext();
  await handler.scheduled?.({ cron: schedule, scheduledTime: Date.now(), noRetry() {} } as ScheduledController, env as unknown as Env, ctx);
  await waitOnExecutionContext(ctx);
}

async function subscriberAt(at: { latitude: number; longitude: number }) {
  const s = await anonymousSession();
  expect((await call("/api/me/location", { method: "PUT", cookie: s.cookie, json: at })).status).toBe(200);
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const p256dh = toBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const keys = { p256dh, auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))) };
  const res = await call("/api/push/subscribe", { method: "POST", cookie: s.cookie, json: { endpoint: `${PUSH}/${s.user.id}`, keys } });
  expect(res.status).toBe(201);
  return s.user.id;
}

/** A verification code from two days ago: the retention run drops it (decision 051). */
async function oldCode() {
  const id = newId();
  const createdAt = Date.now() - 2 * 24 * 3600_000;
  await db.insert(verifications).values({
    id,
    phone: `+23480399${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`,
    codeHash: "h",
    channel: "sms",
    ip: "198.51.100.7",
    createdAt: new Date(createdAt),
    expiresAt: new Date(createdAt + 10 * 60_000),
  });
  return id;
}
const codeLeft = async (id: string) =>
  (await db.select({ id: verifications.id }).from(verifications).where(eq(verifications.id, id))).length;

describe("the Cron's schedules through the Worker's handler", () => {
  it("the minute sweep finishes an SOS whose Worker died before alerting anyone; the 15-minute run prunes and leaves it", async () => {
    const at = { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
    const people = [await subscriberAt(at), await subscriberAt(at)];
    const sender = await anonymousSession();
    const clientRequestId = newId();
    // The Worker dies once the SOS is recorded and the area queued, before anyone's alert.
    armFault("sos.area.queued");
    const died = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: { message: "Fire at the market", emergencyType: "fire", clientRequestId, location: at },
    });
    expect(died.status).toBe(500);
    expect(pushes).toEqual([]);
    const [row] = await db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.clientRequestId, clientRequestId));
    expect(row.jobDoneAt).toBeNull();
    // The sweep takes a job as lost once it is SOS_UNFINISHED_AFTER_MS old: the SOS moved back in time, with the
    // neighbours' presence before it (the area is paged by presence up to the SOS, decision 054).
    const sent = Date.now() - SOS_UNFINISHED_AFTER_MS - 5000;
    await db
      .update(emergencyBroadcasts)
      .set({ broadcastedAt: new Date(sent) })
      .where(eq(emergencyBroadcasts.id, row.id));
    await db
      .update(users)
      .set({ locationUpdatedAt: new Date(sent - 60_000) })
      .where(inArray(users.id, people));

    // The 15-minute schedule: retention and the other jobs run, the SOS is not its business.
    const first = await oldCode();
    await cron("*/15 * * * *");
    expect(await codeLeft(first)).toBe(0);
    expect(pushes).toEqual([]);
    expect((await findBroadcast(db, row.id))?.jobDoneAt).toBeNull();

    // The minute schedule: the sweep alone, and it finishes the SOS: each neighbour alerted once.
    const second = await oldCode();
    await cron(SOS_SWEEP_CRON);
    expect(pushes.sort()).toEqual(people.map((p) => `/${p}`).sort());
    expect((await findBroadcast(db, row.id))?.jobDoneAt).not.toBeNull();
    expect(await codeLeft(second)).toBe(1);

    // The sender's screen, sending the same form again: sent, both reached, nobody alerted twice.
    const replay = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: { message: "Fire at the market", emergencyType: "fire", clientRequestId, location: at },
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ id: row.id, created: false, failed: [], reached: { push: 2 } });
    expect(pushes).toHaveLength(2);
  }, 60_000);
});
