// The SOS job's queries (docs/decisions/054-sos-a-durable-job.md) on both drivers, run from
// db/queries/libsql.test.ts and db/queries/d1.worker.test.ts. Each test makes its own rows.
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { insertBroadcastOnce } from "./emergency";
import {
  areaPage,
  claimRecipients,
  claimContact,
  contactAttempts,
  finishJob,
  keepDeadLetter,
  markStepDone,
  pageReached,
  pagesRequeued,
  noteNotifications,
  openDeadLetters,
  recipientStatuses,
  settleRecipients,
  stalePages,
  stepsOf,
  takeDeadLetter,
  trackPages,
  unfinishedJobs,
} from "./sos-jobs";
import { findBroadcast } from "./emergency";
import { createUser } from "./users";

export function sosQuerySuite(driver: string, getDb: () => Db) {
  describe(`SOS job queries on ${driver}`, () => {
    const sosOf = async (db: Db) => {
      const sender = await createUser(db, { nickname: "Sender" });
      const { row } = await insertBroadcastOnce(db, {
        userId: sender.id,
        clientRequestId: newId(),
        channel: "web",
        emergencyType: "fire",
        message: "Fire",
      });
      return { sender, row };
    };

    it("claims each person once; a failed push or a lapsed claim may be claimed again, a live one not", async () => {
      const db = getDb();
      const { row } = await sosOf(db);
      const a = await createUser(db);
      const b = await createUser(db);
      const c = await createUser(db);
      const t0 = new Date();
      const first = await claimRecipients(db, row.id, [a.id, b.id, c.id], 60_000, t0);
      expect(first.map((r) => r.userId).sort()).toEqual([a.id, b.id, c.id].sort());
      expect(await claimRecipients(db, row.id, [a.id, b.id, c.id], 60_000, t0)).toEqual([]);
      await noteNotifications(db, row.id, [{ userId: a.id, notificationId: "n-a" }]);
      await settleRecipients(db, row.id, [
        { userId: a.id, status: "pushed" },
        { userId: b.id, status: "failed" },
      ]);
      const statuses = await recipientStatuses(db, row.id, [a.id, b.id, c.id]);
      expect(statuses.get(c.id)?.updatedAt).toBe(t0.getTime());
      expect(Object.fromEntries([...statuses].map(([u, s]) => [u, s.status]))).toEqual({
        [a.id]: "pushed",
        [b.id]: "failed",
        [c.id]: "sending",
      });
      // A minute later: b's failed push and c's lapsed claim are taken; a, reached, never again.
      const later = await claimRecipients(db, row.id, [a.id, b.id, c.id], 60_000, new Date(t0.getTime() + 61_000));
      expect(later.map((r) => r.userId).sort()).toEqual([b.id, c.id].sort());
    });

    it("pages an area by presence, newest first, then those present after the SOS, oldest first", async () => {
      const db = getDb();
      const geohash = `t${newId().slice(0, 4)}`;
      const { sender } = await sosOf(db);
      const snapshot = Date.now();
      const at = (ms: number) => new Date(snapshot + ms);
      const old = await createUser(db, { geohash, locationUpdatedAt: at(-3000) });
      const recent = await createUser(db, { geohash, locationUpdatedAt: at(-1000) });
      const mid = await createUser(db, { geohash, locationUpdatedAt: at(-2000) });
      const late2 = await createUser(db, { geohash, locationUpdatedAt: at(2000) });
      const late1 = await createUser(db, { geohash, locationUpdatedAt: at(1000) });
      await createUser(db, { geohash: `${geohash}x`, locationUpdatedAt: at(-500) });
      const page = (phase: "present" | "late", after: { at: number; id: string } | null, size = 2) =>
        areaPage(db, { geohashes: [geohash], exceptUserId: sender.id, snapshot, phase, after, size });
      const p1 = await page("present", null);
      expect(p1.map((p) => p.id)).toEqual([recent.id, mid.id]);
      const p2 = await page("present", p1[1]);
      expect(p2.map((p) => p.id)).toEqual([old.id]);
      const l1 = await page("late", null, 10);
      expect(l1.map((p) => p.id)).toEqual([late1.id, late2.id]);
    });

    it("records steps, claims a contact's step once until it lapses, and lists jobs left unfinished", async () => {
      const db = getDb();
      const { row } = await sosOf(db);
      const t0 = new Date();
      // Each attempt that takes the contact is numbered; a live claim is not taken.
      expect(await claimContact(db, row.id, "contact:+2348030000000", 60_000, t0)).toBe(1);
      expect(await claimContact(db, row.id, "contact:+2348030000000", 60_000, t0)).toBeNull();
      expect(await claimContact(db, row.id, "contact:+2348030000000", 60_000, new Date(t0.getTime() + 61_000))).toBe(2);
      expect(await contactAttempts(db, row.id, "contact:+2348030000000")).toBe(2);
      await markStepDone(db, row.id, "room", { delivered: 3 });
      const steps = await stepsOf(db, row.id);
      expect(steps.get("room")).toMatchObject({ state: "done", result: { delivered: 3 } });
      const unfinished = await unfinishedJobs(db, new Date(Date.now() + 31_000), 30_000, 10_000);
      expect(unfinished.some((r) => r.id === row.id)).toBe(true);
      expect((await unfinishedJobs(db, new Date(), 30_000, 10_000)).some((r) => r.id === row.id)).toBe(false);
    });

    it("keeps a job open until every queued page is reached; lost pages come back to the sweep, then are given up", async () => {
      const db = getDb();
      const { row } = await sosOf(db);
      const t0 = new Date(Date.now() - 120_000);
      const at = (ms: number) => new Date(t0.getTime() + ms);
      const body = (key: string) => ({ broadcastId: row.id, key });
      expect(
        [
          ...(await trackPages(
            db,
            row.id,
            [
              { key: "page:a", body: body("page:a") },
              { key: "page:b", body: body("page:b") },
            ],
            t0,
          )),
        ].sort(),
      ).toEqual(["page:a", "page:b"]);
      // Pages are not steps.
      expect([...(await stepsOf(db, row.id)).keys()]).toEqual([]);
      for (const step of ["room", "area", "contacts"]) await markStepDone(db, row.id, step, {}, t0);
      expect(await finishJob(db, row.id, { push: 1 }, t0)).toBe(false);
      expect((await findBroadcast(db, row.id))?.jobDoneAt).toBeNull();
      // A page reached stays done: recording it again (a plan redelivered) does not send it again.
      expect(await pageReached(db, row.id, "page:a", at(1000))).toBe(false);
      expect([
        ...(await trackPages(
          db,
          row.id,
          [
            { key: "page:a", body: body("page:a") },
            { key: "page:b", body: body("page:b") },
          ],
          at(1000),
        )),
      ]).toEqual(["page:b"]);
      // While the job reaches pages, an open one is left to the queue; a minute with nothing reached, it is stale.
      expect(await stalePages(db, row.id, at(30_000), 60_000, 10)).toEqual([]);
      expect(await stalePages(db, row.id, at(60_500), 60_000, 10)).toEqual([]);
      expect(await stalePages(db, row.id, at(62_000), 60_000, 10)).toEqual([{ key: "page:b", body: body("page:b"), requeues: 0 }]);
      // Sent again: it waits twice as long before the next send; the last allowed send gives it up.
      await pagesRequeued(db, row.id, ["page:b"], 2, at(62_000));
      expect(await stalePages(db, row.id, at(62_000 + 119_000), 60_000, 10)).toEqual([]);
      expect(await stalePages(db, row.id, at(62_000 + 121_000), 60_000, 10)).toEqual([
        { key: "page:b", body: body("page:b"), requeues: 1 },
      ]);
      // Reached: the last open page finishes the job.
      expect(await pageReached(db, row.id, "page:b", at(200_000))).toBe(true);
      expect((await findBroadcast(db, row.id))?.jobDoneAt?.getTime()).toBe(at(200_000).getTime());
      const other = (await sosOf(db)).row;
      await trackPages(db, other.id, [{ key: "page:c", body: body("page:c") }], t0);
      await pagesRequeued(db, other.id, ["page:c"], 1, at(62_000));
      expect(await stalePages(db, other.id, at(3_600_000), 60_000, 10)).toEqual([]);
      for (const step of ["room", "area", "contacts"]) await markStepDone(db, other.id, step, {}, t0);
      expect(await finishJob(db, other.id, { push: 0 }, at(70_000))).toBe(true);
    });

    it("keeps a dead letter once per message and lets one replay take it", async () => {
      const db = getDb();
      const messageId = newId();
      expect(await keepDeadLetter(db, { messageId, broadcastId: null, body: { x: 1 }, attempts: 6 })).toBe(true);
      expect(await keepDeadLetter(db, { messageId, broadcastId: null, body: { x: 1 }, attempts: 6 })).toBe(false);
      const kept = (await openDeadLetters(db, 10_000)).find((d) => d.messageId === messageId);
      expect(kept?.body).toEqual({ x: 1 });
      expect(await takeDeadLetter(db, kept?.id as string, "staff-1")).toMatchObject({ replayedBy: "staff-1" });
      expect(await takeDeadLetter(db, kept?.id as string, "staff-2")).toBeUndefined();
    });
  });
}
