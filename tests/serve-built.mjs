// Builds the Worker into its own folder and serves it locally in workerd with a fresh migrated database.
// Used by the browser tests and the benchmarks: `const server = await serveBuilt(); … await server.stop()`.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { d1Bindings } from "../scripts/d1-bindings.mjs";
import { ensureDevVars } from "../scripts/setup.mjs";

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

/**
 * `fromBuild` serves a copy of an existing build instead of building again; `unsetVars` removes names from the
 * local variables the build carries (its `.dev.vars`, written from ours), e.g. ENVIRONMENT to serve it the way
 * production runs it. The browser tests' server keeps ENVIRONMENT=development: they read the dev outbox.
 * `frontConfig` is a wrangler config of another Worker served first, in the same workerd process (it reaches the
 * app through a service binding): bench/relay's minimal Durable Object.
 */
export async function serveBuilt({ name = "e2e", vars = {}, quiet = true, fromBuild, unsetVars = [], frontConfig, extraArgs = [] } = {}) {
  await ensureDevVars();
  const dir = join(".wrangler", name, String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const buildDir = join(dir, "build");
  const state = join(dir, "state");
  const env = { ...process.env, CI: "true", LINKUP_BUILD_DIR: buildDir, WRANGLER_SEND_METRICS: "false" };
  if (fromBuild) cpSync(fromBuild, buildDir, { recursive: true });
  else execFileSync("npx", ["react-router", "build"], { env, stdio: quiet ? "ignore" : "inherit" });
  const devVars = join(buildDir, "server", ".dev.vars");
  if (unsetVars.length && existsSync(devVars)) {
    const kept = readFileSync(devVars, "utf8")
      .split("\n")
      .filter((line) => !unsetVars.some((v) => line.startsWith(`${v}=`)));
    writeFileSync(devVars, kept.join("\n"));
  }
  for (const binding of d1Bindings())
    execFileSync("npx", ["wrangler", "d1", "migrations", "apply", binding, "--local", "-c", "wrangler.toml", "--persist-to", state], {
      env,
      stdio: quiet ? "ignore" : "inherit",
    });
  const sqlToken = randomUUID();
  // Browser tests and benchmarks start every session (and ask the assistant) from 127.0.0.1: the limits per
  // client address (workers/limits) are raised for them; the Worker tests check those limits.
  const localVars = {
    // The key to /api/dev/sql for this run only (docs/architecture.md §12).
    TEST_SQL_TOKEN: sqlToken,
    ANON_SESSIONS_PER_ADDRESS_PER_HOUR: "1000000",
    ANON_AI_PER_ADDRESS_PER_DAY: "1000000",
    VERIFICATION_CODES_PER_ADDRESS_PER_HOUR: "1000000",
    ANON_SOS_PER_ADDRESS_PER_HOUR: "1000000",
    ANON_REPORTS_PER_ADDRESS_PER_DAY: "1000000",
    ...vars,
  };

  /** Starts workerd on `state` with these variables on top of `localVars`, and waits for /api/health. */
  async function launch(moreVars = {}) {
    const port = await freePort();
    const allVars = { ...localVars, ...moreVars };
    const varArgs = Object.entries(allVars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
    if (frontConfig) {
      // Behind a front Worker, wrangler gives --var and --local to the front only: the app's variables go into its
      // own config, and its AI binding (remote only) is dropped (the benchmark never asks the assistant).
      const appConfig = join(buildDir, "server", "wrangler.json");
      const config = JSON.parse(readFileSync(appConfig, "utf8"));
      config.vars = { ...config.vars, ...allVars, APP_URL: `http://127.0.0.1:${port}` };
      delete config.ai;
      writeFileSync(appConfig, JSON.stringify(config));
    }
    const child = spawn(
      "npx",
      [
        "wrangler",
        "dev",
        ...(frontConfig ? ["-c", frontConfig] : []),
        "-c",
        join(buildDir, "server", "wrangler.json"),
        "--local",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--persist-to",
        state,
        "--show-interactive-dev-session=false",
        "--var",
        `APP_URL:http://127.0.0.1:${port}`,
        ...varArgs,
        ...extraArgs,
      ],
      { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    const run = { child, port, url: `http://127.0.0.1:${port}`, log: "" };
    child.stdout.on("data", (d) => (run.log += d));
    child.stderr.on("data", (d) => (run.log += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const res = await fetch(`${run.url}/api/health`);
        if (res.ok) break;
      } catch {}
      if (child.exitCode !== null || Date.now() > deadline) {
        try {
          process.kill(-child.pid);
        } catch {}
        throw new Error(`The built Worker did not start:\n${run.log.slice(-3000)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return run;
  }

  /** Kills wrangler and workerd (one process group) with SIGKILL: no clean-up, as when a machine dies. */
  async function killNow(child) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
  }

  let current = await launch();
  return {
    get url() {
      return current.url;
    },
    get port() {
      return current.port;
    },
    dir,
    buildDir,
    /** The --persist-to folder: local D1 and Durable Object storage. */
    state,
    /** The key to the served Worker's /api/dev/sql. */
    sqlToken,
    /** What the running workerd (since its last start) has written. */
    get log() {
      return current.log;
    },
    /** SIGKILLs workerd mid-way (the crash runs, bench/crash); `restart` serves the same state again. */
    async kill() {
      await killNow(current.child);
    },
    /**
     * Serves the same build on the same state again (after `kill`, or stopping the running one at once), with
     * `vars` on top of the first start's; on a new port, so `url` changes.
     */
    async restart({ vars: moreVars = {} } = {}) {
      await killNow(current.child);
      current = await launch(moreVars);
    },
    async stop() {
      try {
        process.kill(-current.child.pid, "SIGTERM");
      } catch {}
      await new Promise((r) => setTimeout(r, 300));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
