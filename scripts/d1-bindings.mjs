// The D1 bindings of wrangler.toml (`DB` and the shards `DB_SHARD_<n>`, docs/decisions/058-beyond-one-database.md):
// every one takes every migration, locally as in production.
import { readFileSync } from "node:fs";

export function d1Bindings(config = "wrangler.toml") {
  const text = readFileSync(config, "utf8");
  return [...text.matchAll(/\[\[d1_databases\]\]\s*\nbinding\s*=\s*"([^"]+)"/g)].map((m) => m[1]);
}
