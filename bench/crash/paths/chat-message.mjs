// The chat message path (issue 29; docs/decisions/056-the-room-is-the-record-of-its-messages.md): two verified
// people in one area room, one sends N messages and has each acked. Nothing on a message's path writes D1: the
// room's alarm, about a minute after its first change, sends one D1 batch (durable-objects/room-flush.ts), so the
// runner waits that long for a room.* point (`reachMs`). Killed there, or right after the acks before any alarm
// (`afterAct`), the clients do what a real client does after a dropped socket: reconnect and resume from their
// cursor (here from the start, to see the whole history). Checked: resume returns every acked message once, and D1
// counted each once (room_activity.messages and the day's `message.nearby` count, read from the local D1 on the
// state folder, as the capacity bench seeds it).
import { localD1 } from "../../../tests/local-d1.mjs";
import WebSocket from "ws";
import { call, ok, verifiedPerson } from "../client.mjs";

const N = 10;
/** The alarm comes a minute after the room's first change (FLUSH_INTERVAL_MS), plus a restart's slack. */
const ALARM_MS = 150_000;
const sleep = (t) => new Promise((r) => setTimeout(r, t));
let places = 0;

/** One statement on the served state's local D1 (the SQLite workerd persists), answered as rows. */
function d1(server, sqlText) {
  return localD1(server.state, { command: sqlText, rows: true });
}

const today = () => new Date().toISOString().slice(0, 10);

function counted(server, ctx) {
  const room = d1(server, `SELECT messages FROM room_activity WHERE room_id = '${ctx.roomId}'`)[0]?.messages ?? 0;
  const day = d1(server, `SELECT coalesce(sum(count), 0) AS n FROM analytics_daily WHERE kind = 'message.nearby' AND day = '${today()}'`)[0]
    .n;
  return { room, day };
}

/** A socket into the room, once its hello came; frames are kept in `frames`. */
function open(server, ctx, person) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/ws/rooms/${encodeURIComponent(ctx.roomId)}`, {
      headers: { cookie: person.cookie, origin: server.url },
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => reject(new Error("socket did not open")), 30_000);
    ws.on("message", (data) => {
      if (JSON.parse(data.toString()).type === "hello") {
        clearTimeout(timer);
        ws.on("error", () => {}); // the kill resets it: the client just reconnects
        resolve(ws);
      }
    });
    ws.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Answers the frames that satisfy `done` (the last one included), or rejects after `ms`. */
function until(ws, done, ms = 15_000) {
  return new Promise((resolve, reject) => {
    const got = [];
    const timer = setTimeout(() => {
      ws.off("message", on);
      reject(new Error("no answer from the room"));
    }, ms);
    const on = (data) => {
      const frame = JSON.parse(data.toString());
      got.push(frame);
      if (frame.type === "error") {
        clearTimeout(timer);
        ws.off("message", on);
        reject(new Error(`error frame: ${JSON.stringify(frame)}`));
      } else if (done(frame)) {
        clearTimeout(timer);
        ws.off("message", on);
        resolve(got);
      }
    };
    ws.on("message", on);
  });
}

/** The whole history from the start: every resume-batch until resume-done says nothing more is left. */
async function history(ws) {
  const items = [];
  let cursor = 0;
  let shard;
  for (;;) {
    const waiting = until(ws, (f) => f.type === "resume-done");
    ws.send(JSON.stringify({ type: "resume", cursor, ...(shard ? { shard } : {}) }));
    const frames = await waiting;
    for (const f of frames) if (f.type === "resume-batch") items.push(...f.items);
    const done = frames.at(-1);
    if (!done.more) return items;
    cursor = done.cursor;
    shard = done.shard;
  }
}

export default {
  name: "chat message",
  points: "room.flush.",
  reachMs: ALARM_MS,
  /** Also killed with no point reached: right after the acks, before the alarm. */
  afterAct: "(after the acks, before the alarm)",
  /** Until the whole path has passed (the batch written and marked), for the trace. */
  traceUntil: "linkup-fault-passed room.flush.marked",
  async setup(server) {
    // A fresh area room each time (geohash-5 cells are about 5 km; these are 11 km apart).
    const place = { latitude: 6.5244 + 0.1 * places++, longitude: 3.3792 };
    const a = await verifiedPerson(server);
    const b = await verifiedPerson(server);
    for (const p of [a, b]) {
      await ok(await call(server, "/api/me/location", { method: "PUT", cookie: p.cookie, json: place }), "location");
      await ok(await call(server, "/api/me", { method: "PATCH", cookie: p.cookie, json: { onboardingCompleted: true } }), "onboarding");
    }
    const { room } = await ok(await call(server, "/api/rooms/nearby/join", { method: "POST", cookie: a.cookie, json: {} }), "area join");
    await ok(await call(server, "/api/rooms/nearby/join", { method: "POST", cookie: b.cookie, json: {} }), "area join");
    const ctx = { a, b, roomId: room.id, sent: [], acked: new Set(), sockets: [] };
    ctx.before = counted(server, ctx);
    return ctx;
  },
  async act(server, ctx) {
    ctx.sockets = [await open(server, ctx, ctx.a), await open(server, ctx, ctx.b)];
    for (let i = 0; i < N; i++) {
      const envelope = {
        id: `crash-${Date.now()}-${i}`,
        room: ctx.roomId,
        senderId: ctx.a.id,
        timestamp: Date.now(),
        type: "text",
        ttl: 8,
        meshRoute: [],
        isEncrypted: false,
        priority: "normal",
        content: { text: `Message ${i + 1} of ${N}: the Mile 12 market is open` },
      };
      ctx.sent.push(envelope.id);
      const waiting = until(ctx.sockets[0], (f) => f.type === "ack" && f.id === envelope.id);
      ctx.sockets[0].send(JSON.stringify({ type: "send", envelope }));
      await waiting;
      ctx.acked.add(envelope.id);
    }
  },
  /**
   * What the clients do when their sockets drop: reconnect (and resume, in check). Then waits until D1 has the
   * acked messages: local workerd keeps the alarm across the kill and runs it again after the restart (seen with
   * no reconnect at all, 2026-11-27); were it gone, the reconnect's presence change would ask for it again.
   */
  async retry(server, ctx) {
    const restarted = Date.now();
    for (const ws of ctx.sockets) ws.terminate();
    ctx.sockets = [await open(server, ctx, ctx.a), await open(server, ctx, ctx.b)];
    while (Date.now() - restarted < ALARM_MS && counted(server, ctx).room - ctx.before.room < ctx.acked.size) await sleep(3000);
    ctx.landedS = Math.round((Date.now() - restarted) / 1000);
  },
  async check(server, ctx) {
    // The sockets stay open: closing them is a presence change whose alarm would fire a minute later, inside the
    // next point's run (and could be the one held at its point). The next restart drops them without a word.
    const items = await history(ctx.sockets[1]);
    const ids = items.map((i) => i.envelope.id);
    const acked = [...ctx.acked];
    const kept = acked.filter((id) => ids.includes(id)).length;
    const twice = acked.filter((id) => ids.indexOf(id) !== ids.lastIndexOf(id)).length;
    const now = counted(server, ctx);
    const room = now.room - ctx.before.room;
    const day = now.day - ctx.before.day;
    const n = acked.length;
    return {
      survived: n === N && kept === n && twice === 0 && room === n && day === n,
      checked: `${n}/${N} acked; resume from the start: ${kept}/${n} kept, ${twice} twice; D1 counted room_activity.messages +${room}, message.nearby today +${day}; D1 had them ${ctx.landedS} s after the restart`,
    };
  },
};
