// bench/capacity: how many D1 statements each user action costs, on the production build served locally in
// workerd with every D1 statement counted (QUERY_COUNT=1, db/query-count.ts), and the daily active people one
// database carries at those costs. Writes the "capacity" section of bench/README.md. `npm run bench -- capacity`.
// Each counted statement logs one line in whichever isolate ran it (the Worker's, a room's); the lines of the
// server's output are added up before and after each action, once they stop growing (work after the answer:
// waitUntil, the room's writes, the queue).
import { localD1 } from "../../tests/local-d1.mjs";
import { webcrypto } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { encodeGeohash } from "../../core/geohash.ts";
import { PASS_RENEW_AFTER_MS, PASS_TOUCH_INTERVAL_MS, PASS_TTL_MS, SESSION_TOUCH_INTERVAL_MS } from "../../core/pass-times.ts";
import { expiredShare } from "./journey.mjs";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

const PLACE = { latitude: 6.5244, longitude: 3.3792 }; // Lagos
// A busy minute: the room's alarm comes a minute after the sockets open (their presence is its first change), so
// people send for 55 s of it and the minute's one batch holds them all.
const BUSY_MS = 55_000;
const AREA_SENDERS = 10; // people sending in the area room's busy minute (a busy Lagos neighbourhood)
const SEND_EVERY_MS = 2_000; // each sends one message this often
const BATCH_WAIT_MS = 120_000; // the room's alarm comes a minute after its first message (durable-objects/room-flush.ts)
const SOS_QUEUED = 50; // recipients past the request's own share, for the consumer's cost per 50
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const b64url = (bytes) => Buffer.from(bytes).toString("base64url");

// The loopback push service the seeded neighbours' subscriptions point at (accepted in development only).
let pushes = 0;
const push = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    pushes++;
    res.writeHead(201).end();
  });
});
await new Promise((r) => push.listen(0, "127.0.0.1", r));
const pushBase = `http://127.0.0.1:${push.address().port}`;

const server = await serveBuilt({ name: "bench-capacity", vars: { QUERY_COUNT: "1" } });
const base = server.url;

/**
 * Statements counted so far by every isolate (the Worker's and each Durable Object's), from the server's output.
 * `replica`: reads that ran in a D1 session a read replica may answer (db/read-replicas.ts); the local D1 has no
 * replicas, so these are the reads replicas would take off the primary.
 */
async function counts() {
  const lines = server.log.match(/linkup-d1-statement [rw]/g) ?? [];
  const writes = lines.filter((l) => l.endsWith("w")).length;
  const replica = (server.log.match(/linkup-d1-statement r replica/g) ?? []).length;
  return { reads: lines.length - writes, writes, replica };
}

/** The counter once it has not moved for `quietMs`. */
async function settled(quietMs = 400) {
  let last = await counts();
  for (;;) {
    await sleep(quietMs);
    const now = await counts();
    if (now.reads === last.reads && now.writes === last.writes && now.replica === last.replica) return now;
    last = now;
  }
}

/** What `action` cost: statements counted from before it until the counter settles after it. */
async function measure(action) {
  const before = await settled(150);
  await action();
  const after = await settled();
  return { reads: after.reads - before.reads, writes: after.writes - before.writes, replica: after.replica - before.replica };
}

const json = (cookie, body, method = "POST") => ({
  method,
  headers: { origin: base, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

async function ok(res, what) {
  const text = await res.text(); // read in full: the local proxy drops a connection left with an unread body
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function anonymous() {
  const res = await fetch(`${base}/api/auth/anonymous`, { method: "POST", headers: { origin: base } });
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  const { user } = await ok(res, "anonymous start");
  return { cookie, id: user.id };
}

let phoneSeq = 0;
/** Registers and verifies a fresh phone for `person`; answers the two requests' costs apart. */
async function verify(person) {
  const local = `0813${String(1_000_000 + phoneSeq++).padStart(7, "0")}`;
  const e164 = `+234${local.slice(1)}`;
  const register = await measure(async () =>
    ok(await fetch(`${base}/api/auth/register`, json(person.cookie, { phoneNumber: local })), "register"),
  );
  const outbox = await ok(await fetch(`${base}/api/dev/outbox?limit=20`), "outbox");
  const code = outbox.messages.find((m) => m.to === e164)?.body.match(/\b(\d{6})\b/)?.[1];
  let cookie = person.cookie;
  const confirm = await measure(async () => {
    const res = await fetch(`${base}/api/auth/verify`, json(person.cookie, { phoneNumber: local, code }));
    cookie = res.headers.getSetCookie()[0]?.split(";")[0] ?? cookie;
    await ok(res, "verify");
  });
  person.cookie = cookie;
  return { register, confirm };
}

function open(room, person) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws/rooms/${encodeURIComponent(room)}`, {
      headers: { cookie: person.cookie, origin: base },
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => reject(new Error(`socket to ${room} did not open`)), 30_000);
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === "hello") {
        clearTimeout(timer);
        resolve(ws);
      }
    });
    ws.once("error", reject);
  });
}

/** Sends one envelope and waits for the room's ack. */
function send(ws, envelope) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no ack")), 10_000);
    const onMessage = (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === "ack" && frame.id === envelope.id) {
        clearTimeout(timer);
        ws.off("message", onMessage);
        resolve();
      } else if (frame.type === "error") {
        clearTimeout(timer);
        ws.off("message", onMessage);
        reject(new Error(`error frame: ${JSON.stringify(frame)}`));
      }
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ type: "send", envelope }));
  });
}

let envelopeSeq = 0;
function envelope(room, senderId, encrypted) {
  return {
    id: `cap-${Date.now()}-${envelopeSeq++}`,
    room,
    senderId,
    timestamp: Date.now(),
    type: "text",
    ttl: 8,
    meshRoute: [],
    isEncrypted: encrypted,
    priority: "normal",
    content: encrypted ? { ciphertext: "A".repeat(120), iv: "iv-0123456789ab" } : { text: "Tomatoes are ₦1,200 a basket at Mile 12 today" },
  };
}

/**
 * A busy minute in one room: `senders` each send a message every SEND_EVERY_MS for BUSY_MS, their sockets open
 * before and after (a connect is its own row). Counted from before the first message until the room's batch has
 * landed: its alarm runs a minute after the first message (no flush-interval override: the bench waits the real
 * minute). Answers the mean per message and the batch's own statements.
 */
async function busyMinute(room, senders, encrypted) {
  const opened = Date.now();
  const sockets = await Promise.all(senders.map((p) => open(room, p)));
  // The connects' own reads are not the messages' (their row is apart); their presence goes in the batch.
  const before = await settled(1000);
  let sent = 0;
  const end = opened + BUSY_MS;
  await Promise.all(
    senders.map(async (p, k) => {
      await sleep((k * SEND_EVERY_MS) / senders.length);
      while (Date.now() < end) {
        await send(sockets[k], envelope(room, p.id, encrypted));
        sent++;
        await sleep(SEND_EVERY_MS);
      }
    }),
  );
  const during = await counts();
  const deadline = Date.now() + BATCH_WAIT_MS;
  while (Date.now() < deadline) {
    const now = await counts();
    if (now.reads + now.writes > during.reads + during.writes) break;
    await sleep(500);
  }
  const after = await settled();
  for (const ws of sockets) ws.close();
  const cost = { reads: after.reads - before.reads, writes: after.writes - before.writes, replica: after.replica - before.replica };
  return {
    mean: { reads: cost.reads / sent, writes: cost.writes / sent, replica: cost.replica / sent },
    batch: cost,
    sent,
    onPath: during.reads + during.writes - before.reads - before.writes,
  };
}

const rows = [];
const row = (action, cost, note = "") => rows.push({ action, ...cost, note });

try {
  // Two people in one area: one starts anonymously (measured), both verify, both take the area room.
  let a;
  row("anonymous start", await measure(async () => (a = await anonymous())));
  const b = await anonymous();
  const verified = await verify(a);
  row("verification: code asked", verified.register);
  row("verification: code typed", verified.confirm);
  await verify(b);
  for (const p of [a, b]) {
    await ok(await fetch(`${base}/api/me/location`, json(p.cookie, PLACE, "PUT")), "location");
    await ok(await fetch(`${base}/api/me`, json(p.cookie, { onboardingCompleted: true }, "PATCH")), "onboarding");
  }
  const { room: area } = await ok(await fetch(`${base}/api/rooms/nearby/join`, json(a.cookie, {})), "area join");
  await ok(await fetch(`${base}/api/rooms/nearby/join`, json(b.cookie, {})), "area join");

  // A browser keeps the session pass a page load hands it (docs/decisions/065-the-session-off-d1.md): the loads
  // below carry it, fresh, as a browser does for PASS_TTL_MS after its last session read; the "pass expired" rows
  // carry none, which costs what a lapsed pass costs (it is refused and the session read from D1 again).
  const passOf = (res) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith("linkup_pass=") && !c.startsWith("linkup_pass=;"))
      ?.split(";")[0];
  let withPass = a.cookie;
  /** An uncounted load without the pass: the browser's pass is fresh again (the busy minutes outlast one). */
  const renewPass = async () => {
    const res = await fetch(`${base}/chat`, { headers: { cookie: a.cookie } });
    await res.text();
    const pass = passOf(res);
    if (!pass) throw new Error("/chat handed out no session pass");
    withPass = `${a.cookie}; ${pass}`;
  };
  for (const path of ["/", "/chat", "/emergency", "/settings"]) {
    // A load first, uncounted: the landing's live figures are then in the edge cache, as for every visitor but
    // the first in a minute, and the browser has its pass.
    const first = await fetch(`${base}${path}`, { headers: { cookie: a.cookie } });
    await first.text();
    const pass = passOf(first);
    if (!pass) throw new Error(`${path} handed out no session pass`);
    withPass = `${a.cookie}; ${pass}`;
    const cost = await measure(async () => {
      const res = await fetch(`${base}${path}`, { headers: { cookie: withPass } });
      await res.text();
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    });
    row(`signed-in page load (${path})`, cost);
  }
  row(
    "signed-in page load (/chat), pass expired",
    await measure(async () => {
      const res = await fetch(`${base}/chat`, { headers: { cookie: a.cookie } });
      await res.text();
      if (!res.ok) throw new Error(`/chat answered ${res.status}`);
    }),
    "the session read from D1 once, and a fresh pass handed out",
  );

  // A busy minute in the area room: more people verify and join it.
  const senders = [a, b];
  while (senders.length < AREA_SENDERS) {
    const p = await anonymous();
    await ok(await fetch(`${base}/api/me/location`, json(p.cookie, PLACE, "PUT")), "location");
    await ok(await fetch(`${base}/api/rooms/nearby/join`, json(p.cookie, {})), "area join");
    senders.push(p);
  }
  const areaMinute = await busyMinute(area.id, senders, false);
  row(
    "chat message (area room)",
    areaMinute.mean,
    `mean over a busy minute: ${AREA_SENDERS} people, ${areaMinute.sent} messages, ${areaMinute.onPath} queries on the path; the room's one batch: ${areaMinute.batch.reads + areaMinute.batch.writes} statements`,
  );
  const { room: dm } = await ok(await fetch(`${base}/api/rooms/dm`, json(a.cookie, { userId: b.id })), "direct chat");
  const dmMinute = await busyMinute(dm.id, [a, b], true);
  row(
    "chat message (direct chat)",
    dmMinute.mean,
    `mean over a busy minute: 2 people, ${dmMinute.sent} sealed messages, ${dmMinute.onPath} queries on the path; one batch`,
  );

  let socket;
  await renewPass();
  // An uncounted connect first: the isolate reads the revocation feed at most every 30 s (one statement for all its
  // upgrades, workers/auth/pass-revocations.ts), not per connect; the model counts it apart.
  (await open(area.id, { ...a, cookie: withPass })).close();
  row(
    "socket connect (area room)",
    await measure(async () => {
      socket = await open(area.id, { ...a, cookie: withPass });
    }),
    "with the pass of the page that opens it; the person's presence goes in the room's next batch",
  );
  socket.close();
  row(
    "socket connect (area room), pass expired",
    await measure(async () => {
      socket = await open(area.id, a);
    }),
    "the upgrade's one session read from D1",
  );
  socket.close();
  // The chat screen again, now that the person has a direct chat: its other person and any message request are
  // read with the invitations and blocks, in the same one statement (db/queries/chat-lists.ts).
  await renewPass();
  row(
    "signed-in page load (/chat) with a direct chat",
    await measure(async () => {
      const res = await fetch(`${base}/chat`, { headers: { cookie: withPass } });
      await res.text();
      if (!res.ok) throw new Error(`/chat answered ${res.status}`);
    }),
  );

  // SOS: the request alerts its own share of the area; the queue takes SOS_QUEUED more.
  const pair = await webcrypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const p256dh = b64url(await webcrypto.subtle.exportKey("raw", pair.publicKey));
  const auth = b64url(webcrypto.getRandomValues(new Uint8Array(16)));
  const geohash = encodeGeohash(PLACE.latitude, PLACE.longitude);
  const ids = Array.from({ length: SOS_QUEUED + 10 }, (_, i) => `bench-cap-${i}`);
  const seed = join(server.dir, "seed.sql");
  writeFileSync(
    seed,
    [
      // Present in the area a moment ago: an SOS pages its area by presence (docs/decisions/054-sos-a-durable-job.md).
      `INSERT INTO users (id, nickname, latitude, longitude, geohash, location_updated_at) VALUES ${ids.map((id) => `('${id}', 'Neighbour', ${PLACE.latitude}, ${PLACE.longitude}, '${geohash}', ${Date.now()})`).join(", ")};`,
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES ${ids.map((id) => `('${id}', '${id}', '${pushBase}/${id}', '${p256dh}', '${auth}')`).join(", ")};`,
    ].join("\n"),
  );
  localD1(server.state, { file: seed });
  let answer;
  const sosTotal = await measure(async () => {
    answer = await ok(
      await fetch(
        `${base}/api/emergency/broadcast`,
        json(a.cookie, { message: "Fire at the market", emergencyType: "fire", clientRequestId: `cap-${Date.now()}`, location: PLACE }),
      ),
      "SOS",
    );
    // The queue's consumer runs after the answer: wait until every neighbour's push arrived (or a minute passed).
    const deadline = Date.now() + 60_000;
    while (pushes < ids.length + 1 && Date.now() < deadline) await sleep(200);
  });
  row("SOS (request and its consumer)", sosTotal, `${answer.reached.push} alerted by the request, ${answer.queued} queued`);

  const date = new Date().toISOString().slice(0, 10);
  // Three decimals below 0.1, so a figure near the 0.05 goal is never rounded onto it.
  const fmt = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 0.1 ? 3 : 2));
  const table = rows
    .map((r) => `| ${r.action} | ${fmt(r.reads + r.writes)} | ${fmt(r.writes)} | ${fmt(r.replica)} | ${r.note} |`)
    .join("\n");

  // The model (issue 28): per daily active person 20 messages (area rooms), 10 page loads (/chat), 10 reconnects;
  // the evening peak is 3× the mean; one D1 database runs queries one at a time, ~1,000 a second at 1 ms each.
  // Writes and the reads that must see the latest go to the primary; reads in a session a replica may answer
  // (the replica column) go to the replica nearest the person (docs/decisions/057-pages-ask-once-and-replicas.md).
  const get = (name) => rows.find((r) => r.action === name);
  const q = (r) => r.reads + r.writes;
  const onPrimary = (r) => r.reads + r.writes - r.replica;
  const onReplica = (r) => r.replica;
  // The share of page loads and reconnects that find their session pass expired, over the model's day played
  // against the pass's rules (bench/capacity/journey.mjs, docs/decisions/079-a-pass-that-lasts-the-day.md), and the
  // writes of "last used" it costs; and the same day under the pass of decision 065 (5 minutes, never renewed by a
  // page served by it), for comparison.
  const journey = expiredShare({
    ttlMs: PASS_TTL_MS,
    renewAfterMs: PASS_RENEW_AFTER_MS,
    touchMs: SESSION_TOUCH_INTERVAL_MS,
    passTouchMs: PASS_TOUCH_INTERVAL_MS,
  });
  const before = expiredShare({
    ttlMs: 5 * 60_000,
    renewAfterMs: Number.POSITIVE_INFINITY,
    touchMs: SESSION_TOUCH_INTERVAL_MS,
    passTouchMs: Number.POSITIVE_INFINITY,
  });
  const touch = { reads: 0, writes: 1, replica: 0 };
  const perDay = (cost, message = get("chat message (area room)"), share = journey) => {
    const mix = (stale, fresh, expired) => (1 - stale) * cost(get(fresh)) + stale * cost(get(expired));
    const load = mix(share.loads, "signed-in page load (/chat)", "signed-in page load (/chat), pass expired");
    const connect = mix(share.reconnects, "socket connect (area room)", "socket connect (area room), pass expired");
    return 20 * cost(message) + 10 * load + 10 * connect + share.touchesPerDay * cost(touch);
  };
  const atPeak = (daily) => (3 * daily) / 86_400;
  const carriesAt = (daily) => (daily > 0 ? Math.floor(1000 / atPeak(daily)) : Number.POSITIVE_INFINITY);
  const perPersonDay = perDay(q);
  const primaryDay = perDay(onPrimary);
  const replicaDay = perDay(onReplica);
  const carriesWithoutReplicas = carriesAt(perPersonDay);
  const carriesPrimary = carriesAt(primaryDay);
  const carriesReplica = carriesAt(replicaDay);
  const carries = Math.min(carriesPrimary, carriesReplica);
  const carriesBefore = Math.min(carriesAt(perDay(onPrimary, undefined, before)), carriesAt(perDay(onReplica, undefined, before)));
  // Every pass expired: the floor, whatever people do.
  const allStale = { loads: 1, reconnects: 1, touchesPerDay: before.touchesPerDay };
  const staleDay = perDay(onReplica, undefined, allStale);
  const carriesStale = Math.min(carriesAt(perDay(onPrimary, undefined, allStale)), carriesAt(staleDay));
  // The revocation feed: one primary read per isolate every 30 s. The isolates the primary's headroom at Lagos's peak
  // leaves room for.
  const lagos = 2_000_000;
  const feedIsolates = Math.floor((1000 - lagos * atPeak(primaryDay)) * 30);
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  // Quiet rooms: every message alone in its room's minute, so it pays a whole batch (on the primary: writes).
  const batchStatements = areaMinute.batch.reads + areaMinute.batch.writes;
  const alone = { reads: 0, writes: batchStatements, replica: 0 };
  const carriesQuiet = Math.min(carriesAt(perDay(onPrimary, alone)), carriesAt(perDay(onReplica, alone)));
  const people = (n) => (Number.isFinite(n) ? n.toLocaleString("en") : "no limit from these rows");
  const body = `Measured ${date} with \`npm run bench -- capacity\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}: the production
build served by \`wrangler dev --local\` with every D1 statement counted (\`QUERY_COUNT=1\`, db/query-count.ts); a
batch counts each of its statements. Work after the answer (waitUntil, the room's own writes, the SOS queue) is counted
until the counter stops moving. "Replica-served reads" are the reads among the queries that ran in a D1 session a
read replica may answer (db/read-replicas.ts): the local D1 has no replicas, so they ran on the one database here,
and the column says which reads replicas would take off the primary in production.

| action | D1 queries | D1 writes | replica-served reads | note |
| --- | --- | --- | --- | --- |
${table}

Capacity model. Cloudflare documents one D1 database as running its queries one at a time, about 1,000 queries a
second when each takes 1 ms (https://developers.cloudflare.com/d1/platform/limits/, "How much work can a D1 database
do?"), and at most 10 GB of data. Assumed per daily active person: 20 chat messages in area rooms, 10 signed-in
loads of /chat and 10 socket reconnects a day, at independent times over a Lagos day whose busiest hour is 3× the
mean; the share of them that find their session pass expired is measured (below), not assumed. That is
${fmt(perPersonDay)} queries per person a day: ${fmt(primaryDay)} on the primary (every write, with
${fmt(journey.touchesPerDay)} writes of a session's "last used", and the reads of requests that write) and
${fmt(replicaDay)} a replica may serve (the reads of page loads and other GETs).

Read replicas. D1 read replication (https://developers.cloudflare.com/d1/best-practices/read-replication/) adds
read-only copies of the database, one in each D1 region (ENAM, WNAM, WEUR, EEUR, APAC, OC, the primary's among them),
at no extra cost; only queries run through the Sessions API may be answered by a replica, and every write is still
sent to the primary. What they add is read throughput and nearness, not write capacity. Lagos is in no replica
region: its people's reads would go to the nearest one, so the model counts one replica for them, taken to run
queries one at a time at about 1,000 a second like the primary (Cloudflare documents that figure per database; per
replica it is this model's assumption). At the peak each person puts ${atPeak(primaryDay).toFixed(4)} queries a second on the
primary and ${atPeak(replicaDay).toFixed(4)} on the replica: the primary carries ${people(carriesPrimary)} people, the replica
${people(carriesReplica)}. Without replicas (every query on the primary) one database would carry
${people(carriesWithoutReplicas)}.

A message's cost is the mean over a busy minute in one area room: nothing on a message's path touches D1, and the
room writes its counts, points, activity and presence as one batch a minute at most
(docs/decisions/056-the-room-is-the-record-of-its-messages.md).

The session pass (docs/decisions/065-the-session-off-d1.md, 079-a-pass-that-lasts-the-day.md): a page load's or a
socket upgrade's session comes from a signed cookie, good for ${PASS_TTL_MS / 3_600_000} hours, so the rows above ask D1 nothing for it
(a page still reads, in one statement, what others change and whether the session still stands). A page renews a
pass older than ${PASS_RENEW_AFTER_MS / 60_000} minutes at no query; a socket's 101 cannot, so a reconnect uses the pass its last page left. A
load or reconnect whose pass has expired reads the session from D1 once (the "pass expired" rows). Measured over
${journey.people.toLocaleString("en")} people's ${journey.days}-day journeys played against these rules (bench/capacity/journey.mjs, after a week's
warm-up): ${pct(journey.reconnects)} of reconnects and ${pct(journey.loads)} of page loads find their pass expired, and "last used"
is written ${fmt(journey.touchesPerDay)} times a person a day. The same journeys under decision 065's pass (5 minutes, not renewed by
the pages it served): ${pct(before.reconnects)} of reconnects expired and ${fmt(before.touchesPerDay)} writes of "last used" a day, which
carries ${people(carriesBefore)}. Were every load and reconnect to find its pass expired, a person would put
${fmt(staleDay)} reads a day on the replica and one database would carry ${people(carriesStale)}.
A socket upgrade checks its pass against the revocation feed, one primary read per isolate every 30 s
(workers/auth/pass-revocations.ts): at Lagos's peak the primary has room for the feeds of ${feedIsolates.toLocaleString("en")} isolates.

Were every message alone in its room's minute (quiet
rooms: a whole ${batchStatements}-statement batch each), one database would carry ${people(carriesQuiet)} people. Page loads are measured after one uncounted load, so the landing's live figures (and an
area's head count on /emergency) come from the edge cache.

Carries: ${people(carries)} daily active people on one database`;
  console.log(body);
  writeSection("capacity", body);
} finally {
  await server.stop();
  push.close();
}
