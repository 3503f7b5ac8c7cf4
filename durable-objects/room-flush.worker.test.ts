// The room's D1 batch survives a crash at every step (docs/decisions/056-the-room-is-the-record-of-its-messages.md,
// 053-nothing-lost.md): a room that dies at any fault point of its flush and wakes again ends with every message
// counted exactly once in D1 (analytics, points, activity) and none lost from its history.
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { armFault, faultPointsPassed, resetFaults } from "../core/faults";
import { MESSAGE_POINTS } from "../core/rewards";
import { anonymousSession } from "../tests/workers/helpers";
import { busyAreaRoom as busyRoom, flushRoom, mustOpen, textEnvelope } from "../tests/workers/room-socket";
import { MeshRoom } from "./mesh-room";
import type { RoomEffects } from "./room-effects";

const stubOf = (roomId: string) => env.ROOMS.get(env.ROOMS.idFromName(roomId));
afterEach(() => resetFaults());

/** The room's minute passes and its alarm runs, failing at `point`; then the room wakes as a new instance and runs it again. */
async function dieAndWake(roomId: string, point: string): Promise<void> {
  await runInDurableObject(stubOf(roomId), async (room: MeshRoom, state) => {
    const due = () => state.storage.sql.exec("UPDATE meta SET value = '0' WHERE key = 'flush_at'");
    due();
    armFault(point);
    await room.alarm();
    // Woken again: nothing of the first instance's memory, only its storage (and its alarm, a minute on).
    const woken = new MeshRoom(state, env, room.effects);
    due();
    await woken.alarm();
  });
}

const one = async <T>(query: string, ...binds: unknown[]) =>
  (await env.DB.prepare(query)
    .bind(...binds)
    .first<T>()) as T;

/** What D1 and the room hold for it now. */
async function counted(room: { roomId: string; area: string; people: string[] }) {
  const sum = (table: string) =>
    one<{ n: number | null }>(`SELECT sum(count) AS n FROM ${table} WHERE kind = 'message.nearby' AND area = ?`, room.area);
  const [daily, hourly, activity] = await Promise.all([
    sum("analytics_daily"),
    sum("analytics_hourly"),
    one<{ messages: number } | null>("SELECT messages FROM room_activity WHERE room_id = ?", room.roomId),
  ]);
  const perPerson = await Promise.all(
    room.people.map(async (id) => ({
      personal: (await one<{ n: number | null }>("SELECT sum(count) AS n FROM analytics_personal WHERE user_id = ?", id)).n,
      points: (await one<{ n: number | null }>("SELECT sum(points) AS n FROM point_events WHERE user_id = ? AND kind = 'message'", id)).n,
    })),
  );
  const history = await runInDurableObject(
    stubOf(room.roomId),
    (_r, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM envelopes WHERE body IS NOT NULL").one().n,
  );
  return { daily: daily.n, hourly: hourly.n, activity: activity?.messages ?? null, perPerson, history };
}

describe("the room's D1 batch after a crash", () => {
  it("counts every message exactly once and loses none, whichever step of the flush the room died at", async () => {
    const each = 3;
    // The path walked once: its fault points, in order.
    const walked = await busyRoom("v0", each);
    resetFaults();
    expect(await flushRoom(walked.roomId)).toBe(true);
    const points = [...new Set(faultPointsPassed())].filter((p) => p.startsWith("room.flush."));
    expect(points).toEqual(["room.flush.collected", "room.flush.written", "room.flush.marked"]);
    const whole = { daily: 2 * each, hourly: 2 * each, activity: 2 * each, history: 2 * each };
    const perPerson = [
      { personal: each, points: each * MESSAGE_POINTS },
      { personal: each, points: each * MESSAGE_POINTS },
    ];
    expect(await counted(walked)).toEqual({ ...whole, perPerson });

    for (const [i, point] of points.entries()) {
      const room = await busyRoom(`w${i}`, each);
      await dieAndWake(room.roomId, point);
      expect({ point, ...(await counted(room)) }).toEqual({ point, ...whole, perPerson });
      // And the next minute's batch, with nothing new, adds nothing.
      await flushRoom(room.roomId);
      expect({ point, ...(await counted(room)) }).toEqual({ point, ...whole, perPerson });
    }
  });

  it("keeps a failed batch pending and counts it at the next alarm, with what came after it", async () => {
    const room = await busyRoom("x0", 2);
    armFault("room.flush.written");
    await flushRoom(room.roomId);
    // D1 took the batch but the room died before noting it: the messages are still pending in the room.
    const pending = await runInDurableObject(stubOf(room.roomId), (_r, state) =>
      state.storage.sql.exec<{ v: string }>("SELECT value AS v FROM meta WHERE key = 'd1_through'").toArray(),
    );
    expect(pending).toEqual([]);
    const later = await anonymousSession();
    const s = await mustOpen(room.roomId, later.cookie);
    s.send({ type: "send", envelope: textEnvelope(room.roomId, later.user.id, "after the crash") });
    await s.waitForType("ack");
    s.close();
    await flushRoom(room.roomId);
    const after = await counted({ ...room, people: [...room.people, later.user.id] });
    expect(after).toMatchObject({ daily: 5, hourly: 5, activity: 5, history: 5 });
    expect(after.perPerson.map((p) => p.points)).toEqual([2, 2, 1].map((n) => n * MESSAGE_POINTS));
  });

  it("keeps a batch D1 refused pending, counts it as trouble for the operator, and sends it at the next alarm", async () => {
    const room = await busyRoom("y0", 2);
    const trouble = async () =>
      (await one<{ n: number | null }>("SELECT sum(count) AS n FROM analytics_daily WHERE kind = 'ops.d1_write_failed'")).n ?? 0;
    const before = await trouble();
    // D1 refuses the batch: the table its last statement writes is not there.
    await env.DB.exec("ALTER TABLE room_activity RENAME TO room_activity_away");
    try {
      await flushRoom(room.roomId);
    } finally {
      await env.DB.exec("ALTER TABLE room_activity_away RENAME TO room_activity");
    }
    expect(await trouble()).toBe(before + 1);
    // One transaction: nothing of the refused batch was kept.
    expect(await counted(room)).toMatchObject({ daily: null, activity: null, history: 4 });
    await flushRoom(room.roomId);
    expect(await counted(room)).toMatchObject({ daily: 4, hourly: 4, activity: 4, history: 4 });
  });

  it("reports a refused batch through its port, so the room runs with any host (a fake one here)", async () => {
    const room = await busyRoom("y1", 1);
    const reported: unknown[] = [];
    const fake: RoomEffects = {
      notifyDirectMessageIfOffline: async () => true,
      notify: async () => undefined,
      countD1WriteFailed: async (db) => reported.push(db),
    };
    const before = await one<{ n: number | null }>("SELECT sum(count) AS n FROM analytics_daily WHERE kind = 'ops.d1_write_failed'");
    await env.DB.exec("ALTER TABLE room_activity RENAME TO room_activity_away");
    try {
      await runInDurableObject(stubOf(room.roomId), async (_room, state) => {
        const hosted = new MeshRoom(state, env, fake);
        state.storage.sql.exec("UPDATE meta SET value = '0' WHERE key = 'flush_at'");
        await hosted.alarm();
      });
    } finally {
      await env.DB.exec("ALTER TABLE room_activity_away RENAME TO room_activity");
    }
    expect(reported).toHaveLength(1);
    // The Worker's counter was not touched: the fake host took the report.
    expect(await one<{ n: number | null }>("SELECT sum(count) AS n FROM analytics_daily WHERE kind = 'ops.d1_write_failed'")).toEqual(
      before,
    );
  });
});
