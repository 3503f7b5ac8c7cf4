// Shards of a busy area (durable-objects/shards.ts, docs/decisions/043-room-speed-and-shards.md) through the real
// Worker: the main room's socket budget is lowered to a few sockets on the instance, so the next people go to
// shards, separate Durable Objects that relay to each other.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shardObjectName } from "../core/room-ids";
import { anonymousSession } from "../tests/workers/helpers";
import { mustOpen, type RoomSocket, textEnvelope } from "../tests/workers/room-socket";
import type { MeshRoom } from "./mesh-room";
import { pickShard } from "./shards";

const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";
const area = () => `nearby:${Array.from({ length: 5 }, () => GEOHASH[Math.floor(Math.random() * 32)]).join("")}`;
const stubOf = (name: string) => env.ROOMS.get(env.ROOMS.idFromName(name)) as DurableObjectStub<MeshRoom>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An area room whose objects each take `budget` sockets. */
async function busyArea(budget: number): Promise<string> {
  const roomId = area();
  await runInDurableObject(stubOf(roomId), (room: MeshRoom) => {
    room.shards.budget = budget;
  });
  return roomId;
}

const shardOf = (s: RoomSocket) => s.of("hello")[0]?.shard ?? 0;
/** Envelopes with this id a socket got, live or in a resume. */
const copies = (s: RoomSocket, id: string) =>
  s.of("envelope").filter((f) => f.envelope.id === id).length +
  s.of("resume-batch").flatMap((f) => f.items.filter((i) => i.envelope.id === id)).length;

describe("a busy area's shards", () => {
  it("sends sockets past the budget to a shard, and members of both see every message exactly once", async () => {
    const roomId = await busyArea(2);
    const [a, b, c, d] = await Promise.all([anonymousSession(), anonymousSession(), anonymousSession(), anonymousSession()]);
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    const sc = await mustOpen(roomId, c.cookie);
    const sd = await mustOpen(roomId, d.cookie);
    expect([shardOf(sa), shardOf(sb), shardOf(sc), shardOf(sd)]).toEqual([0, 0, 1, 1]);

    const fromMain = textEnvelope(roomId, a.user.id, "Fuel at the Ojota station");
    sa.send({ type: "send", envelope: fromMain });
    const fromShard = textEnvelope(roomId, c.user.id, "Queue is long at Ojota");
    sc.send({ type: "send", envelope: fromShard });
    for (const s of [sb, sc, sd]) await s.waitForType("envelope", (f) => f.envelope.id === fromMain.id);
    for (const s of [sa, sb, sd]) await s.waitForType("envelope", (f) => f.envelope.id === fromShard.id);
    // b leaves, so c's next socket opens in the main room; c resends there (its first ack lost, say): the main room
    // has it from the shard already, answers a duplicate ack, and nobody gets it twice.
    sb.close();
    await sleep(200);
    const elsewhere = await mustOpen(roomId, c.cookie);
    expect(shardOf(elsewhere)).toBe(0);
    elsewhere.send({ type: "send", envelope: fromShard });
    expect(await elsewhere.waitForType("ack", (f) => f.id === fromShard.id)).toMatchObject({ duplicate: true });
    await sleep(300);
    for (const s of [sb, sc, sd]) expect(copies(s, fromMain.id)).toBe(1);
    for (const s of [sa, sb, sd]) expect(copies(s, fromShard.id)).toBe(1);
    expect(copies(sa, fromMain.id)).toBe(0);
    expect(copies(sc, fromShard.id)).toBe(0);
    for (const s of [sa, sc, sd, elsewhere]) s.close();
  });

  it("gives a person offline while messages were sent on another shard all of them when they resume", async () => {
    const roomId = await busyArea(2);
    const [a, b, c, y] = await Promise.all([anonymousSession(), anonymousSession(), anonymousSession(), anonymousSession()]);
    const sa = await mustOpen(roomId, a.cookie);
    const sy = await mustOpen(roomId, y.cookie);
    expect(shardOf(sy)).toBe(0);
    const before = textEnvelope(roomId, a.user.id, "Before you left");
    sa.send({ type: "send", envelope: before });
    const seen = await sy.waitForType("envelope", (f) => f.envelope.id === before.id);
    // y's device keeps the main room's seq as its cursor, and goes offline.
    const cursor = { cursor: seen.seq, shard: shardOf(sy) };
    sy.close();
    await sleep(200);

    // The main room fills up while y is away; c lands on a shard and talks there, a in the main room.
    const sb = await mustOpen(roomId, b.cookie);
    const sc = await mustOpen(roomId, c.cookie);
    expect(shardOf(sc)).toBe(1);
    const onShard = textEnvelope(roomId, c.user.id, "Sent on the shard");
    const onMain = textEnvelope(roomId, a.user.id, "Sent in the main room");
    sc.send({ type: "send", envelope: onShard });
    sa.send({ type: "send", envelope: onMain });
    await sb.waitForType("envelope", (f) => f.envelope.id === onShard.id);
    await sc.waitForType("envelope", (f) => f.envelope.id === onMain.id);

    // y comes back: the main room is full, so y is on the shard, resuming with the main room's cursor.
    const back = await mustOpen(roomId, y.cookie);
    expect(shardOf(back)).toBe(1);
    back.send({ type: "resume", ...cursor });
    const done = await back.waitForType("resume-done");
    expect(copies(back, onShard.id)).toBe(1);
    expect(copies(back, onMain.id)).toBe(1);
    expect(copies(back, before.id)).toBe(0);
    expect(done).toMatchObject({ shard: 1 });
    expect(done.more).toBeUndefined();

    // From now on y's cursor counts the shard's seqs: resuming again brings nothing twice, and what comes next arrives.
    back.send({ type: "resume", cursor: done.cursor, shard: done.shard });
    await back.waitFor(() => back.of("resume-done")[1]);
    expect(copies(back, onShard.id)).toBe(1);
    expect(copies(back, onMain.id)).toBe(1);
    back.close();
    const later = textEnvelope(roomId, a.user.id, "While you were away again");
    sa.send({ type: "send", envelope: later });
    await sc.waitForType("envelope", (f) => f.envelope.id === later.id);
    const again = await mustOpen(roomId, y.cookie);
    again.send({ type: "resume", cursor: done.cursor, shard: done.shard });
    await again.waitForType("resume-done");
    expect(copies(again, later.id)).toBe(1);
    expect(copies(again, onShard.id)).toBe(0);
    for (const s of [sa, sb, sc, again]) s.close();
  });

  it("adds a shard when every shard is full, and relays between all of them", async () => {
    const roomId = await busyArea(1);
    const people = await Promise.all([anonymousSession(), anonymousSession(), anonymousSession()]);
    const sockets: RoomSocket[] = [];
    for (const p of people) sockets.push(await mustOpen(roomId, p.cookie));
    expect(sockets.map(shardOf)).toEqual([0, 1, 2]);
    const third = await runInDurableObject(stubOf(shardObjectName(roomId, 2)), (_room, state) =>
      state.storage.sql.exec<{ value: number }>("SELECT value FROM shard_state WHERE key = 'index'").one(),
    );
    expect(third.value).toBe(2);

    const sent = sockets.map((s, i) => {
      const envelope = textEnvelope(roomId, people[i]!.user.id, `Hello from shard ${i}`);
      s.send({ type: "send", envelope });
      return envelope;
    });
    for (const [i, s] of sockets.entries())
      for (const [j, envelope] of sent.entries()) if (i !== j) await s.waitForType("envelope", (f) => f.envelope.id === envelope.id);
    await sleep(300);
    for (const [i, s] of sockets.entries())
      for (const [j, envelope] of sent.entries()) expect(copies(s, envelope.id)).toBe(i === j ? 0 : 1);
    for (const s of sockets) s.close();
  });

  it("tells a sender on one shard the receipts of a reader on another, and counts the whole cell in its live figures", async () => {
    const roomId = await busyArea(1);
    const [a, b] = await Promise.all([anonymousSession(), anonymousSession()]);
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    expect([shardOf(sa), shardOf(sb)]).toEqual([0, 1]);
    const envelope = textEnvelope(roomId, a.user.id, "Did you see this?");
    sa.send({ type: "send", envelope });
    await sb.waitForType("envelope", (f) => f.envelope.id === envelope.id);
    sb.send({ type: "receipt", status: "read", ids: [envelope.id] });
    expect(await sa.waitForType("receipt")).toMatchObject({ status: "read", ids: [envelope.id], by: b.user.id });
    // The sender away and back (on the main room again): the resume brings the receipt kept there.
    sa.close();
    const back = await mustOpen(roomId, a.cookie);
    back.send({ type: "resume", cursor: 0 });
    const done = await back.waitForType("resume-done");
    expect(done.receipts).toEqual([{ id: envelope.id, status: "read", by: b.user.id }]);

    // /mesh-network's figures (the main room's stats) count both shards' people once the shard has reported.
    const stats = await (async () => {
      for (let i = 0; i < 40; i++) {
        const s = await stubOf(roomId).stats();
        if (s.people === 2) return s;
        await sleep(50);
      }
      return stubOf(roomId).stats();
    })();
    expect(stats).toMatchObject({ nodes: 2, people: 2 });
    for (const s of [back, sb]) s.close();
  });

  it("gives someone on a new shard the history from before it existed, as history and not as live news", async () => {
    const roomId = await busyArea(1);
    const [a, b] = await Promise.all([anonymousSession(), anonymousSession()]);
    const sa = await mustOpen(roomId, a.cookie);
    const earlier = [1, 2, 3].map((i) => textEnvelope(roomId, a.user.id, `Earlier ${i}`));
    for (const envelope of earlier) {
      sa.send({ type: "send", envelope });
      await sa.waitForType("ack", (f) => f.id === envelope.id);
    }
    const sb = await mustOpen(roomId, b.cookie);
    expect(shardOf(sb)).toBe(1);
    sb.send({ type: "resume", cursor: 0 });
    await sb.waitForType("resume-done");
    for (const envelope of earlier) expect(copies(sb, envelope.id)).toBe(1);
    // The shard also stores them (relayed from the main room) for later resumes there, without sending them again.
    const stored = async () =>
      runInDurableObject(
        stubOf(shardObjectName(roomId, 1)),
        (_room, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM envelopes").one().n,
      );
    for (let i = 0; i < 40 && (await stored()) < 3; i++) await sleep(50);
    expect(await stored()).toBe(3);
    expect(sb.of("envelope")).toHaveLength(0);
    for (const s of [sa, sb]) s.close();
  });

  it("closes a banned or removed person's sockets on every shard when the main room is asked", async () => {
    const roomId = await busyArea(1);
    const [a, b] = await Promise.all([anonymousSession(), anonymousSession()]);
    const sa = await mustOpen(roomId, a.cookie);
    const sb = await mustOpen(roomId, b.cookie);
    expect(shardOf(sb)).toBe(1);
    expect(await stubOf(roomId).expel(b.user.id, "Banned")).toBe(1);
    await sb.waitFor(() => sb.closed);
    expect(sa.closed).toBeNull();
    sa.close();
  });

  it("keeps a person's choice of shard while it has room, and moves only some people when a shard is added", () => {
    const people = Array.from({ length: 400 }, (_, i) => `person-${i}`);
    const withTwo = people.map((p) => pickShard(p, [0, 0], 10));
    const withThree = people.map((p) => pickShard(p, [0, 0, 0], 10));
    expect(people.every((p, i) => pickShard(p, [0, 0], 10) === withTwo[i])).toBe(true);
    const moved = withThree.filter((s, i) => s !== withTwo[i]);
    expect(moved.every((s) => s === 2)).toBe(true);
    expect(moved.length).toBeGreaterThan(60);
    expect(moved.length).toBeLessThan(220);
    // A full shard is skipped; all full answers the next shard's number.
    expect(people.every((p) => pickShard(p, [10, 3], 10) === 1)).toBe(true);
    expect(pickShard("someone", [10, 10], 10)).toBe(2);
  });
});
