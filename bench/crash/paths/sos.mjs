// The SOS path (issue 29; docs/decisions/054-sos-a-durable-job.md): a sender with one emergency contact, and
// NEIGHBOURS people in the sender's area, each with a push subscription at a loopback push service in this process
// (accepted in development only, workers/services/push.ts). More neighbours than the request alerts itself
// (INLINE_RECIPIENTS, 10), so the queue consumer's sos.consumer.* points are on the path too. Killed at any sos.*
// point, the web client sends the same form again (the same clientRequestId), the Cron sweep runs (wrangler's
// `/cdn-cgi/local/scheduled` route, as Cloudflare would each minute) and the queue carries on; then every neighbour must
// have been pushed exactly once (twice only at the `.pushed` points, decision 054's window), the contact messaged
// exactly once, the job finished in D1 (every queued page reached, decision 054), and the sender's SOS answer
// "sent" (its id, nothing failed). Queue messages in flight die with workerd (miniflare keeps them in memory): the
// sweep must send again what they carried.
import { createServer } from "node:http";
import { webcrypto } from "node:crypto";
import { call, ok, verifiedPerson } from "../client.mjs";
import { localD1 } from "../../../tests/local-d1.mjs";

const NEIGHBOURS = 13;
/** The SOS sweep's Cron (workers/sos SOS_SWEEP_CRON) and the age at which it takes a job as lost (30 s). */
const SWEEP_CRON = "* * * * *";
const UNFINISHED_AFTER_MS = 30_000;
/** A claim left `sending` by a dead Worker is taken over after CLAIM_LEASE_MS (60 s): wait past it for a second push. */
const LEASE_MS = 60_000;
/** By then the sweep (from 30 s, each 10 s here) and the queue's retry of a claim held by the dead Worker (after the lease) are done. */
const SETTLE_AFTER_SENT_MS = LEASE_MS + 40_000;
/** A page lost with its message is sent again once it has waited a minute with its job reaching nothing (decision 054): long enough for that. */
const PAGE_AGAIN_AFTER_SENT_MS = 60_000 + 60_000;

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The loopback push service: pushes received per endpoint path.
const received = new Map();
let pushBase;
async function pushService() {
  if (pushBase) return pushBase;
  const push = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.set(req.url, (received.get(req.url) ?? 0) + 1);
      res.writeHead(201).end();
    });
  });
  await new Promise((r) => push.listen(0, "127.0.0.1", r));
  push.unref();
  pushBase = `http://127.0.0.1:${push.address().port}`;
  return pushBase;
}

async function anonymousAt(server, place) {
  const started = await call(server, "/api/auth/anonymous", { method: "POST" });
  const cookie = started.headers.getSetCookie()[0].split(";")[0];
  const { user } = await ok(started, "anonymous start");
  await ok(await call(server, "/api/me/location", { method: "PUT", cookie, json: place }), "location");
  return { id: user.id, cookie };
}

let seq = 0;
const pushesOf = (ctx) => ctx.endpoints.map((e) => received.get(new URL(e).pathname) ?? 0);

async function contactMessages(server, ctx) {
  const { messages } = await ok(await call(server, "/api/dev/outbox?limit=200"), "outbox");
  return messages.filter((m) => m.to === ctx.contact && m.body.includes(ctx.message)).length;
}

function send(server, ctx) {
  return call(server, "/api/emergency/broadcast", {
    method: "POST",
    cookie: ctx.sender.cookie,
    json: { message: ctx.message, emergencyType: "fire", clientRequestId: ctx.requestId, location: ctx.place },
  });
}

/** The SOS's record in the local D1 (read beside the running workerd): finished or not, and how many were claimed. */
function jobRecord(server, ctx) {
  const sqlText = `SELECT b.job_done_at IS NOT NULL AS done, (SELECT count(*) FROM sos_deliveries d WHERE d.broadcast_id = b.id) AS claimed FROM emergency_broadcasts b WHERE b.client_request_id = '${ctx.requestId}'`;
  return localD1(server.state, { command: sqlText, rows: true })[0] ?? null;
}

export default {
  name: "SOS",
  points: "sos.",
  async setup(server) {
    const base = await pushService();
    const tag = `${process.pid}-${seq++}-${Date.now()}`;
    // A place of its own for each run, so no earlier run's neighbours are in the area.
    const place = { latitude: 5 + Math.random() * 6, longitude: 4 + Math.random() * 8 };
    const sender = await verifiedPerson(server);
    await ok(await call(server, "/api/me/location", { method: "PUT", cookie: sender.cookie, json: place }), "sender location");
    const contact = `+234803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    await ok(
      await call(server, "/api/contacts", { method: "POST", cookie: sender.cookie, json: { name: "Ada", phone: contact } }),
      "contact",
    );
    // One browser key pair stands in for every neighbour's (each push is still encrypted for it).
    const pair = await webcrypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const keys = {
      p256dh: b64url(await webcrypto.subtle.exportKey("raw", pair.publicKey)),
      auth: b64url(webcrypto.getRandomValues(new Uint8Array(16))),
    };
    const endpoints = [];
    for (let i = 0; i < NEIGHBOURS; i++) {
      const n = await anonymousAt(server, place);
      const endpoint = `${base}/${tag}/${i}`;
      await ok(await call(server, "/api/push/subscribe", { method: "POST", cookie: n.cookie, json: { endpoint, keys } }), "subscribe");
      endpoints.push(endpoint);
    }
    return { sender, contact, place, endpoints, requestId: `crash-${tag}`, message: `Fire at the market ${tag}` };
  },
  async act(server, ctx) {
    ctx.sentAt = Date.now();
    ctx.first = (await send(server, ctx)).status;
  },
  /** Uncut, the queue alerts the rest after the answer: the trace waits for it, so the consumer's points are listed. */
  async settle(_server, ctx) {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && pushesOf(ctx).some((n) => n === 0)) await sleep(250);
    await sleep(1000);
  },
  /**
   * The web client sends the same form again (same clientRequestId); then the Cron sweep runs each 10 s once the
   * SOS is 30 s old and the queue does what it has, until everyone and the contact are reached (and, at points
   * where a claim may be left `sending`, past the 60 s lease, when a second push could come).
   */
  async retry(server, ctx) {
    const res = await send(server, ctx);
    ctx.retried = { status: res.status, ...(await res.json().catch(() => ({}))) };
    const mayRepeat = /\.(claimed|stored|pushed)$/.test(ctx.point ?? "") || ctx.point === "sos.contacts.sent";
    const deadline = Math.max(ctx.sentAt + Math.max(SETTLE_AFTER_SENT_MS, PAGE_AGAIN_AFTER_SENT_MS), Date.now() + 15_000);
    let lastSweep = 0;
    let lastJobRead = 0;
    ctx.sweeps = 0;
    while (Date.now() < deadline) {
      const allReached = pushesOf(ctx).every((n) => n > 0) && (await contactMessages(server, ctx)) > 0;
      // Everyone reached is not the end: the job must finish too (a page whose message died with workerd keeps it
      // open until the sweep sends it again and it is closed), read from D1 at most every 10 s.
      if (
        allReached &&
        (!mayRepeat || Date.now() > ctx.sentAt + UNFINISHED_AFTER_MS + LEASE_MS + 5000) &&
        Date.now() - lastJobRead > 10_000
      ) {
        lastJobRead = Date.now();
        if (jobRecord(server, ctx)?.done) break;
      }
      if (Date.now() > ctx.sentAt + UNFINISHED_AFTER_MS && Date.now() - lastSweep > 10_000) {
        lastSweep = Date.now();
        ctx.sweeps++;
        // Miniflare's route for a scheduled event (what wrangler's `cron` trigger calls); `/__scheduled` is not
        // there for a build served with no_bundle.
        const ran = await ok(await call(server, `/cdn-cgi/local/scheduled?format=json&cron=${encodeURIComponent(SWEEP_CRON)}`), "sweep");
        if (ran?.outcome !== "ok") throw new Error(`the sweep answered ${JSON.stringify(ran)}`);
      }
      await sleep(1000);
    }
  },
  async check(server, ctx) {
    const pushes = pushesOf(ctx);
    const contact = await contactMessages(server, ctx);
    // What the sender's screen shows: the same form answered once more, from the finished job's record.
    const shown = await ok(await send(server, ctx), "the SOS replayed");
    const once = pushes.filter((n) => n === 1).length;
    const twice = pushes.filter((n) => n === 2).length;
    const never = pushes.filter((n) => n === 0).length;
    const more = pushes.filter((n) => n > 2).length;
    const pushWindow = /\.pushed$/.test(ctx.point ?? "");
    const sent = shown.id && shown.failed.length === 0 && shown.created === false;
    // Someone never pushed: was the job left unfinished, or were they never claimed at all (their page was only on
    // the queue, which under wrangler dev is kept in memory and dies with workerd: miniflare's queue broker)?
    // The job's record: finished (its last page closes it a moment after the last push), and how many were claimed.
    let job = jobRecord(server, ctx);
    if (job && !job.done) {
      await sleep(10_000);
      job = jobRecord(server, ctx);
    }
    const finished = Boolean(job?.done);
    const why = never > 0 && job ? ` (${NEIGHBOURS - Number(job.claimed)} of ${NEIGHBOURS} never claimed)` : "";
    const survived = never === 0 && more === 0 && (pushWindow || twice === 0) && contact === 1 && finished && sent;
    return {
      survived,
      checked: `retry answered ${ctx.retried.status}; sweeps ${ctx.sweeps}; ${NEIGHBOURS} neighbours pushed once ${once}, twice ${twice}, never ${never}${why}${more ? `, more ${more}` : ""}; contact messaged ${contact}×; job ${finished ? "finished" : "unfinished"}; the sender's SOS shown ${sent ? "sent" : `not sent (${JSON.stringify(shown).slice(0, 120)})`}`,
    };
  },
};
