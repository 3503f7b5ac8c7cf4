// An SOS survives a crash at any point (docs/decisions/054-sos-a-durable-job.md): the path is walked once to
// learn its fault points (core/faults.ts), then failed at each in turn and retried the way the real callers do
// (the same request again, the Cron sweep a minute later, the queue redelivering with its delays). The push
// service is faked only at the outbound fetch edge; the room, D1 and the dev outbox (the contacts' WhatsApp) are
// real. The queue is driven here with createMessageBatch, its clock moved by the delays the consumer asks for.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { armFault, faultPointsPassed, InjectedFault, resetFaults } from "../../core/faults";
import { newId } from "../../core/ids";
import type { SosFanoutMessage } from "../../core/sos-schemas";
import { createDb } from "../../db";
import { countDeliveries, findBroadcast } from "../../db/queries/emergency";
import { outboundMessages } from "../../db/schema";
import { anonymousSession, call } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { broadcastSos, resumeUnfinishedSos } from ".";
import { CLAIM_LEASE_MS, consumeSosFanout, INLINE_RECIPIENTS } from "./fanout";
import { fakePushEdge, subscriberAt } from "../../tests/workers/push-edge";

/** Push-service calls per endpoint path (one endpoint per person). */
const edge = fakePushEdge();

const db = createDb(env);
/** More than the request alerts itself, so the queue carries some. */
const PEOPLE = INLINE_RECIPIENTS + 3;

/** A sender, their emergency contact (messaged on WhatsApp through the dev outbox) and PEOPLE subscribers nearby. */
async function scene() {
  const at = { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
  const sender = await anonymousSession();
  const contact = `+234803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  expect((await call("/api/contacts", { method: "POST", cookie: sender.cookie, json: { name: "Ada", phone: contact } })).status).toBe(201);
  const people: string[] = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await subscriberAt(at));
  return { at, sender, contact, people };
}

type Queued = { id: string; body: SosFanoutMessage; attempts: number; due: number };

/**
 * The system around one SOS: the caller who retries the same request when it fails, the queue (redelivery with
 * the delay the consumer asked for), and the Cron sweep every minute. Runs until nothing is left to do.
 * `loseQueueAt`: the machine dies at that point with its queue (workerd's local queue is kept in memory, and in
 * production a message can be dropped or dead-lettered): every message not yet delivered, and the one being
 * handled, is lost instead of retried.
 */
async function runAsTheWorldWould(input: Parameters<typeof broadcastSos>[2], loseQueueAt: string | null = null) {
  const queue: Queued[] = [];
  let died = false;
  /** True once, right after the attempt in which the machine died: what was queued is gone. */
  const diedNow = () => {
    if (died || loseQueueAt === null || !faultPointsPassed().includes(loseQueueAt)) return false;
    died = true;
    queue.length = 0;
    return true;
  };
  let clock = Date.now();
  const put = (body: SosFanoutMessage) => {
    queue.push({ id: newId(), body, attempts: 1, due: clock });
  };
  const appEnv = {
    ...(env as AppEnv),
    SOS_FANOUT: {
      send: async (body: SosFanoutMessage) => put(body),
      sendBatch: async (messages: { body: SosFanoutMessage }[]) => {
        for (const m of messages) put(m.body);
      },
    },
  } as unknown as AppEnv;

  // The caller: the web client (or the USSD gateway) sends the same request again when it failed.
  let answer: Awaited<ReturnType<typeof broadcastSos>> | null = null;
  for (let tries = 0; !answer && tries < 3; tries++) {
    answer = await broadcastSos(appEnv, db, input).catch((e) => {
      if (e instanceof InjectedFault) return null;
      throw e;
    });
    diedNow();
  }
  expect(answer).not.toBeNull();
  const drain = async () => {
    for (let n = 0; queue.length && n < 200; n++) {
      queue.sort((a, b) => a.due - b.due);
      const m = queue.shift() as Queued;
      clock = Math.max(clock, m.due);
      const batch = createMessageBatch<SosFanoutMessage>("linkup-sos-fanout", [
        { id: m.id, timestamp: new Date(clock), attempts: m.attempts, body: m.body },
      ]);
      const ctx = createExecutionContext();
      await consumeSosFanout(batch, appEnv, new Date(clock));
      const result = await getQueueResult(batch, ctx);
      if (diedNow()) continue;
      const retry = result.retryMessages[0];
      // getQueueResult does not report the delay asked for; every delay the consumer asks is at most a lease.
      if (retry) queue.push({ ...m, attempts: m.attempts + 1, due: clock + CLAIM_LEASE_MS + 1000 });
    }
  };
  await drain();
  // The Cron sweep, every minute, until the job is finished (a claim lapses after CLAIM_LEASE_MS).
  for (let minute = 0; minute < 5 && !(await findBroadcast(db, (answer as { id: string }).id))?.jobDoneAt; minute++) {
    clock += Math.max(60_000, CLAIM_LEASE_MS + 1000);
    await resumeUnfinishedSos(appEnv, db, new Date(clock));
    await drain();
  }
  expect(queue).toEqual([]);
  return answer as Awaited<ReturnType<typeof broadcastSos>>;
}

async function contactMessages(phone: string) {
  return db
    .select()
    .from(outboundMessages)
    .where(and(eq(outboundMessages.to, phone), eq(outboundMessages.channel, "whatsapp")));
}

async function sendAndCheck(point: string | null, loseQueue = false) {
  const { at, sender, contact, people } = await scene();
  edge.calls = [];
  resetFaults();
  if (point) armFault(point);
  const input = {
    userId: sender.user.id,
    message: "Fire in the market",
    emergencyType: "fire",
    location: at,
    clientRequestId: newId(),
    channel: "web" as const,
  };
  const answer = await runAsTheWorldWould(input, loseQueue ? point : null);

  // Everyone nearby got a push; the SOS is finished, recorded as sent, and its replay says so.
  // Counted for this scene's people only: the Cron sweep also resumes an earlier walk's unfinished job when its
  // lease lapses, and that job's pushes go to its own people.
  const mine = new Set(people.map((p) => `/${p}`));
  const perPerson = new Map<string, number>();
  for (const p of edge.calls) if (mine.has(p)) perPerson.set(p, (perPerson.get(p) ?? 0) + 1);
  expect([...perPerson.keys()].sort()).toEqual(people.map((p) => `/${p}`).sort());
  const row = await findBroadcast(db, answer.id);
  expect(row?.jobDoneAt).toBeInstanceOf(Date);
  expect(await countDeliveries(db, answer.id)).toEqual({ pushed: PEOPLE, stored: 0, off: 0, failed: 0 });
  const replay = await broadcastSos(env as AppEnv, db, input);
  expect(replay).toMatchObject({ id: answer.id, created: false, reached: { contacts: 1 } });
  return { perPerson, contactMessages: (await contactMessages(contact)).length, passed: [...faultPointsPassed()] };
}

describe("an SOS that crashes mid-way", () => {
  it("alerts everyone exactly once whatever point it fails at, retried by the caller, the Cron and the queue", async () => {
    const walk = await sendAndCheck(null);
    for (const n of walk.perPerson.values()) expect(n).toBe(1);
    expect(walk.contactMessages).toBe(1);
    const points = [...new Set(walk.passed)];
    // The path's points, request and consumer (named for the SIGKILL runner, core/faults.ts).
    expect(points).toEqual(
      expect.arrayContaining([
        "sos.recorded",
        "sos.room.done",
        "sos.area.queued",
        "sos.area.claimed",
        "sos.area.stored",
        "sos.area.pushed",
        "sos.area.settled",
        "sos.area.done",
        "sos.contacts.claimed",
        "sos.contacts.sent",
        "sos.contacts.done",
        "sos.finished",
        "sos.consumer.planned",
        "sos.consumer.claimed",
        "sos.consumer.stored",
        "sos.consumer.pushed",
        "sos.consumer.settled",
      ]),
    );
    for (const point of points) checkEnd(point, await sendAndCheck(point));
  }, 600_000);

  it("alerts everyone once and finishes the job when the queue's messages die with the machine, at every point", async () => {
    const walk = await sendAndCheck(null);
    for (const point of new Set(walk.passed)) checkEnd(point, await sendAndCheck(point, true));
  }, 600_000);
});

/** Everyone alerted once (twice at most only at the `.pushed` points), the contact messaged exactly once. */
function checkEnd(point: string, { perPerson, contactMessages }: { perPerson: Map<string, number>; contactMessages: number }) {
  // A contact's message is recorded under its attempt's id before it goes: a retry finds it and sends no second.
  expect(contactMessages, point).toBe(1);
  // Dying after the push service took a push and before it was recorded is the one window in which a
  // person's push goes out again (the same notification, which replaces the first on their screen).
  const again = [...perPerson.values()].filter((n) => n > 1).length;
  if (point.endsWith(".pushed")) {
    for (const n of perPerson.values()) expect(n, point).toBeLessThanOrEqual(2);
  } else expect(again, point).toBe(0);
}
