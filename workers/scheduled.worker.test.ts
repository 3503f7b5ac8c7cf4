// The Cron through the Worker's exported handler (tests/workers/entry.ts, the same `scheduled` as workers/app.ts):
// the every-minute schedule resumes an SOS a dead Worker left unfinished (docs/decisions/054-sos-a-durable-job.md)
// and does nothing else; the 15-minute schedule runs the other jobs (retention, decision 051) and leaves SOS to it.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { armFault } from "../core/faults";
import { newId } from "../core/ids";
import { createDb } from "../db";
import { findBroadcast } from "../db/queries/emergency";
import { emergencyBroadcasts, users, verifications } from "../db/schema";
import handler from "../tests/workers/entry";
import { anonymousSession, call } from "../tests/workers/helpers";
import { SOS_SWEEP_CRON, SOS_UNFINISHED_AFTER_MS } from "./sos";
import { fakePushEdge, subscriberAt } from "../tests/workers/push-edge";

const db = createDb(env);
/** Push-service calls per endpoint path (one endpoint per person). */
const edge = fakePushEdge();

/** What Cloudflare does on a schedule: the exported handler's `scheduled`, and everything it left running. */
async function cron(schedule: string) {
  const ctx = createExecutionContext();
  await handler.scheduled?.({ cron: schedule, scheduledTime: Date.now(), noRetry() {} } as ScheduledController, env as unknown as Env, ctx);
  await waitOnExecutionContext(ctx);
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
    expect(edge.calls).toEqual([]);
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
    expect(edge.calls).toEqual([]);
    expect((await findBroadcast(db, row.id))?.jobDoneAt).toBeNull();

    // The minute schedule: the sweep alone, and it finishes the SOS: each neighbour alerted once.
    const second = await oldCode();
    await cron(SOS_SWEEP_CRON);
    expect(edge.calls.sort()).toEqual(people.map((p) => `/${p}`).sort());
    // Finished once the queue has read the rest of the area too (the page it queued keeps the job open, decision 054).
    await vi.waitFor(async () => expect((await findBroadcast(db, row.id))?.jobDoneAt).not.toBeNull(), { timeout: 20_000, interval: 100 });
    expect(await codeLeft(second)).toBe(1);

    // The sender's screen, sending the same form again: sent, both reached, nobody alerted twice.
    const replay = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: { message: "Fire at the market", emergencyType: "fire", clientRequestId, location: at },
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ id: row.id, created: false, failed: [], reached: { push: 2 } });
    expect(edge.calls).toHaveLength(2);
  }, 60_000);
});
