// bench/crash (issue 29; docs/decisions/055-webhooks-and-files-survive-a-crash.md): the production build in workerd,
// SIGKILLed at every fault point of a path and restarted on the same state. For each path in ./paths (a module
// {name, points, setup, act, retry, check}), it walks the path once with FAULT_TRACE=1 to learn its points, then for
// each point: sets the path up on a healthy server, restarts with FAULT_HANG_AT=<point>, acts, waits for
// `linkup-fault-reached <point>`, SIGKILLs workerd (its whole process group, no clean-up), restarts on the same state
// without the hang, retries as the real caller would, and checks the end state. Writes the "crash" section of
// bench/README.md. `CRASH_PATHS=file-upload,…` runs only those files of ./paths; `CRASH_POINTS=sos.area.done,…` only
// those points of them (their rows replace the earlier ones, the path's other rows are kept).
//
// A path module (chat-message.mjs holds the room's `room.flush.*` points; add one for SOS with `sos.*` points):
//   name     what the table calls it
//   points   the prefix of its fault points (core/faults.ts), e.g. "webhook."
//   setup(server) → ctx       on a healthy server: the people and state the act needs
//   act(server, ctx)          what the caller does; cut off by the kill
//   retry(server, ctx)        what the caller does after getting no answer
//   check(server, ctx) → { survived, checked }
//   settle(server, ctx)       optional: after an uncut act, waits for what follows the answer (the SOS queue), so
//                             the trace lists those points too
// ctx.point is the point being killed at. Miniflare answers `/cdn-cgi/local/scheduled?cron=…` on the served port, so
// a path can run the Cron as Cloudflare would.
//   reachMs    (optional) how long a point may take to be reached (a room's alarm comes a minute after the act)
//   traceUntil (optional) the log text that says the traced walk is over (else 1 s after the act's answer)
//   afterAct   (optional) a row name: also kill right after the act answered, at no point, and check the same way
import { readdirSync } from "node:fs";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { readSection, writeSection } from "../readme.mjs";
import { WEBHOOK_SECRET } from "./paths/payment-webhook.mjs";

const REACH_MS = 30_000;
const only = process.env.CRASH_PATHS?.split(",").filter(Boolean);
const onlyPoints = process.env.CRASH_POINTS?.split(",").filter(Boolean);
const files = readdirSync(new URL("./paths", import.meta.url))
  .filter((f) => f.endsWith(".mjs"))
  .filter((f) => !only || only.includes(f.replace(/\.mjs$/, "")))
  .sort();
const paths = [];
for (const f of files) paths.push((await import(`./paths/${f}`)).default);

async function waitFor(server, text, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.log.includes(text)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** The points a path's act passes, in order (from FAULT_TRACE's `linkup-fault-passed` lines). */
async function tracePoints(server, path) {
  const ctx = await path.setup(server);
  const from = server.log.length;
  await path.act(server, ctx);
  await path.settle?.(server, ctx);
  // The trace lines come through wrangler's output a moment after the answer (or, for work the act only started,
  // once it has passed its last point).
  if (path.traceUntil) await waitFor(server, path.traceUntil, path.reachMs ?? REACH_MS);
  await new Promise((r) => setTimeout(r, 1000));
  const seen = [...server.log.slice(from).matchAll(/linkup-fault-passed ([^\s"]+)/g)].map((m) => m[1]);
  return [...new Set(seen.filter((p) => p.startsWith(path.points)))];
}

const rows = [];
const started = Date.now();
// ENVIRONMENT=development (the build's .dev.vars) is what lets FAULT_HANG_AT and FAULT_TRACE act (core/faults.ts).
const server = await serveBuilt({
  name: "bench-crash",
  vars: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, FAULT_TRACE: "1" },
});
try {
  for (const path of paths) {
    const points = await tracePoints(server, path);
    console.log(`${path.name}: ${points.length} points: ${points.join(", ")}`);
    if (points.length === 0) rows.push({ path: path.name, point: "(none)", survived: false, checked: "the path passed no fault point" });
    for (const point of (path.afterAct ? [path.afterAct, ...points] : points).filter((p) => !onlyPoints || onlyPoints.includes(p))) {
      let row;
      try {
        const ctx = await path.setup(server);
        ctx.point = point;
        const hang = point !== path.afterAct;
        if (hang) await server.restart({ vars: { FAULT_HANG_AT: point } });
        const acting = path.act(server, ctx).catch(() => {});
        const reached = hang
          ? await waitFor(server, `linkup-fault-reached ${point}`, path.reachMs ?? REACH_MS)
          : await acting.then(() => true);
        await server.kill();
        await acting;
        await server.restart();
        if (!reached) {
          row = { path: path.name, point, survived: false, checked: `never reached ${point}` };
        } else {
          await path.retry(server, ctx);
          const { survived, checked } = await path.check(server, ctx);
          row = { path: path.name, point, survived, checked };
        }
      } catch (e) {
        // What failed and where, for the run's log (the table keeps the message only).
        console.log(
          `  ${point}: ${e?.stack ?? e}${e?.cause ? `\n  cause: ${e.cause?.stack ?? e.cause}` : ""}\n  server log: ${server.log.slice(-1500)}`,
        );
        // Whatever state it was left in (perhaps still held at the point), the next point starts on a healthy one.
        await server.restart().catch(() => {});
        row = { path: path.name, point, survived: false, checked: `failed: ${String(e?.message ?? e).slice(0, 200)}` };
      }
      console.log(`  ${row.point}: ${row.survived ? "survived" : "LOST"} (${row.checked})`);
      rows.push(row);
    }
  }
} finally {
  await server.stop();
}

// The table keeps the rows of paths not run this time (CRASH_PATHS), so one path can be run again alone, and with
// CRASH_POINTS the rows of the points not run again, in place.
const ran = new Set(paths.map((p) => p.name));
const rowLine = (r) => `| ${r.path} | \`${r.point}\` | ${r.survived ? "yes" : "**no**"} | ${r.checked.replaceAll("|", "\\|")} |`;
const fresh = new Map(rows.map((r) => [`${r.path}|${r.point}`, r]));
const kept = [];
for (const l of (readSection("crash") ?? "").split("\n")) {
  if (!l.startsWith("| ") || l.startsWith("| path |") || l.startsWith("| --- ")) continue;
  const [path, point] = l.slice(2).split(" | ");
  const key = `${path}|${point.replaceAll("`", "")}`;
  if (fresh.has(key)) {
    kept.push(rowLine(fresh.get(key)));
    fresh.delete(key);
  } else if (!ran.has(path) || onlyPoints) kept.push(l);
}
const lines = [
  `SIGKILL at every fault point of a path, workerd restarted on the same state, the caller's retry, the end state checked (\`npm run bench -- crash\`; last run ${only ? `\`CRASH_PATHS=${only.join(",")}\`, ` : ""}${onlyPoints ? `\`CRASH_POINTS=${onlyPoints.join(",")}\`, ` : ""}${new Date().toISOString().slice(0, 10)}, ${Math.round((Date.now() - started) / 1000)} s; the rows of paths not run then are kept from earlier runs). The production build with ENVIRONMENT=development, so \`FAULT_HANG_AT\` holds the request at the point until the kill (core/faults.ts).`,
  "",
  "| path | point | survived | what was checked |",
  "| --- | --- | --- | --- |",
  ...kept,
  ...[...fresh.values()].map(rowLine),
];
writeSection("crash", lines.join("\n"));
console.log(`${rows.filter((r) => r.survived).length}/${rows.length} points survived`);
process.exit(rows.every((r) => r.survived) ? 0 : 1);
