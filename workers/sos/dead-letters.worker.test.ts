// What an operator sees when the SOS path is in trouble (docs/decisions/054-sos-a-durable-job.md): messages the
// fan-out queue gave up on are kept and shown on the staff SOS desk, which may replay one (staff only); retried
// messages and SOS jobs the Cron found unfinished are counted.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { armFault, InjectedFault } from "../../core/faults";
import { newId } from "../../core/ids";
import type { SosFanoutMessage } from "../../core/sos-schemas";
import { createDb } from "../../db";
import { findBroadcast } from "../../db/queries/emergency";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { broadcastSos, resumeUnfinishedSos, SOS_UNFINISHED_AFTER_MS } from ".";
import { consumeSosFanout, SOS_DEAD_LETTER_QUEUE, sosQueue } from "./fanout";
import { fakePushEdge, subscriberAt } from "../../tests/workers/push-edge";
import { until } from "../../tests/workers/until";

const db = createDb(env);
/** Push-service calls per endpoint path (one endpoint per person). */
const edge = fakePushEdge();

async function trouble(what: string): Promise<number> {
  const row = await env.DB.prepare("select coalesce(sum(count), 0) as n from analytics_daily where kind = ?")
    .bind(`ops.${what}`)
    .first<{ n: number }>();
  return Number(row?.n ?? 0);
}

async function staffUser() {
  const admin = await adminSession();
  const staff = await verifiedSession("0905", "Desk");
  await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
  return staff;
}

type Desk = { deadLetters: { id: string; broadcastId: string | null; people: number | null; attempts: number }[] };

async function deadLetter(body: unknown, attempts = 6) {
  const id = newId();
  const batch = createMessageBatch(SOS_DEAD_LETTER_QUEUE, [{ id, timestamp: new Date(), attempts, body }]);
  const ctx = createExecutionContext();
  await sosQueue(batch, env as AppEnv);
  return { id, result: await getQueueResult(batch, ctx) };
}

describe("the SOS fan-out's dead letters", () => {
  it("are kept once and counted, shown on the staff desk, and a replay by staff alerts the people the message held", async () => {
    const at = { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
    const sender = await anonymousSession();
    const person = await subscriberAt(at);
    // An SOS elsewhere, so nobody is alerted but through the dead letter.
    const res = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: {
        message: "Flood",
        emergencyType: "flood",
        clientRequestId: newId(),
        location: { latitude: at.latitude + 2, longitude: at.longitude },
      },
    });
    const { id: sosId } = await res.json<{ id: string }>();
    const before = await trouble("dead_lettered");
    const body: SosFanoutMessage = { broadcastId: sosId, audience: "nearby", userIds: [person] };
    const first = await deadLetter(body);
    expect(first.result.explicitAcks).toEqual([first.id]);
    // The queue may deliver a dead letter twice: still one row, counted once.
    await sosQueue(createMessageBatch(SOS_DEAD_LETTER_QUEUE, [{ id: first.id, timestamp: new Date(), attempts: 6, body }]), env as AppEnv);
    expect(await trouble("dead_lettered")).toBe(before + 1);

    const staff = await staffUser();
    const desk = await (await call("/api/admin/sos", { cookie: staff.cookie })).json<Desk>();
    const shown = desk.deadLetters.find((d) => d.broadcastId === sosId);
    expect(shown).toMatchObject({ people: 1, attempts: 6 });

    // Only staff may replay, whatever the client shows.
    const someone = await anonymousSession();
    const verified = await verifiedSession("0906", "Nosy");
    const path = `/api/admin/sos/dead-letters/${shown?.id}/replay`;
    expect((await call(path, { method: "POST" })).status).toBe(401);
    expect((await call(path, { method: "POST", cookie: someone.cookie })).status).toBe(403);
    expect((await call(path, { method: "POST", cookie: verified.cookie })).status).toBe(403);

    expect((await call(path, { method: "POST", cookie: staff.cookie })).status).toBe(200);
    // Back on the real queue: its consumer alerts the person once.
    await until(() => edge.calls.length > 0, 15_000);
    expect(edge.calls).toEqual([`/${person}`]);
    // Replayed: gone from the desk, and a second replay is refused.
    const after = await (await call("/api/admin/sos", { cookie: staff.cookie })).json<Desk>();
    expect(after.deadLetters.some((d) => d.id === shown?.id)).toBe(false);
    expect((await call(path, { method: "POST", cookie: staff.cookie })).status).toBe(404);
  }, 60_000);
});

describe("trouble counted on the SOS path", () => {
  it("counts a redelivered fan-out message as retried", async () => {
    const before = await trouble("queue_retried");
    const batch = createMessageBatch<SosFanoutMessage>("linkup-sos-fanout", [
      { id: newId(), timestamp: new Date(), attempts: 2, body: { broadcastId: "gone", audience: "nearby", userIds: ["nobody"] } },
    ]);
    await consumeSosFanout(batch, env as AppEnv);
    expect(await trouble("queue_retried")).toBe(before + 1);
  });

  it("the Cron sweep finishes an SOS whose request died after it was recorded, and counts it unfinished", async () => {
    const at = { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
    const sender = await anonymousSession();
    const person = await subscriberAt(at);
    armFault("sos.recorded");
    const input = {
      userId: sender.user.id,
      message: "Help",
      emergencyType: "medical",
      location: at,
      clientRequestId: newId(),
      channel: "web" as const,
    };
    await expect(broadcastSos(env as AppEnv, db, input)).rejects.toBeInstanceOf(InjectedFault);
    expect(edge.calls).toEqual([]);
    const before = await trouble("sos_unfinished");
    // Not yet 30 s old: left alone.
    await resumeUnfinishedSos(env as AppEnv, db, new Date());
    expect(edge.calls).toEqual([]);
    await resumeUnfinishedSos(env as AppEnv, db, new Date(Date.now() + SOS_UNFINISHED_AFTER_MS + 1000));
    expect(edge.calls).toEqual([`/${person}`]);
    expect(await trouble("sos_unfinished")).toBeGreaterThanOrEqual(before + 1);
    // Shown as sent: the same request again answers from the finished job.
    const replay = await broadcastSos(env as AppEnv, db, input);
    expect(replay).toMatchObject({ created: false, failed: [] });
    // Finished once the queue has read the rest of the area too (the page it queued keeps the job open).
    await vi.waitFor(async () => expect((await findBroadcast(db, replay.id))?.jobDoneAt).toBeInstanceOf(Date), {
      timeout: 20_000,
      interval: 100,
    });
  }, 60_000);
});
