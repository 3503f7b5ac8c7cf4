import { applyD1Migrations, type D1Migration, env } from "cloudflare:test";

// Every test file starts from the real migrations (schema and seed), like production.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
