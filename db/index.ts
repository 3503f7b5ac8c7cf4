import { drizzle as drizzleD1 } from "drizzle-orm/d1";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { lazyLibsqlDrizzle } from "./lazy-libsql";
import { countingD1 } from "./query-count";
import type { ReadSession } from "./read-replicas";
import * as schema from "./schema";

export { schema };

/** The one database type every query module takes: D1 in the Worker by default, libSQL when configured. */
export type Db = BaseSQLiteDatabase<"async", unknown, typeof schema>;

export interface DbEnv {
  DB: D1Database;
  /** "1" only on the capacity benchmark's local server: every D1 statement is counted (db/query-count.ts). */
  QUERY_COUNT?: string;
  DATABASE_URL?: string;
  DATABASE_AUTH_TOKEN?: string;
}

/**
 * D1 by default; `DATABASE_URL` (libsql://… or https://…) switches to libSQL/Turso over HTTP. `reads`: a D1
 * session (db/read-replicas.ts) the queries run in, so replicas may answer its reads; libSQL ignores it.
 */
export function createDb(env: DbEnv, reads?: ReadSession | null): Db {
  if (env.DATABASE_URL) {
    return lazyLibsqlDrizzle({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN || undefined }, { schema }) as unknown as Db;
  }
  const binding = reads?.binding ?? env.DB;
  const d1 = env.QUERY_COUNT === "1" ? countingD1(binding, reads?.replica ?? false) : binding;
  return drizzleD1(d1, { schema }) as unknown as Db;
}

export function dbDriver(env: DbEnv): "d1" | "libsql" {
  return env.DATABASE_URL ? "libsql" : "d1";
}
