// Browser tests: Playwright driving Debian's Chromium against the built Worker served locally.
// Without a Chromium outside CI the tests are skipped with a loud line; under CI=true that is a failure.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveBuilt } from "./serve-built.mjs";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
const chromium = candidates.find((p) => existsSync(p));
if (!chromium) {
  const line =
    "!!! BROWSER TESTS SKIPPED: no Chromium found. Install it with `sudo apt-get install -y chromium` (or set CHROMIUM_PATH). !!!";
  if (process.env.CI === "true") {
    console.error(`${line}\nCI=true: a missing browser fails the run.`);
    process.exit(1);
  }
  console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`);
  process.exit(0);
}

// One phone the browser tests verify as an admin (tests/e2e/admin.spec.ts), the way ADMIN_PHONES makes admins.
const E2E_ADMIN_PHONE = "+2348099990001";
const server = await serveBuilt({ name: "e2e", vars: { ADMIN_PHONES: E2E_ADMIN_PHONE } });
let status = 1;
try {
  // Not spawnSync: this process must keep reading the served Worker's output while the tests run, or the pipe
  // fills and wrangler stalls on its next log line.
  const playwright = spawn("npx", ["playwright", "test", "-c", "tests/e2e/playwright.config.ts", ...process.argv.slice(2)], {
    stdio: "inherit",
    // E2E_BUILD_DIR lets a test serve the same build a second time with other variables (tests/e2e/production.spec.ts).
    env: {
      ...process.env,
      E2E_BASE_URL: server.url,
      E2E_SQL_TOKEN: server.sqlToken,
      E2E_BUILD_DIR: server.buildDir,
      CHROMIUM_PATH: chromium,
    },
  });
  status = await new Promise((resolve) => playwright.on("exit", (code) => resolve(code ?? 1)));
  // The whole log stays on disk; after a failure the lines that tell of a fault (a 5xx answer, an exception) are printed.
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/worker.log", server.log);
  if (status !== 0) {
    // A 5xx answer, or what the Worker logged as unhandled; not a client that hung up (kj "disconnected").
    const faults = server.log
      .split("\n")
      .filter((line) => /\] [A-Z]+ \S+ 5\d\d |unhandled|uncaught|exception/i.test(line) && !/disconnected: write/.test(line));
    console.error(`Worker log: test-results/worker.log. Lines that tell of a fault (${faults.length}):\n${faults.slice(-80).join("\n")}`);
    console.error(`Worker log (last lines):\n${server.log.slice(-2000)}`);
    // What each failed test's page showed (an alert, a wrong screen), so a CI log alone explains a failure.
    for (const dir of existsSync("test-results") ? readdirSync("test-results") : []) {
      const context = join("test-results", dir, "error-context.md");
      if (!existsSync(context)) continue;
      const snapshot = readFileSync(context, "utf8").split("# Page snapshot")[1] ?? "";
      console.error(`\nPage at the failure of ${dir}:${snapshot.slice(0, 4000)}`);
    }
  }
} finally {
  await server.stop();
}
process.exit(status);
