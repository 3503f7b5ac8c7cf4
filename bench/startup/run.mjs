// bench/startup: what an isolate of the Worker loads before it answers its first request. Builds the production
// Worker, asks wrangler what a deploy would upload (`wrangler deploy --dry-run`), follows the static imports of the
// entry (the startup chunk and every chunk it imports: evaluated when the isolate starts, whatever is asked), and
// times evaluating it in fresh Node processes. Writes the "startup" section of bench/README.md.
// Goals (issue 35): startup ≤ 600 KiB raw, total upload ≤ 600 KiB gzipped (docs/decisions/070-light-enough-for-2g.md).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
// The module lexer Vite and Vitest use (a dependency of both): the chunks are minified, so no regular expression.
import { init, parse } from "es-module-lexer";
import { writeSection } from "../readme.mjs";

const GOAL_STARTUP_KIB = 600;
const GOAL_UPLOAD_GZ_KIB = 600;
const RUNS = Number(process.env.STARTUP_RUNS ?? 15);

const dir = resolve(".wrangler", "bench-startup", String(process.pid));
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const buildDir = join(dir, "build");
const env = { ...process.env, CI: "true", LINKUP_BUILD_DIR: buildDir, WRANGLER_SEND_METRICS: "false" };
const load = [loadavg()[0]];
try {
  execFileSync("npx", ["react-router", "build"], { env, stdio: "ignore" });

  // What a deploy uploads: wrangler's own count (each module gzipped on its own, as Cloudflare limits it).
  const dry = execFileSync(
    "npx",
    ["wrangler", "deploy", "--dry-run", "--outdir", join(dir, "dry-run"), "-c", join(buildDir, "server", "wrangler.json")],
    {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const upload = dry.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
  if (!upload) throw new Error(`wrangler gave no upload size:\n${dry}`);
  const modules = Number(dry.match(/Total \((\d+) modules\)/)?.[1] ?? Number.NaN);

  // The startup chunk and its static imports, from the entry wrangler deploys.
  await init;
  const entry = join(buildDir, "server", "index.js");
  const seen = new Set();
  const lazy = new Set();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const [imports] = parse(readFileSync(file, "utf8"));
    for (const i of imports) {
      if (!i.n?.startsWith(".")) continue; // node: and cloudflare: modules are the runtime's
      const target = resolve(dirname(file), i.n);
      if (i.d === -1) stack.push(target);
      else lazy.add(target);
    }
  }
  let raw = 0;
  let gz = 0;
  const files = [...seen].map((f) => {
    const bytes = readFileSync(f);
    const size = { file: relative(join(buildDir, "server"), f), raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length };
    raw += size.raw;
    gz += size.gz;
    return size;
  });
  // What the first page request loads beyond the startup chunk: the pages' handler with React Router
  // (workers/pages.ts, docs/decisions/082-a-worker-that-starts-small.md) and the pages' server build it imports.
  const reach = (from) => {
    const out = new Set();
    const todo = [from];
    while (todo.length) {
      const file = todo.pop();
      if (out.has(file) || seen.has(file)) continue;
      out.add(file);
      for (const i of parse(readFileSync(file, "utf8"))[0]) if (i.n?.startsWith(".")) todo.push(resolve(dirname(file), i.n));
    }
    return out;
  };
  const handler = [...lazy].find((f) => /\/pages-[^/]+\.js$/.test(f));
  const pages = handler
    ? [...reach(handler)].find((f) => /server-build-[^/]+\.js$/.test(f))
    : [...lazy].find((f) => /server-build-[^/]+\.js$/.test(f));

  // Evaluation time: each run a fresh Node process imports the entry (with `cloudflare:workers` stubbed), then the
  // pages' server build the first page request loads. V8 in both Node and workerd; read it as relative, not as
  // workerd's own figure.
  // `cloudflare:workers` is workerd's: the measured copy imports a stub file instead. Written into the build's files
  // (after the sizes above were taken) rather than through a Node module hook, which would add a round trip to the
  // hook's thread for every file imported and so charge a build of many small chunks for Node's loader.
  const stub = join(buildDir, "server", "cloudflare-workers-stub.js");
  writeFileSync(stub, "export class DurableObject {}; export class WorkerEntrypoint {}; export const env = {};\n");
  const stubUrl = JSON.stringify(pathToFileURL(stub).href);
  for (const f of [entry, ...readdirSync(join(buildDir, "server", "assets")).map((n) => join(buildDir, "server", "assets", n))]) {
    if (!f.endsWith(".js")) continue;
    const code = readFileSync(f, "utf8");
    if (code.includes("cloudflare:workers")) writeFileSync(f, code.replace(/(["'])cloudflare:workers\1/g, stubUrl));
  }
  const probe = `
    const t0 = performance.now();
    await import(${JSON.stringify(entry)});
    const t1 = performance.now();
    ${handler ? `await import(${JSON.stringify(handler)});` : ""}
    ${pages ? `await import(${JSON.stringify(pages)});` : ""}
    const t2 = performance.now();
    // The Worker wraps console.log in its JSON logger (workers/logs.ts): write past it.
    process.stdout.write("\\n" + JSON.stringify({ entry: t1 - t0, pages: t2 - t1 }) + "\\n");
  `;
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`evaluating the build failed:\n${r.stderr}`);
    times.push(JSON.parse(r.stdout.trim().split("\n").at(-1)));
    load.push(loadavg()[0]);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const entryMs = median(times.map((t) => t.entry));
  const pagesMs = median(times.map((t) => t.pages));
  const pagesBytes = pages ? Buffer.concat([...(handler ? [readFileSync(handler)] : []), readFileSync(pages)]) : null;

  const kib = (n) => (n / 1024).toFixed(1);
  const yes = (ok) => (ok ? "yes" : "**no**");
  const uploadRaw = Number(upload[1]);
  const uploadGz = Number(upload[2]);
  const table = [
    "| measure | raw (KiB) | gzipped (KiB) | files | evaluate, median (ms) | goal | within |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    `| startup: the entry and its static imports | ${kib(raw)} | ${kib(gz)} | ${seen.size} | ${entryMs.toFixed(1)} | ≤ ${GOAL_STARTUP_KIB} KiB raw | ${yes(raw / 1024 <= GOAL_STARTUP_KIB)} |`,
    pagesBytes
      ? `| first page request: the pages' handler and server build | ${kib(pagesBytes.length)} | ${kib(gzipSync(pagesBytes, { level: 9 }).length)} | ${handler ? 2 : 1} | ${pagesMs.toFixed(1)} |  |  |`
      : "| pages' server build | – | – | – | – |  |  |",
    `| total upload (\`wrangler deploy --dry-run\`) | ${uploadRaw.toFixed(1)} | ${uploadGz.toFixed(1)} | ${modules} |  | ≤ ${GOAL_UPLOAD_GZ_KIB} KiB gzipped | ${yes(uploadGz <= GOAL_UPLOAD_GZ_KIB)} |`,
  ];
  const biggest = files
    .sort((a, b) => b.raw - a.raw)
    .slice(0, 8)
    .map((f) => `\`${f.file.replace(/-[\w-]{8}\.js$/, ".js")}\` ${kib(f.raw)}`)
    .join(", ");
  const body = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- startup\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"} (load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}).`,
    "",
    "- The production build (`react-router build`). Upload: wrangler's own total for `wrangler deploy --dry-run`",
    "  (every module, gzipped one by one). Startup: the entry `build/server/index.js` and every chunk it imports",
    "  statically, which an isolate evaluates before its first request; what is imported with `import()` is not in it.",
    `- Evaluate: ${RUNS} fresh Node ${process.version} processes each import the entry (\`cloudflare:workers\` replaced by a stub file),`,
    "  then what a first page request loads (the pages' handler, `workers/pages.ts`, and the pages' server build); the",
    "  median. Node's V8, not workerd: compare rows, not absolute times.",
    "",
    ...table,
    "",
    `Largest startup files (KiB raw): ${biggest}.`,
  ].join("\n");
  console.log(body);
  writeSection("startup", body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
