// bench/ussd: time of the USSD callback (POST /ussd) over 1,000 simulated sessions, each a full SOS walk
// (main menu → SOS → type → typed place → confirm), against the production build served locally in workerd.
// Writes the "ussd" section of bench/README.md. Goal (issue 7): p99 under 50 ms.
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

const SESSIONS = Number(process.env.USSD_SESSIONS ?? 1000);
const WARMUP = 20;
const CONCURRENCY = Number(process.env.USSD_CONCURRENCY ?? 1);
// Places callers type, spread so each area room gets a realistic handful of SOS, not all of them.
const PLACES = [
  "Ikeja",
  "Yaba market",
  "Kano city",
  "Wuse, Abuja",
  "Ibadan Bodija",
  "Port Harcourt",
  "Onitsha main market",
  "Jos",
  "Enugu",
  "Aba",
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] };
};

const load = loadavg()[0];
const server = await serveBuilt({ name: "bench-ussd" });
const menu = [];
const sos = [];
const errors = [];
try {
  async function session(i, record) {
    const phone = `+234703${String(i).padStart(7, "0")}`;
    const sessionId = `ATUid_bench_${process.pid}_${i}`;
    const place = PLACES[i % PLACES.length];
    const steps = ["", "1", "1*1", `1*1*${place}`, `1*1*${place}*1`];
    for (const [k, text] of steps.entries()) {
      const body = new URLSearchParams({ sessionId, serviceCode: "*384*1234#", phoneNumber: phone, networkCode: "62130", text });
      const t0 = performance.now();
      const res = await fetch(`${server.url}/ussd`, { method: "POST", body });
      const answer = await res.text();
      const ms = performance.now() - t0;
      const last = k === steps.length - 1;
      if (res.status !== 200 || !answer.startsWith(last ? "END SOS sent." : "CON ")) errors.push(`${res.status} ${answer.slice(0, 80)}`);
      if (record) (last ? sos : menu).push(ms);
    }
  }
  for (let i = 0; i < WARMUP; i++) await session(1_000_000 + i, false);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SESSIONS) await session(next++, true);
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const all = stats([...menu, ...sos]);
  const m = stats(menu);
  const s = stats(sos);
  const f = (x) => x.toFixed(1);
  const row = (name, x) => `| ${name} | ${x.n} | ${f(x.p50)} | ${f(x.p99)} | ${f(x.max)} |`;
  const body = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- ussd\` on ${cpus().length} × ${cpus()[0]?.model.trim()} (load average ${load.toFixed(1)} at the start).`,
    "",
    `- ${SESSIONS} sessions (after ${WARMUP} warm-up sessions), ${CONCURRENCY === 1 ? "one at a time" : `${CONCURRENCY} at a time`}, each a full SOS walk of 5 callbacks: main menu, SOS, emergency type, typed place, confirm.`,
    "- Each session is a new phone, so each SOS creates its user, records the broadcast, delivers the envelope to the area room (MeshRoom) and notifies the area; places rotate over 10 towns.",
    "- Server: the production build served by `wrangler dev --local` (local D1 in SQLite, Durable Objects in workerd); client: Node `fetch` on the same machine. Times are request to full answer, in milliseconds.",
    "",
    "| callbacks | count | p50 (ms) | p99 (ms) | max (ms) |",
    "| --- | --- | --- | --- | --- |",
    row("all", all),
    row("menu screens (steps 1–4)", m),
    row("SOS confirm (step 5)", s),
    "",
    `Goal: p99 under 50 ms — ${all.p99 < 50 ? "met" : "not met"} (all callbacks p99 ${f(all.p99)} ms). ${(SESSIONS * 5) / seconds > 0 ? `Throughput ${Math.round((SESSIONS * 5) / seconds)} callbacks/s.` : ""}`,
    errors.length ? `Unexpected answers: ${errors.length} (first: ${errors[0]}).` : "Every callback answered 200 with the expected screen.",
  ].join("\n");
  console.log(body);
  writeSection("ussd", body);
} finally {
  await server.stop();
}
if (errors.length) process.exit(1);
