// Fallback for bench/relay when the full build fails (pages are not the relay's concern): serves the same
// Worker server (workers/server.ts: /api and /ws/rooms with the MeshRoom Durable Object) without the React
// Router pages, from tests/workers/entry.ts, in workerd via `wrangler dev --local` on a random port.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ensureDevVars } from "../../scripts/setup.mjs";

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

export async function serveApi({ name = "bench-relay-api" } = {}) {
  await ensureDevVars();
  const dir = join(".wrangler", name, String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const state = join(dir, "state");
  const env = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" };
  execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml", "--persist-to", state], {
    env,
    stdio: "ignore",
  });
  const port = await freePort();
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "tests/workers/entry.ts",
      "-c",
      "wrangler.toml",
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
    ],
    { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {}
    if (child.exitCode !== null || Date.now() > deadline) {
      try {
        process.kill(-child.pid);
      } catch {}
      throw new Error(`The Worker did not start:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    get log() {
      return log;
    },
    async stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await new Promise((r) => setTimeout(r, 300));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
