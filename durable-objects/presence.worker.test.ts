// Presence at scale (docs/decisions/052-presence-deltas-and-jittered-reconnects.md), through the real Worker and
// MeshRoom: a join or a leave costs every socket one small delta, whatever the room's size; the list itself comes
// a page at a time, to whoever asks.
import { describe, expect, it } from "vitest";
import { PRESENCE_PAGE_SIZE, type ServerFrame } from "../core/frames";
import { anonymousSession } from "../tests/workers/helpers";
import { mustOpen, type RoomSocket } from "../tests/workers/room-socket";

const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";
const area = () => `nearby:${Array.from({ length: 5 }, () => GEOHASH[Math.floor(Math.random() * 32)]).join("")}`;

type Person = Awaited<ReturnType<typeof anonymousSession>>;

/** A room of `size` people, one socket each, every socket's view settled on all of them. */
async function roomOf(size: number): Promise<{ room: string; people: Person[]; sockets: RoomSocket[] }> {
  const room = area();
  const people = await Promise.all(Array.from({ length: size }, () => anonymousSession()));
  const sockets: RoomSocket[] = [];
  // One join per delta window, so the delta after the last join is the only one with `size` nodes: once every
  // socket has it, nothing about the setup is still on its way.
  for (const p of people) {
    const s = await mustOpen(room, p.cookie);
    await s.waitForType("presence-delta", (d) => d.nodes === sockets.length + 1);
    sockets.push(s);
  }
  for (const s of sockets) await s.waitForType("presence-delta", (d) => d.nodes === size);
  return { room, people, sockets };
}

/** What each socket received since `marks`: the frames and their bytes. */
function since(sockets: RoomSocket[], marks: number[]): { frames: ServerFrame[]; bytes: number }[] {
  return sockets.map((s, i) => ({ frames: s.frames.slice(marks[i]), bytes: s.sizes.slice(marks[i]).reduce((a, b) => a + b, 0) }));
}

/** One person joins and then leaves the room: what every other socket received for each. */
async function joinAndLeave(room: string, sockets: RoomSocket[], visitor: Person) {
  const size = sockets.length;
  let marks = sockets.map((s) => s.frames.length);
  const visit = await mustOpen(room, visitor.cookie);
  for (const s of sockets) await s.waitForPresence((v) => v.nodes === size + 1 && v.members.some((m) => m.userId === visitor.user.id));
  const joined = since(sockets, marks);
  marks = sockets.map((s) => s.frames.length);
  visit.close();
  for (const s of sockets) await s.waitForPresence((v) => v.nodes === size && !v.members.some((m) => m.userId === visitor.user.id));
  const left = since(sockets, marks);
  return { joined, left, visit };
}

describe("presence deltas", () => {
  it("a join or a leave costs every socket one delta of the same size in a room of 5 as in a room of 60", { timeout: 60_000 }, async () => {
    const visitor = await anonymousSession();
    const sizes: Record<number, { join: number; leave: number }> = {};
    for (const size of [5, 60]) {
      const { room, sockets } = await roomOf(size);
      const { joined, left } = await joinAndLeave(room, sockets, visitor);
      for (const got of joined) {
        // One frame, naming only the visitor, with the counts a screen shows: never the list of everyone.
        expect(got.frames).toEqual([
          {
            type: "presence-delta",
            nodes: size + 1,
            people: size + 1,
            joined: [{ userId: visitor.user.id, nickname: expect.any(String), nodes: 1 }],
            left: [],
          },
        ]);
      }
      for (const got of left)
        expect(got.frames).toEqual([{ type: "presence-delta", nodes: size, people: size, joined: [], left: [visitor.user.id] }]);
      sizes[size] = { join: joined[0].bytes, leave: left[0].bytes };
      expect(new Set(joined.map((g) => g.bytes)).size).toBe(1);
      for (const s of sockets) s.close();
    }
    // The counts gain a digit from 5 to 60; nothing else grows.
    expect(Math.abs(sizes[60].join - sizes[5].join)).toBeLessThanOrEqual(4);
    expect(Math.abs(sizes[60].leave - sizes[5].leave)).toBeLessThanOrEqual(4);
    expect(sizes[60].join).toBeLessThan(200);
  });

  it("gives a joining socket the first page only, and the whole list a page at a time on request", { timeout: 60_000 }, async () => {
    const size = PRESENCE_PAGE_SIZE + 10;
    const { room, people, sockets } = await roomOf(size);
    const everyone = people.map((p) => p.user.id).sort();

    // A second device of someone already here: counted as a node, not as a person.
    const second = await mustOpen(room, people[0].cookie);
    const first = await second.waitForType("presence");
    expect(first).toMatchObject({ nodes: size + 1, people: size, next: expect.any(String) });
    expect(first.members.map((m) => m.userId)).toEqual(everyone.slice(0, PRESENCE_PAGE_SIZE));
    expect(first.after).toBeUndefined();
    await sockets[1].waitForPresence((v) => v.nodes === size + 1 && v.people === size);

    // The rest on request, after the first page's cursor; the last page has no cursor.
    second.send({ type: "ping", presence: true, after: first.next });
    const rest = await second.waitForType("presence", (f) => f.after === first.next);
    expect(rest.next).toBeUndefined();
    expect(rest.members.map((m) => m.userId)).toEqual(everyone.slice(PRESENCE_PAGE_SIZE));
    // Folded like a client folds them, the pages are everyone, with this person's two devices.
    const view = await second.waitForPresence((v) => v.members.length === size);
    expect(view.members.map((m) => m.userId)).toEqual(everyone);
    expect(view.members.find((m) => m.userId === people[0].user.id)?.nodes).toBe(2);

    // Asking again starts over at the first page.
    second.send({ type: "ping", presence: true });
    await second.waitFor(() => second.of("presence").length === 3);
    expect(second.of("presence")[2]).toEqual(first);
    for (const s of [...sockets, second]) s.close();
  });

  it("sends several bounded deltas when more people change in one window than a delta names", { timeout: 60_000 }, async () => {
    const { room, sockets } = await roomOf(1);
    const watcher = sockets[0];
    const crowd = await Promise.all(Array.from({ length: PRESENCE_PAGE_SIZE + 5 }, () => anonymousSession()));
    const arrived = await Promise.all(crowd.map((p) => mustOpen(room, p.cookie)));
    const view = await watcher.waitForPresence((v) => v.members.length === crowd.length + 1, 10_000);
    expect(view).toMatchObject({ nodes: crowd.length + 1, people: crowd.length + 1 });
    expect(watcher.of("presence-delta").length).toBeGreaterThan(1);
    for (const d of watcher.of("presence-delta")) expect(d.joined.length + d.left.length).toBeLessThanOrEqual(PRESENCE_PAGE_SIZE);
    for (const s of [...arrived, watcher]) s.close();
  });
});
