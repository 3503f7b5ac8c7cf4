// SQL on the local D1 a served Worker persists to (tests/serve-built.mjs's `state`), through wrangler, for browser
// tests and benchmarks that read or prepare what no API shows. workerd holds the same SQLite file, so a statement
// that meets one of its own writes can be refused as busy: tried again a few times, with wrangler's words kept
// when it still fails.
import { execFileSync } from "node:child_process";

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs one `command` (or a `file` of statements) on the D1 persisted under `state`; with `rows`, answers the
 * first statement's rows.
 */
export function localD1(state, { command, file, rows = false, tries = 5 }) {
  const what = command !== undefined ? ["--command", command] : ["--file", file];
  const args = [
    "wrangler",
    "d1",
    "execute",
    "DB",
    "--local",
    "-c",
    "wrangler.toml",
    "--persist-to",
    state,
    "--yes",
    ...(rows ? ["--json"] : []),
    ...what,
  ];
  let lastError = "";
  for (let attempt = 0; attempt < tries; attempt++) {
    try {
      const out = execFileSync("npx", args, { encoding: "utf8", stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
      return rows ? (JSON.parse(out)[0]?.results ?? []) : undefined;
    } catch (error) {
      lastError = `${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`;
      pause(500 * (attempt + 1));
    }
  }
  throw new Error(`wrangler d1 execute failed ${tries} times: ${lastError}`);
}
