// Bytes a join and a leave cost the sockets of a room (bench/presence/run.mjs reads the PRESENCE line): rooms of
// 5, 60 and 200 people, each person one socket, the real Worker and MeshRoom. Asserts only that the measurement
// happened; the bound itself is tested in durable-objects/presence.worker.test.ts.
import { expect, it } from "vitest";
import type { ServerFrame } from "../../core/frames";
import { nextPresencePage } from "../../core/presence";
import { anonymousSession } from "../../tests/workers/helpers";
import { mustOpen, type RoomSocket } from "../../tests/workers/room-socket";

const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";
const area = () => `nearby:${Array.from({ length: 5 }, () => GEOHASH[Math.floor(Math.random() * 32)]).join("")}`;
const isPresence = (f: ServerFrame) => f.type === "presence" || f.type === "presence-delta";
const bytesSince = (s: RoomSocket, mark: number) => s.sizes.slice(mark).reduce((a, b) => a + b, 0);

async function measure(size: number) {
  const room = area();
  const sockets: RoomSocket[] = [];
  for (let i = 0; i < size; i++) {
    const s = await mustOpen(room, (await anonymousSession()).cookie);
    // One join per window, so nothing of the setup is still on its way when the measurement starts.
    await s.waitFor(() => s.presence?.nodes === i + 1 && s.of("presence-delta").some((d) => d.nodes === i + 1));
    sockets.push(s);
  }
  for (const s of sockets) await s.waitForType("presence-delta", (d) => d.nodes === size);
  const visitor = await anonymousSession();
  let marks = sockets.map((s) => s.sizes.length);
  const visit = await mustOpen(room, visitor.cookie);
  for (const s of sockets) await s.waitForPresence((v) => v.nodes === size + 1 && v.members.some((m) => m.userId === visitor.user.id));
  const join = sockets.reduce((sum, s, i) => sum + bytesSince(s, marks[i]), 0) / size;
  // What the newcomer gets: hello and the list, paged as the browser's mesh node asks for it (web/app/mesh/node.ts).
  let page = await visit.waitForType("presence");
  for (let after = nextPresencePage(page, visit.presence!); after; after = nextPresencePage(page, visit.presence!)) {
    visit.send({ type: "ping", presence: true, after });
    page = await visit.waitForType("presence", (f) => f.after === after);
  }
  const visitorBytes = visit.frames.reduce((sum, f, i) => sum + (isPresence(f) || f.type === "hello" ? visit.sizes[i] : 0), 0);
  marks = sockets.map((s) => s.sizes.length);
  visit.close();
  for (const s of sockets) await s.waitForPresence((v) => v.nodes === size && !v.members.some((m) => m.userId === visitor.user.id));
  const leave = sockets.reduce((sum, s, i) => sum + bytesSince(s, marks[i]), 0) / size;
  for (const s of sockets) s.close();
  return { people: size, joinPerSocket: Math.round(join), leavePerSocket: Math.round(leave), newcomer: visitorBytes };
}

it("measures the bytes of presence per join and leave", { timeout: 600_000 }, async () => {
  const rows = [];
  for (const size of [5, 60, 200]) rows.push(await measure(size));
  console.log(`PRESENCE ${JSON.stringify(rows)}`);
  expect(rows).toHaveLength(3);
});
