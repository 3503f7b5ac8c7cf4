import { applyD1Migrations, type D1Migration, env } from "cloudflare:test";

// Every test file starts from the real migrations (schema and seed), like production, on every shard
// (`DB` and each `DB_SHARD_<n>` of wrangler.toml; docs/decisions/058-beyond-one-database.md).
const migrations = (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS;
const shards = Object.entries(env as unknown as Record<string, unknown>).filter(([name]) => name === "DB" || /^DB_SHARD_\d+$/.test(name));
for (const [, db] of shards) await applyD1Migrations(db as D1Database, migrations);
