// bench/relay: fan-out latency and throughput of one MeshRoom with 10, 100 and 1,000 sockets, against the
// built Worker served locally in workerd (wrangler dev), next to two baselines in the same run with the same
// clients: a minimal broadcast Durable Object in the same workerd process (bench/relay/echo) and a plain Node
// `ws` broadcast server (separate process). Counts lost and duplicated deliveries (must be zero).
// One more row runs a busy area split into two shards (durable-objects/shards.ts): the same build served again with
// ROOM_SOCKET_BUDGET at half of SHARDED sockets, so half the sockets land on the main room and half on shard 1.
// Writes the "relay" section of bench/README.md. `npm run bench -- relay`; SIZES=10,100 to pick sizes;
// SHARDED=100 the sharded row's sockets (0: none); RELAY_BUILD=<dir> serves an existing build instead of building.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

const LOAD_AT_START = loadavg()[0];
const SIZES = (process.env.SIZES ?? "10,100,1000").split(",").map(Number);
const SENDERS = 10; // sockets that send (each stays inside the room's per-socket burst of 60 frames)
const PACED = 50; // messages sent one every PACED_GAP_MS: latency at light load
const PACED_GAP_MS = 20;
const BURST = 200; // messages sent as fast as the senders can: throughput and latency under load
// A person may have MAX_SOCKETS_PER_PERSON (4) sockets in a room: enough people for the biggest room.
const USERS = Math.max(10, Math.ceil(Math.max(...SIZES) / 4));
const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";
const SHARDED = Number(process.env.SHARDED ?? 100);

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN);
const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : "–");
const sleep = (t) => new Promise((r) => setTimeout(r, t));

function randomRoom() {
  return `nearby:${Array.from(randomBytes(5), (b) => GEOHASH[b % 32]).join("")}`;
}

/** Opens `n` sockets (50 at a time), each resolved once its hello frame arrives. */
async function connectAll(n, urlFor, headersFor) {
  const sockets = new Array(n);
  let next = 0;
  async function worker() {
    while (next < n) {
      const i = next++;
      sockets[i] = await new Promise((resolve, reject) => {
        const ws = new WebSocket(urlFor(i), { headers: headersFor(i), perMessageDeflate: false });
        const timer = setTimeout(() => reject(new Error(`socket ${i} did not open`)), 30_000);
        ws.once("message", () => {
          clearTimeout(timer);
          resolve(ws);
        });
        ws.once("error", (e) => {
          clearTimeout(timer);
          reject(e);
        });
        ws.once("unexpected-response", (_req, res) => {
          clearTimeout(timer);
          reject(new Error(`upgrade refused: ${res.statusCode}`));
        });
      });
    }
  }
  await Promise.all(Array.from({ length: Math.min(50, n) }, worker));
  return sockets;
}

/** One room of n sockets: a paced phase and a burst phase; answers latency, throughput, lost and duplicates. */
async function scenario(n, urlFor, headersFor, senderIdFor, room) {
  const sockets = await connectAll(n, urlFor, headersFor);
  const senders = Math.min(SENDERS, n);
  const state = sockets.map(() => ({ seen: new Set(), dups: 0 }));
  const acks = new Map();
  const errors = [];
  const latencies = { paced: [], burst: [] };
  const sentAt = new Map();
  let lastDelivery = 0;
  sockets.forEach((ws, i) => {
    ws.on("message", (data) => {
      const now = performance.now();
      const frame = JSON.parse(data.toString());
      if (frame.type === "envelope") {
        const { id, meta } = frame.envelope;
        const s = state[i];
        if (s.seen.has(id)) s.dups++;
        else {
          s.seen.add(id);
          latencies[meta.phase].push(now - meta.t);
          lastDelivery = now;
        }
      } else if (frame.type === "ack") acks.set(frame.id, (acks.get(frame.id) ?? 0) + 1);
      else if (frame.type === "error") {
        if (!errors.length) console.error("error frame:", JSON.stringify(frame));
        errors.push(frame);
      }
    });
  });

  let count = 0;
  const send = (phase) => {
    const from = count % senders;
    const id = `bench-${randomBytes(9).toString("base64url")}`;
    const t = performance.now();
    sentAt.set(id, { from, t });
    const envelope = {
      id,
      room,
      senderId: senderIdFor(from),
      timestamp: Date.now(),
      type: "text",
      ttl: 8,
      meshRoute: [],
      isEncrypted: false,
      priority: "normal",
      content: { text: `Market update ${count}: tomatoes ₦1,200 per basket at Mile 12` },
      meta: { phase, t },
    };
    sockets[from].send(JSON.stringify({ type: "send", envelope }));
    count++;
  };

  const expected = () => count * (n - 1);
  const delivered = () => state.reduce((sum, s) => sum + s.seen.size, 0);
  async function settle(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while ((delivered() < expected() || acks.size < count) && Date.now() < deadline) await sleep(20);
    await sleep(200); // let any duplicate arrive
  }

  for (let k = 0; k < PACED; k++) {
    send("paced");
    await sleep(PACED_GAP_MS);
  }
  await settle(30_000);

  const burstStart = performance.now();
  const before = delivered();
  for (let k = 0; k < BURST; k++) send("burst");
  await settle(120_000);
  const burstDeliveries = delivered() - before;
  const burstSeconds = (lastDelivery - burstStart) / 1000;

  let lost = 0;
  for (const [id, { from }] of sentAt) for (let i = 0; i < n; i++) if (i !== from && !state[i].seen.has(id)) lost++;
  const dups = state.reduce((sum, s) => sum + s.dups, 0);
  const missingAcks = [...sentAt.keys()].filter((id) => !acks.has(id)).length;
  const dupAcks = [...acks.values()].filter((c) => c > 1).length;
  for (const ws of sockets) ws.close();
  await sleep(300);
  const sort = (a) => a.sort((x, y) => x - y);
  const paced = sort(latencies.paced);
  const burst = sort(latencies.burst);
  return {
    n,
    messages: count,
    deliveries: delivered(),
    expected: expected(),
    lost,
    dups,
    missingAcks,
    dupAcks,
    errors: errors.length,
    pacedP50: pct(paced, 50),
    pacedP99: pct(paced, 99),
    burstP50: pct(burst, 50),
    burstP99: pct(burst, 99),
    throughput: burstDeliveries / burstSeconds,
    msgsPerSec: BURST / burstSeconds,
  };
}

/** Anonymous people of a served Worker: a cookie and id each. */
async function people(url, n) {
  const users = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/api/auth/anonymous`, { method: "POST", headers: { origin: url } });
    if (res.status !== 201) throw new Error(`anonymous start answered ${res.status}: ${await res.text()}`);
    const cookie = res.headers.getSetCookie()[0].split(";")[0];
    users.push({ cookie, id: (await res.json()).user.id });
  }
  return users;
}

/** Sockets per shard (from each hello): the sharded row must really be split. */
async function shardSpread(url, room, users) {
  const wsBase = url.replace(/^http/, "ws");
  const counts = {};
  for (const u of users) {
    const shard = await new Promise((resolve, reject) => {
      const ws = new WebSocket(`${wsBase}/ws/rooms/${encodeURIComponent(room)}`, { headers: { cookie: u.cookie, origin: url } });
      ws.once("message", (d) => resolve(JSON.parse(d.toString()).shard ?? 0));
      ws.once("error", reject);
      // Kept open: the next person sees this socket counted.
      u.probe = ws;
    });
    counts[shard] = (counts[shard] ?? 0) + 1;
  }
  for (const u of users) u.probe.close();
  await sleep(500);
  return counts;
}

async function startPlain() {
  const child = spawn(process.execPath, [new URL("./plain-server.mjs", import.meta.url).pathname], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (d) => resolve(Number(String(d).trim())));
    child.once("exit", (code) => reject(new Error(`plain server exited ${code}`)));
  });
  return { port, stop: () => child.kill("SIGTERM") };
}

const served = "the production build (`react-router build`) served by `wrangler dev --local`";
const server = await serveBuilt({
  name: "bench-relay",
  fromBuild: process.env.RELAY_BUILD,
  frontConfig: new URL("./echo/wrangler.json", import.meta.url).pathname,
});
const plain = await startPlain();
const results = [];
let failed = false;
try {
  const users = await people(server.url, USERS);
  const wsBase = server.url.replace(/^http/, "ws");
  for (const n of SIZES) {
    const room = randomRoom();
    console.log(`relay: ${n} sockets in ${room}…`);
    const relay = await scenario(
      n,
      () => `${wsBase}/ws/rooms/${encodeURIComponent(room)}`,
      (i) => ({ cookie: users[i % USERS].cookie, origin: server.url }),
      (i) => users[i % USERS].id,
      room,
    );
    results.push({ server: "MeshRoom (workerd)", ...relay });
    console.log(`minimal DO: ${n} sockets…`);
    const echo = await scenario(
      n,
      () => `${wsBase}/bench-echo/${encodeURIComponent(room)}`,
      () => ({}),
      (i) => users[i % USERS].id,
      room,
    );
    results.push({ server: "minimal DO (workerd)", ...echo });
    console.log(`plain ws: ${n} sockets…`);
    const base = await scenario(
      n,
      () => `ws://127.0.0.1:${plain.port}/`,
      () => ({}),
      (i) => `user-${i % USERS}`,
      room,
    );
    results.push({ server: "plain Node ws", ...base });
  }
  if (SHARDED > 0) {
    // The same build again, each object of an area taking half the sockets: one person per socket, so the split
    // is by person as in production (a person's sockets share a shard).
    const budget = Math.ceil(SHARDED / 2);
    const sharded = await serveBuilt({
      name: "bench-relay-shards",
      fromBuild: server.buildDir,
      frontConfig: new URL("./echo/wrangler.json", import.meta.url).pathname,
      vars: { ROOM_SOCKET_BUDGET: String(budget) },
    });
    try {
      const room = randomRoom();
      const shardUsers = await people(sharded.url, SHARDED);
      const spread = await shardSpread(sharded.url, room, shardUsers);
      console.log(`relay: ${SHARDED} sockets in ${room}, budget ${budget} per object: sockets per shard`, spread);
      const wsShards = sharded.url.replace(/^http/, "ws");
      const relay = await scenario(
        SHARDED,
        () => `${wsShards}/ws/rooms/${encodeURIComponent(room)}`,
        (i) => ({ cookie: shardUsers[i].cookie, origin: sharded.url }),
        (i) => shardUsers[i].id,
        room,
      );
      const split = Object.values(spread).join(" + ");
      results.push({ server: `MeshRoom, ${Object.keys(spread).length} shards (${split} sockets)`, ...relay });
    } catch (err) {
      failed = true;
      console.error(err);
      console.error(`Worker log (last lines):\n${sharded.log.slice(-2000)}`);
    } finally {
      await sharded.stop();
    }
  }
} catch (err) {
  failed = true;
  console.error(err);
  console.error(`Worker log (last lines):\n${server.log.slice(-2000)}`);
} finally {
  plain.stop();
  await server.stop();
}

const header =
  "| server | sockets | messages | deliveries | lost | duplicated | acks missing | paced p50 (ms) | paced p99 (ms) | burst p50 (ms) | burst p99 (ms) | burst deliveries/s | burst messages/s |";
const rule = `|${header
  .split("|")
  .slice(1, -1)
  .map(() => " --- ")
  .join("|")}|`;
const lines = results.map((r) =>
  [
    "",
    r.server,
    r.n,
    r.messages,
    `${r.deliveries} / ${r.expected}`,
    r.lost,
    r.dups,
    r.missingAcks,
    ms(r.pacedP50),
    ms(r.pacedP99),
    ms(r.burstP50),
    ms(r.burstP99),
    Math.round(r.throughput).toLocaleString("en"),
    Math.round(r.msgsPerSec).toLocaleString("en"),
    "",
  ]
    .join(" | ")
    .trim(),
);
for (const r of results) if (r.lost || r.dups || r.missingAcks || r.dupAcks || r.errors) failed = true;
console.log([header, rule, ...lines].join("\n"));

// p99 ratios of the room to each baseline; goals at 100 sockets: ≤ 1.5× the plain server, ≤ 1.2× the minimal DO.
const ratio = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(1)}×` : "–");
const ratioHeader =
  "| sockets | paced p99: ÷ plain ws | paced p99: ÷ minimal DO | burst p99: ÷ plain ws | burst p99: ÷ minimal DO | goal at 100 (paced ≤ 1.5× plain, ≤ 1.2× DO) |";
const ratioRule = "| --- | --- | --- | --- | --- | --- |";
const ratioLines = [];
for (const n of SIZES) {
  const get = (name) => results.find((r) => r.n === n && r.server === name);
  const room = get("MeshRoom (workerd)");
  const plainR = get("plain Node ws");
  const doR = get("minimal DO (workerd)");
  if (!room || !plainR || !doR) continue;
  const met = room.pacedP99 / plainR.pacedP99 <= 1.5 && room.pacedP99 / doR.pacedP99 <= 1.2;
  ratioLines.push(
    `| ${n} | ${ratio(room.pacedP99, plainR.pacedP99)} | ${ratio(room.pacedP99, doR.pacedP99)} | ${ratio(room.burstP99, plainR.burstP99)} | ${ratio(room.burstP99, doR.burstP99)} | ${n === 100 ? (met ? "met" : "not met") : ""} |`,
  );
}
const ratioTable = [ratioHeader, ratioRule, ...ratioLines].join("\n");
console.log(ratioTable);

if (results.length) {
  const date = new Date().toISOString().slice(0, 10);
  writeSection(
    "relay",
    `Measured ${date} with \`npm run bench -- relay\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"} (load average ${LOAD_AT_START.toFixed(1)} at the start: other work on the
machine slows every server alike).

- Relay: ${served}; requests pass wrangler's local proxy into workerd, where the MeshRoom checks every frame
  (a member's envelope without zod: core/envelope-check.ts), stores each envelope in its SQLite storage, acks and
  relays; metadata goes to local D1 in one batch per 250 ms.
- Minimal DO: the smallest broadcast Durable Object (bench/relay/echo: hibernation API; parse, seq, ack,
  broadcast; nothing else), the front Worker of the same \`wrangler dev\`, so in the same workerd process. The
  app sits behind it on a service binding; the minimal DO's sockets take the same hop (its binding to itself).
- Plain: a Node \`ws\` broadcast server in its own process (parse, seq, ack, broadcast; no
  validation, storage or database).
- All driven by the same Node \`ws\` clients in one process, on the same cores as the servers. One room of
  N sockets; ${SENDERS} of them send (round robin); every other socket must receive each message exactly once.
- Paced: ${PACED} messages, one every ${PACED_GAP_MS} ms (latency at light load). Burst: ${BURST} messages sent at once
  (throughput = deliveries from the first burst send to the last delivery; latency includes queueing).
- Latency is send to receipt at each receiving socket, in milliseconds.
- Sharded (the last row, ${SHARDED} sockets): the same build served again with \`ROOM_SOCKET_BUDGET=${Math.ceil(SHARDED / 2)}\`, one
  person per socket, so the area's main room takes half and sends the rest to shard 1
  (durable-objects/shards.ts); senders on one shard reach the other's sockets through the relay between the two
  objects (one call per 20 ms window). Its baselines are the unsharded rows of the same size.

${[header, rule, ...lines].join("\n")}

${ratioTable}

${failed ? "**Some messages were lost, duplicated or not acknowledged in this run (see the table).**" : "No message was lost, duplicated or left unacknowledged."}`,
  );
}
process.exit(failed ? 1 : 0);
