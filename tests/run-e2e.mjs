// Browser tests: Playwright driving Debian's Chromium against the built Worker served locally.
// Without a Chromium outside CI the tests are skipped with a loud line; under CI=true that is a failure.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
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
  const result = spawnSync("npx", ["playwright", "test", "-c", "tests/e2e/playwright.config.ts", ...process.argv.slice(2)], {
    stdio: "inherit",
    // E2E_BUILD_DIR lets a test serve the same build a second time with other variables (tests/e2e/production.spec.ts).
    env: { ...process.env, E2E_BASE_URL: server.url, E2E_STATE_DIR: server.state, E2E_BUILD_DIR: server.buildDir, CHROMIUM_PATH: chromium },
  });
  status = result.status ?? 1;
  if (status !== 0) console.error(`Worker log (last lines):\n${server.log.slice(-2000)}`);
} finally {
  await server.stop();
}
process.exit(status);
