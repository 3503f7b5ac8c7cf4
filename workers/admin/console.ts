// /database-admin's data: stats, system health from real checks, and the safe SQL console
// (docs/decisions/019-staff-and-admins.md).
import { EDGE_CACHE_KEYS } from "./edge-cache";
import { sql } from "drizzle-orm";
import { checkConsolePlan, checkConsoleSql, maskPhones, type PlanRow } from "../../core/sql-guard";
import type { Db } from "../../db";
import { pingDatabase } from "../../db/queries/health";
import { adminCounts } from "../../db/queries/stats";
import type { User } from "../../db/schema";
import { billingHealth } from "../billing/config";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { auditAction } from ".";
import { roomStub } from "../rooms/stub";

export const CONSOLE_ROW_CAP = 100;
export const CONSOLE_TIME_LIMIT_MS = 5000;
const SLOW_MS = 1000;

// Set on the first health check: Workers freeze the clock while the module loads.
let isolateStartedAt: number | undefined;

type Health = "healthy" | "warning" | "error";

/** The admin stats (docs/product/admin-and-analytics.md), counted from the tables. */
export function adminStats(db: Db, now = Date.now()) {
  return adminCounts(db, now);
}

async function timed(check: () => Promise<boolean>): Promise<Health> {
  const start = Date.now();
  try {
    if (!(await check())) return "error";
    return Date.now() - start > SLOW_MS ? "warning" : "healthy";
  } catch (e) {
    console.error("admin health", e);
    return "error";
  }
}

/**
 * System health (docs/product/admin-and-analytics.md), each from a real check: the database answers, the edge cache takes and returns a
 * probe, a room Durable Object answers, payments are configured (warning when only the local stand-in runs).
 */
export async function systemHealth(env: AppEnv, db: Db) {
  isolateStartedAt ??= Date.now();
  const [database, cache, websocket] = await Promise.all([
    timed(async () => {
      await pingDatabase(db);
      return true;
    }),
    timed(async () => {
      if (typeof caches === "undefined") return false;
      // workerd's edge cache; the DOM lib's CacheStorage type does not name it.
      const edge = (caches as unknown as { default: Cache }).default;
      const probe = new Request(EDGE_CACHE_KEYS[0]);
      await edge.put(probe, new Response("ok", { headers: { "cache-control": "max-age=60" } }));
      await edge.match(probe);
      return true;
    }),
    timed(async () => {
      if (!env.ROOMS) return false;
      return (await roomStub(env, "health").fetch("https://room/health")).ok;
    }),
  ]);
  const billing = billingHealth(env);
  const stripe: Health = !billing.ready ? "error" : billing.mode === "local" ? "warning" : "healthy";
  // A Worker isolate has no disk and no process memory figure to report: uptime is this isolate's, and the
  // other two are named as not applicable rather than invented.
  return {
    database,
    cache,
    websocket,
    stripe,
    payments: billing,
    uptime: Math.round((Date.now() - isolateStartedAt) / 1000),
    memoryUsage: null,
    diskUsage: null,
  };
}

/**
 * Runs one checked read-only statement with a row cap and a time limit; phone numbers masked; always audited.
 * The admin's own statement runs here, not in db/queries: it is the console's purpose, and checkConsoleSql guards it.
 *
 * The 5-second limit only stops the wait: neither D1 nor libSQL over HTTP offers a Worker a way to interrupt a
 * running statement (no progress handler, no statement timeout), and D1 runs one statement at a time, so a long
 * query would hold /api/health and everyone else. What bounds the work is decided before it runs: the guard's
 * static refusals, then SQLite's own plan, which must not nest a full scan inside another loop
 * (docs/decisions/048-secrets-at-rest-and-the-console.md). Past that, D1 itself ends a statement at 30 seconds.
 */
export async function runConsoleQuery(db: Db, admin: User, query: string) {
  const verdict = checkConsoleSql(query);
  if (!verdict.ok) {
    await auditAction(db, admin, "admin.sql_refused", "sql", null, null, { query, reason: verdict.reason });
    throw new DomainError("query_refused", verdict.reason, { values: { detail: verdict.reason } });
  }
  const capped = `SELECT * FROM (${verdict.sql}) LIMIT ${CONSOLE_ROW_CAP + 1}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = Date.now();
  let plan: PlanRow[];
  try {
    // Planning runs nothing; a statement SQLite cannot plan is answered with its reason below, never run unchecked.
    plan = await db.all<PlanRow>(sql.raw(`EXPLAIN QUERY PLAN ${capped}`));
  } catch (e) {
    throw await failed(db, admin, query, e);
  }
  const heavy = checkConsolePlan(plan);
  if (heavy) {
    await auditAction(db, admin, "admin.sql_refused", "sql", null, null, { query, reason: heavy });
    throw new DomainError("query_refused", heavy, { values: { detail: heavy } });
  }
  try {
    const rows = await Promise.race([
      db.all<Record<string, unknown>>(sql.raw(capped)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new DomainError("query_timeout", `The query took longer than ${CONSOLE_TIME_LIMIT_MS / 1000} seconds`, {
                values: { seconds: CONSOLE_TIME_LIMIT_MS / 1000 },
              }),
            ),
          CONSOLE_TIME_LIMIT_MS,
        );
      }),
    ]);
    const truncated = rows.length > CONSOLE_ROW_CAP;
    const shown = rows.slice(0, CONSOLE_ROW_CAP).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, maskPhones(v)])));
    await auditAction(db, admin, "admin.sql_run", "sql", null, { rows: shown.length, truncated }, { query });
    return { rows: shown, rowCount: shown.length, truncated, rowCap: CONSOLE_ROW_CAP, ms: Date.now() - started };
  } catch (e) {
    throw await failed(db, admin, query, e);
  } finally {
    clearTimeout(timer);
  }
}

/** A statement the database refused (or that ran too long): audited, with SQLite's own reason for the admin. */
async function failed(db: Db, admin: User, query: string, e: unknown): Promise<DomainError> {
  // SQLite's own reason (no such column, syntax) helps the admin; never a stack trace.
  const reason =
    e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message).replace(/^D1_ERROR:\s*/, "").slice(0, 200) : "";
  const message = e instanceof DomainError ? e.message : `The database refused the query${reason ? `: ${reason}` : ""}`;
  await auditAction(db, admin, "admin.sql_failed", "sql", null, null, {
    query,
    error: e instanceof Error ? e.message.slice(0, 300) : "unknown",
  });
  return e instanceof DomainError ? e : new DomainError("query_refused", message, { values: { detail: message } });
}
