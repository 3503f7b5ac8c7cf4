// bench/relay/profile.mjs: where a MeshRoom's time goes per message. Serves the production build in workerd with
// its inspector open, records a V8 CPU profile of the app's isolate (the Worker and its Durable Objects share it)
// while 100 sockets take paced messages, and splits the sampled time by the room's own steps. Inside workerd the
// clock stands still while JavaScript runs (Date.now and performance.now move only on I/O), so counters in the
// room cannot time its steps; the sampling profiler can. The local D1 runs in another isolate: only our side of
// each D1 call (query building, the binding call) shows here. `node bench/relay/profile.mjs` (RELAY_BUILD=<dir>
// serves an existing build). Prints a table; bench/README.md keeps the reading.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import WebSocket from "ws";
import { serveBuilt } from "../../tests/serve-built.mjs";

const SOCKETS = Number(process.env.SOCKETS ?? 100);
const MESSAGES = Number(process.env.MESSAGES ?? 1000);
const GAP_MS = 5;
const SENDERS = 10;
const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";
const sleep = (t) => new Promise((r) => setTimeout(r, t));

/**
 * The room's steps, by the function a sample sits in (the deepest match on its stack wins): a sample in SQLite's
 * `exec` under `store` counts as SQLite, one in zod under `parseClientFrame` as frame checking.
 */
const STEPS = [
  ["frame check (JSON.parse + zod)", ["parseClientFrame"]],
  ["envelope rules and stamping", ["refuseEnvelope", "stampMemberEnvelope", "normaliseEnvelope"]],
  ["rate limit", ["takeToken"]],
  ["SQLite (envelope insert, dedupe, counters)", ["exec", "one", "toArray"]],
  ["serialise (JSON.stringify, size check)", ["stringify", "encode", "encodeFrame"]],
  ["socket sends (ws.send per socket)", ["send", "sendRaw"]],
  ["D1 batch (counts, points, presence)", ["flush", "d1", "onAlarm", "flushOnce", "writeRoomFlush"]],
  ["other room code (webSocketMessage, handle, store)", ["webSocketMessage", "handle", "store", "deliver"]],
];
const stepOf = new Map(STEPS.flatMap(([step, names]) => names.map((n) => [n, step])));

async function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function cdp(url) {
  const ws = new WebSocket(url);
  let id = 0;
  const waiting = new Map();
  ws.on("message", (d) => {
    const msg = JSON.parse(String(d));
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  });
  const opened = new Promise((r) => ws.once("open", r));
  return {
    opened,
    call: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const n = ++id;
        waiting.set(n, (msg) => (msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result)));
        ws.send(JSON.stringify({ id: n, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Self time per node, then each sample's time to the step of the deepest step function on its stack. */
function breakdown(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map();
  const leaves = new Map();
  let all = 0;
  const deltas = profile.timeDeltas;
  profile.samples.forEach((nodeId, i) => {
    const t = (deltas[i + 1] ?? 0) / 1000; // ms until the next sample
    all += t;
    let step = null;
    let inRoom = false;
    for (let id = nodeId; id !== undefined; id = parent.get(id)) {
      const name = byId.get(id).callFrame.functionName;
      if (!step && stepOf.has(name)) step = stepOf.get(name);
      if (name === "webSocketMessage" || name === "deliver" || name === "flush") inRoom = true;
    }
    const name = byId.get(nodeId).callFrame.functionName;
    const key =
      inRoom && step
        ? step
        : name === "(idle)"
          ? "idle"
          : inRoom
            ? "other room code (webSocketMessage, handle, store)"
            : "outside the room (runtime, GC, other code)";
    totals.set(key, (totals.get(key) ?? 0) + t);
    if (inRoom) {
      const f = byId.get(nodeId).callFrame;
      const leaf = `${f.functionName || "(anonymous)"}:${f.lineNumber}`;
      leaves.set(leaf, (leaves.get(leaf) ?? 0) + t);
    }
  });
  return { totals, all, leaves };
}

const inspectorPort = await freePort();
const server = await serveBuilt({
  name: "bench-relay-profile",
  fromBuild: process.env.RELAY_BUILD,
  extraArgs: ["--inspector-port", String(inspectorPort)],
});
try {
  const users = [];
  const people = Math.ceil(SOCKETS / 4); // a person may have 4 sockets in a room
  for (let i = 0; i < people; i++) {
    const res = await fetch(`${server.url}/api/auth/anonymous`, { method: "POST", headers: { origin: server.url } });
    users.push({ cookie: res.headers.getSetCookie()[0].split(";")[0], id: (await res.json()).user.id });
  }
  const room = `nearby:${Array.from(randomBytes(5), (b) => GEOHASH[b % 32]).join("")}`;
  const url = `${server.url.replace(/^http/, "ws")}/ws/rooms/${encodeURIComponent(room)}`;
  const sockets = [];
  for (let i = 0; i < SOCKETS; i++)
    sockets.push(
      await new Promise((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { cookie: users[i % people].cookie, origin: server.url } });
        ws.once("message", () => resolve(ws));
        ws.once("error", reject);
      }),
    );
  let received = 0;
  for (const ws of sockets) ws.on("message", (d) => String(d).startsWith('{"type":"envelope"') && received++);

  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => /linkup/.test(`${t.title} ${t.url} ${t.id}`)) ?? targets[0];
  const inspector = cdp(target.webSocketDebuggerUrl);
  await inspector.opened;
  await inspector.call("Profiler.enable");
  await inspector.call("Profiler.setSamplingInterval", { interval: 100 });
  await inspector.call("Profiler.start");
  for (let k = 0; k < MESSAGES; k++) {
    const from = k % SENDERS;
    const envelope = {
      id: `prof-${randomBytes(9).toString("base64url")}`,
      room,
      senderId: users[from % 10].id,
      timestamp: Date.now(),
      type: "text",
      ttl: 8,
      meshRoute: [],
      isEncrypted: false,
      priority: "normal",
      content: { text: `Market update ${k}: tomatoes ₦1,200 per basket at Mile 12` },
    };
    sockets[from].send(JSON.stringify({ type: "send", envelope }));
    await sleep(GAP_MS);
  }
  const deadline = Date.now() + 60_000;
  while (received < MESSAGES * (SOCKETS - 1) && Date.now() < deadline) await sleep(50);
  await sleep(500);
  const { profile } = await inspector.call("Profiler.stop");
  inspector.close();
  for (const ws of sockets) ws.close();

  const { totals, all, leaves } = breakdown(profile);
  const busy = all - (totals.get("idle") ?? 0);
  const rows = [...totals].filter(([k]) => k !== "idle").sort((a, b) => b[1] - a[1]);
  console.log(`target: ${target.title ?? target.id}; ${received} deliveries of ${MESSAGES} messages to ${SOCKETS} sockets`);
  console.log(`| step | CPU ms | per message (µs) | share of busy time |\n| --- | --- | --- | --- |`);
  for (const [k, t] of rows)
    console.log(`| ${k} | ${t.toFixed(0)} | ${((t * 1000) / MESSAGES).toFixed(0)} | ${((t / busy) * 100).toFixed(1)}% |`);
  console.log(`| busy total | ${busy.toFixed(0)} | ${((busy * 1000) / MESSAGES).toFixed(0)} | 100% |`);
  const top = [...leaves].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`\nFunctions inside the room by self time:\n${top.map(([k, t]) => `  ${k} ${t.toFixed(0)} ms`).join("\n")}`);
} finally {
  await server.stop();
}
process.exit(0);
