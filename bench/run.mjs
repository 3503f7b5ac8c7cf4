// `npm run bench [-- name…]`: runs every benchmark in bench/ (each folder with a run.mjs), or the named ones.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const wanted = process.argv.slice(2);
const all = readdirSync(new URL(".", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(new URL(`./${d.name}/run.mjs`, import.meta.url)))
  .map((d) => d.name);
let failed = 0;
for (const name of wanted.length ? wanted : all) {
  console.log(`\n== bench/${name} ==`);
  const r = spawnSync(process.execPath, [`bench/${name}/run.mjs`], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
