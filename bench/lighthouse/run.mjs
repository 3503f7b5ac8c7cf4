// bench/lighthouse: page load of /, /chat, /emergency and /onboarding on the production build served by the real
// Worker, measured by Lighthouse (mobile preset: a mid-range phone on simulated slow 4G) driving Debian's
// Chromium. Writes the "lighthouse" section of bench/README.md. Goal (issue 19): LCP 2.0 s or less on each.
// Then the same pages on a 2G link, a first visit and a repeat visit right after it (issue 35; goals LCP ≤ 3.0 s and
// ≤ 1.0 s, docs/decisions/070-light-enough-for-2g.md). LIGHTHOUSE_PROFILES=mobile or =2g runs one of the two.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import lighthouse from "lighthouse";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// LIGHTHOUSE_PAGES=/,/chat measures only those pages (of each profile's list), e.g. to read one page's trace.
const only = process.env.LIGHTHOUSE_PAGES?.split(",");
const PAGES = ["/", "/chat", "/emergency", "/onboarding"].filter((p) => !only || only.includes(p));
const GOAL_LCP_MS = 2000;
// WebPageTest's "2G" connectivity profile (its connectivity.ini: 280 Kbps down, 256 Kbps up, 800 ms round trip),
// with the mobile preset's 4× CPU slowdown, in Lighthouse's simulated throttling. The request latency and download
// figures (used only by devtools throttling) follow Lighthouse's own preset: RTT × 3.75 and throughput × 0.9.
const TWO_G = {
  rttMs: 800,
  throughputKbps: 280,
  uploadThroughputKbps: 256,
  requestLatencyMs: 800 * 3.75,
  downloadThroughputKbps: 280 * 0.9,
  cpuSlowdownMultiplier: 4,
};
const TWO_G_PAGES = ["/", "/chat", "/emergency"].filter((p) => !only || only.includes(p));
const GOAL_2G_FIRST_MS = 3000;
const GOAL_2G_REPEAT_MS = 1000;
const PROFILES = (process.env.LIGHTHOUSE_PROFILES ?? "mobile,2g").split(",");
// Single runs on a shared machine move by up to 0.7 s: each page is measured RUNS times and the run with the
// median LCP is reported, with the range beside it.
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const loads = [loadavg()[0]];
const version = JSON.parse(readFileSync(new URL("../../node_modules/lighthouse/package.json", import.meta.url), "utf8")).version;

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

const server = await serveBuilt({ name: "bench-lighthouse" });
const port = await freePort();
const profile = mkdtempSync(join(tmpdir(), "lh-"));
const chrome = spawn(
  CHROMIUM,
  [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    "about:blank",
  ],
  { stdio: "ignore" },
);
const rows = [];
const rows2g = [];
try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/json/version`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error("Chromium did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  // A signed-in visitor who finished onboarding and accepted cookies sees every screen itself, not a redirect.
  const started = await fetch(`${server.url}/api/auth/anonymous`, { method: "POST", headers: { origin: server.url } });
  const session = started.headers.getSetCookie()[0].split(";")[0];
  await started.text();
  const cookie = `${session}; linkup-cookies-accepted=true`;
  const patched = await fetch(`${server.url}/api/me`, {
    method: "PATCH",
    headers: { cookie, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ nickname: "Lighthouse", onboardingCompleted: true }),
  });
  await patched.text();
  // The same cookies in the browser's own jar: Lighthouse's extra headers reach the page's requests, not the
  // offline worker's, which must fetch and keep the pages as this person's (docs/decisions/078).
  const { webSocketDebuggerUrl } = await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.json());
  await new Promise((resolve, reject) => {
    const ws = new WebSocket(webSocketDebuggerUrl);
    ws.onerror = reject;
    ws.onopen = () =>
      ws.send(
        JSON.stringify({
          id: 1,
          method: "Storage.setCookies",
          params: {
            cookies: cookie.split("; ").map((c) => {
              const [name, ...value] = c.split("=");
              return { name, value: value.join("="), url: server.url };
            }),
          },
        }),
      );
    ws.onmessage = (m) => {
      const answer = JSON.parse(String(m.data));
      ws.close();
      answer.error ? reject(new Error(answer.error.message)) : resolve();
    };
  });

  /** One Lighthouse run of a page; `settings` overrides the mobile preset's (throttling, storage reset). */
  async function audit(path, label, settings = {}) {
    const { lhr, artifacts } = await lighthouse(
      server.url + path,
      { port, output: "json", logLevel: "error", onlyCategories: ["performance"], extraHeaders: { cookie }, ...settings },
      undefined,
    );
    // LIGHTHOUSE_SAVE=<dir> keeps each page's full report (the trace's details) for reading.
    if (process.env.LIGHTHOUSE_SAVE) {
      mkdirSync(process.env.LIGHTHOUSE_SAVE, { recursive: true });
      const name = join(process.env.LIGHTHOUSE_SAVE, `${path.slice(1) || "landing"}-${label}`);
      writeFileSync(`${name}.json`, JSON.stringify(lhr));
      // The trace (open it in Chrome's Performance panel) and the protocol log, with the service worker's requests.
      writeFileSync(`${name}.trace.json`, JSON.stringify(artifacts.Trace));
      writeFileSync(`${name}.devtoolslog.json`, JSON.stringify(artifacts.DevtoolsLog));
    }
    const observed = lhr.audits.metrics?.details?.items?.[0] ?? {};
    const a = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const requests = lhr.audits["network-requests"]?.details?.items ?? [];
    const doc = requests.find((i) => i.resourceType === "Document");
    const row = {
      path,
      final: new URL(lhr.finalDisplayedUrl).pathname,
      lcp: a("largest-contentful-paint"),
      fcp: a("first-contentful-paint"),
      tbt: a("total-blocking-time"),
      bytes: a("total-byte-weight"),
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      // What the first paint competes with: render-blocking files, and the scripts the browser asked for before
      // it painted (Lighthouse's simulation counts every request started before a paint as one it waited for).
      blocking: lhr.audits["render-blocking-resources"]?.details?.overallSavingsMs ?? 0,
      scripts: requests
        .filter((i) => i.resourceType === "Script" && i.networkRequestTime < observed.observedFirstContentfulPaint)
        .reduce((n, i) => [n[0] + 1, n[1] + (i.transferSize ?? 0)], [0, 0]),
      // Every request that started before the first paint, the document included.
      beforePaint: requests.filter((i) => i.networkRequestTime < observed.observedFirstContentfulPaint).map((i) => new URL(i.url).pathname),
      docBytes: doc?.transferSize ?? Number.NaN,
      requests: requests.length,
      tti: a("interactive"),
    };
    loads.push(loadavg()[0]);
    console.log(label, row);
    return row;
  }
  const median = (runs) => {
    const sorted = [...runs].sort((x, y) => x.lcp - y.lcp);
    return { ...sorted[Math.floor((sorted.length - 1) / 2)], lcpMin: sorted[0].lcp, lcpMax: sorted.at(-1).lcp };
  };

  if (PROFILES.includes("mobile")) {
    const samples = new Map(PAGES.map((p) => [p, []]));
    for (let run = 1; run <= RUNS; run++) for (const path of PAGES) samples.get(path).push(await audit(path, `${run}`));
    for (const runs of samples.values()) rows.push(median(runs));
  }

  if (PROFILES.includes("2g")) {
    // Each page's first visit (Lighthouse clears the cache and the offline worker first), then at once the repeat
    // visit in the same browser profile, with what the first left behind (its cache, the offline worker).
    const first = new Map(TWO_G_PAGES.map((p) => [p, []]));
    const repeat = new Map(TWO_G_PAGES.map((p) => [p, []]));
    const applied = new Map(TWO_G_PAGES.map((p) => [p, []]));
    const twoG = { throttlingMethod: "simulate", throttling: TWO_G };
    for (let run = 1; run <= RUNS; run++)
      for (const path of TWO_G_PAGES) {
        first.get(path).push(await audit(path, `2g-first-${run}`, twoG));
        repeat.get(path).push(await audit(path, `2g-repeat-${run}`, { ...twoG, disableStorageReset: true }));
        // Lighthouse's simulation prices every request as a network one, also a document the offline worker answers
        // from its cache (docs/decisions/078): the repeat visit again, with the 2G link applied to the browser
        // (devtools throttling), its times observed.
        applied
          .get(path)
          .push(
            await audit(path, `2g-repeat-applied-${run}`, { throttlingMethod: "devtools", throttling: TWO_G, disableStorageReset: true }),
          );
      }
    // The HTML each page sends, compressed as a deploy would (gzip -9; the local server sends it uncompressed).
    for (const path of TWO_G_PAGES) {
      const res = await fetch(server.url + path, { headers: { cookie }, redirect: "manual" });
      const html = Buffer.from(await res.arrayBuffer());
      const htmlGz = gzipSync(html, { level: 9 }).length;
      rows2g.push({ ...median(first.get(path)), visit: "first", html: html.length, htmlGz });
      rows2g.push({ ...median(repeat.get(path)), visit: "repeat", html: html.length, htmlGz });
      rows2g.push({ ...median(applied.get(path)), visit: "repeat, 2G applied", html: html.length, htmlGz });
    }
  }
} finally {
  const exited = new Promise((r) => chrome.once("exit", r));
  chrome.kill();
  await exited;
  rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  await server.stop();
}

const date = new Date().toISOString().slice(0, 10);
const s = (ms) => (ms / 1000).toFixed(1);
const kib = (n) => (n / 1024).toFixed(1);
const mobileTable = rows
  .map(
    (r) =>
      `| ${r.path}${r.final !== r.path ? ` (→ ${r.final})` : ""} | ${s(r.lcp)} (${s(r.lcpMin)}–${s(r.lcpMax)}) | ${s(r.fcp)} | ${Math.round(r.tbt)} | ${s(r.tti)} | ${(r.bytes / 1024).toFixed(0)} | ${r.scripts[0]} / ${(r.scripts[1] / 1024).toFixed(0)} | ${Math.round(r.blocking)} | ${r.score} | ${r.lcp <= GOAL_LCP_MS ? "yes" : "no"} |`,
  )
  .join("\n");
const twoGTable = rows2g
  .map((r) => {
    const goal = r.visit === "first" ? GOAL_2G_FIRST_MS : GOAL_2G_REPEAT_MS;
    return `| ${r.path}${r.final !== r.path ? ` (→ ${r.final})` : ""} | ${r.visit} | ${s(r.lcp)} (${s(r.lcpMin)}–${s(r.lcpMax)}) | ${s(r.fcp)} | ${kib(r.htmlGz)} (${kib(r.html)} raw) | ${kib(r.docBytes)} | ${kib(r.bytes)} | ${r.requests} | ${r.beforePaint.length} | ${r.lcp <= goal ? "yes" : "**no**"} (≤ ${s(goal)} s) |`;
  })
  .join("\n");
const loadText = `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the runs: a busy machine makes the simulated times longer`;
const sections = [];
if (rows.length)
  sections.push(`Mobile preset, measured ${date} with \`npm run bench -- lighthouse\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"} (${loadText}).

- Lighthouse ${version} performance audit, its default mobile preset (simulated slow 4G, 4× CPU slowdown), driving
  Debian's Chromium headless against the production build served by \`wrangler dev --local\`.
- The visitor is signed in, has finished onboarding and accepted cookies, so each path shows its own screen.
- ${RUNS} runs of each page; the row is the run with the median LCP (all runs' LCP in brackets).

| page | LCP (s), median (range) | FCP (s) | TBT (ms) | interactive (s) | transferred (KiB) | scripts asked before the first paint (files / KiB) | render-blocking savings (ms) | score | LCP ≤ 2.0 s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${mobileTable}`);
if (rows2g.length)
  sections.push(`2G, measured ${date} on the same machine (${loadText}).

- The same audit with Lighthouse's simulated throttling set to WebPageTest's 2G profile: ${TWO_G.throughputKbps} Kbps down,
  ${TWO_G.uploadThroughputKbps} Kbps up, ${TWO_G.rttMs} ms round trip, ${TWO_G.cpuSlowdownMultiplier}× CPU slowdown. First visit: Lighthouse clears the
  cache and the offline worker first. Repeat: the same page again at once in the same browser profile, keeping what
  the first visit left (HTTP cache, the offline worker if it installed). "Repeat, 2G applied": that repeat visit
  once more with the same link applied to the browser (devtools throttling: request latency ${TWO_G.requestLatencyMs} ms,
  ${TWO_G.downloadThroughputKbps} Kbps) and its times observed, because the simulation prices a document the offline
  worker answers from its cache as a network request.
- The first visit's floor in the simulation: before the document's first byte it spends ${(TWO_G.rttMs * 4) / 1000} s, four
  round trips of ${TWO_G.rttMs} ms (the name lookup two, the connection one, the request one; a TLS handshake would
  add a fifth), whatever the page (docs/decisions/083-the-first-paint-on-2g.md).
- HTML gzipped: the page's document compressed with gzip -9 (what \`bench/bundle\` reports); "document
  transferred" is what Lighthouse saw on the wire from \`wrangler dev\` (compressed, with headers).
- ${RUNS} runs of each; the row is the run with the median LCP.

| page | visit | LCP (s), median (range) | FCP (s) | HTML gzipped (KiB) | document transferred (KiB) | total transferred (KiB) | requests | requests before the first paint | LCP goal |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${twoGTable}`);
console.log(sections.join("\n\n"));
// Two sections, so a run of one profile leaves the other's last measurement in place.
if (rows.length) writeSection("lighthouse", sections[0]);
if (rows2g.length) writeSection("lighthouse-2g", sections.at(-1));
