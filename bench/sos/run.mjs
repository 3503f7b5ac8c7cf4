// bench/sos: an SOS to an area of 10,000 push subscribers (SOS_SUBSCRIBERS=100000 for issue 28's 100,000), against the production build served locally in
// workerd with its queue. The subscribers' push endpoints are a loopback HTTP server in this process (accepted in
// development only); they are seeded straight into the local D1. Reports the SOS request's own time, the time to
// the last push and how many were reached. Writes the "sos" section of bench/README.md. Goal (issue 19): all
// 10,000 reached, the request answering in under a second.
import { localD1 } from "../../tests/local-d1.mjs";
import { webcrypto } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { encodeGeohash } from "../../core/geohash.ts";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

const SUBSCRIBERS = Number(process.env.SOS_SUBSCRIBERS ?? 10_000);
const PLACE = { latitude: 6.4654, longitude: 3.4064 }; // Lagos Island
const STALL_MS = 60_000;

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");

/** fetch, sent again when wrangler's local proxy closed the kept-alive connection as it went out (the SOS is idempotent). */
async function fetchAgain(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt < 3 && e?.cause?.code === "UND_ERR_SOCKET") continue;
      throw e;
    }
  }
}
const load = loadavg()[0].toFixed(1);

// The loopback push service: counts each endpoint once, remembers when the last one arrived.
const reached = new Set();
let last = 0;
let posts = 0;
const push = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    posts++;
    reached.add(req.url);
    last = performance.now();
    res.writeHead(201).end();
  });
});
await new Promise((r) => push.listen(0, "127.0.0.1", r));
const pushBase = `http://127.0.0.1:${push.address().port}`;

// QUERY_COUNT=1: every D1 statement logs one line (db/query-count.ts), so the run can say what the SOS cost in D1.
const server = await serveBuilt({ name: "bench-sos", vars: { QUERY_COUNT: "1" } });
const statements = (from = 0) => (server.log.slice(from).match(/linkup-d1-statement [rw]/g) ?? []).length;
try {
  // One browser key pair stands in for every subscriber's (each push is still encrypted for it).
  const pair = await webcrypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const p256dh = b64url(await webcrypto.subtle.exportKey("raw", pair.publicKey));
  const auth = b64url(webcrypto.getRandomValues(new Uint8Array(16)));
  const geohash = encodeGeohash(PLACE.latitude, PLACE.longitude);
  const seededAt = Date.now() - 60_000;
  const lines = [];
  for (let i = 0; i < SUBSCRIBERS; i += 500) {
    const ids = Array.from({ length: Math.min(500, SUBSCRIBERS - i) }, (_, k) => `bench-sos-${i + k}`);
    lines.push(
      // Each last present a second apart: the SOS pages the area by presence (docs/decisions/054-sos-a-durable-job.md).
      `INSERT INTO users (id, nickname, latitude, longitude, geohash, location_updated_at) VALUES ${ids.map((id, k) => `('${id}', 'Neighbour', ${PLACE.latitude}, ${PLACE.longitude}, '${geohash}', ${seededAt - (i + k) * 1000})`).join(", ")};`,
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES ${ids.map((id) => `('${id}', '${id}', '${pushBase}/${id}', '${p256dh}', '${auth}')`).join(", ")};`,
    );
  }
  const seedStart = performance.now();
  const seed = join(server.dir, "seed.sql");
  writeFileSync(seed, lines.join("\n"));
  localD1(server.state, { file: seed });

  const seedSeconds = (performance.now() - seedStart) / 1000;
  // The sender: a session placed in the same area, then the SOS.
  const started = await fetchAgain(`${server.url}/api/auth/anonymous`, { method: "POST", headers: { origin: server.url } });
  const cookie = started.headers.getSetCookie()[0].split(";")[0];
  await started.text(); // Each answer is read in full: the local proxy drops a connection left with an unread body.
  const headers = { cookie, origin: server.url, "content-type": "application/json" };
  const located = await fetchAgain(`${server.url}/api/me/location`, { method: "PUT", headers, body: JSON.stringify(PLACE) });
  if (!located.ok) throw new Error(`location answered ${located.status}: ${await located.text()}`);
  await located.text();
  const logFrom = server.log.length;
  const t0 = performance.now();
  const res = await fetchAgain(`${server.url}/api/emergency/broadcast`, {
    method: "POST",
    headers,
    body: JSON.stringify({ message: "Fire at the market", emergencyType: "fire", clientRequestId: `bench-${Date.now()}`, location: PLACE }),
  });
  const answered = performance.now() - t0;
  const answer = await res.json();
  const requestStatements = statements(logFrom);
  if (res.status !== 201) throw new Error(`SOS answered ${res.status}: ${JSON.stringify(answer)}`);

  // Wait for the queue to drain: done when every subscriber is reached, or nothing arrives for a minute.
  while (reached.size < SUBSCRIBERS && performance.now() - Math.max(last, t0) < STALL_MS) await new Promise((r) => setTimeout(r, 250));
  const lastDelivery = (last - t0) / 1000;
  // The counter once it stops moving (the last pages settle their outcomes after their pushes).
  let total = statements(logFrom);
  for (let prev = -1; prev !== total; ) {
    prev = total;
    await new Promise((r) => setTimeout(r, 1000));
    total = statements(logFrom);
  }
  const date = new Date().toISOString().slice(0, 10);
  const met = reached.size === SUBSCRIBERS && answered < 1000;
  const body = `Measured ${date} with \`npm run bench -- sos\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"} (load average ${load} at the start).

- ${SUBSCRIBERS.toLocaleString("en")} people in one area cell, each with a push subscription whose endpoint is a loopback HTTP
  server in the benchmark's process (every push still VAPID-signed and encrypted), seeded into the local D1.
- Server: the production build served by \`wrangler dev --local\`, with its local queue (\`SOS_FANOUT\`) consumed by
  the same Worker (workers/sos/fanout.ts). One SOS from a sender in that cell; the area goes as plans of 5,000 and
  pages of 50 by presence, each person claimed before their push (docs/decisions/054-sos-a-durable-job.md).
- Seeding the people into the local D1 took ${seedSeconds.toFixed(0)} s (not part of the SOS).

| subscribers | SOS request answered (ms) | alerted by the request | queued | reached | pushes received | time to last push (s) |
| --- | --- | --- | --- | --- | --- | --- |
| ${SUBSCRIBERS.toLocaleString("en")} | ${answered.toFixed(0)} | ${answer.reached.push} | ${answer.queued} | ${reached.size.toLocaleString("en")} | ${posts.toLocaleString("en")} | ${lastDelivery.toFixed(1)} |

D1 statements: the request ${requestStatements}, the whole SOS with its fan-out ${total} (${(((total - requestStatements) / Math.max(1, SUBSCRIBERS - answer.reached.push)) * 50).toFixed(1)} per 50 queued).

Goal: all reached and the request answering in under a second — ${met ? "met" : "not met"}.`;
  console.log(body);
  writeSection("sos", body);
} finally {
  await server.stop();
  push.close();
}
