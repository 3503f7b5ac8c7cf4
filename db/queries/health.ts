// The database probe behind /api/health and the staff system-health view.
import { sql } from "drizzle-orm";
import type { Db } from "../index";

/** Asks the database one trivial question; throws when it does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.run(sql`select 1`);
}

/**
 * Whether the database has a migration applied, by its tag (e.g. "0024_retention-indexes"). D1 records what
 * `wrangler d1 migrations apply` ran in d1_migrations by file name; on libSQL drizzle-kit records each migration
 * in __drizzle_migrations by its journal time (`when`). False when the table is missing: nothing was applied.
 */
export async function migrationApplied(db: Db, driver: "d1" | "libsql", migration: { tag: string; when: number }): Promise<boolean> {
  try {
    const rows =
      driver === "d1"
        ? await db.all(sql`select 1 from d1_migrations where name = ${`${migration.tag}.sql`} limit 1`)
        : await db.all(sql`select 1 from __drizzle_migrations where created_at = ${migration.when} limit 1`);
    return rows.length > 0;
  } catch (e) {
    if (/no such table/i.test(String((e as Error).message ?? e) + String((e as Error).cause ?? ""))) return false;
    throw e;
  }
}
