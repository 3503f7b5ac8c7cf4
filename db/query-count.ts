// A query counter for the capacity benchmark (bench/capacity): wraps the D1 binding so every statement that
// reaches the database is counted, reads and writes apart. On only where a run sets QUERY_COUNT=1 (the benchmark's
// local server, and tests); nothing else ever wraps the binding. Each statement is counted in this isolate and
// logged as one short line (QUERY_LOG_LINE): the Durable Objects run in isolates of their own, and the benchmark
// adds up the lines of every isolate from the server's output.

export interface QueryCounts {
  reads: number;
  writes: number;
  /** Of the reads, those a read replica may answer. */
  replicaReads: number;
}

const counts: QueryCounts = { reads: 0, writes: 0, replicaReads: 0 };

/** The line each counted statement logs, followed by "r" or "w". */
export const QUERY_LOG_LINE = "linkup-d1-statement";

/** What the isolate has counted since it started (or since the last reset). */
export function queryCounts(): QueryCounts {
  return { ...counts };
}

/** Whether a statement writes (D1 sends every write to the primary, whatever session it runs in). */
export function isWriteSql(sql: string): boolean {
  const s = sql
    .replace(/'[^']*'/g, "''")
    .trim()
    .toLowerCase();
  return /^(insert|update|delete|replace|create|drop|alter)\b/.test(s) || (s.startsWith("with") && /\b(insert|update|delete)\b/.test(s));
}

/**
 * The line a read logs says "replica" when it ran in a D1 session a replica may answer (db/read-replicas.ts):
 * the benchmark counts those apart from the primary's load. The local D1 has no replicas; this is where they
 * would serve it.
 */
function count(sql: string, replica: boolean): void {
  const write = isWriteSql(sql);
  if (write) counts.writes++;
  else counts.reads++;
  if (!write && replica) counts.replicaReads++;
  console.log(`${QUERY_LOG_LINE} ${write ? "w" : replica ? "r replica" : "r"}`);
}

type Statement = D1PreparedStatement & { __sql?: string };

function wrapStatement(statement: D1PreparedStatement, sql: string, replica: boolean): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, prop, receiver) {
      if (prop === "__sql") return sql;
      if (prop === "__target") return target;
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args), sql, replica);
      if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
        return (...args: unknown[]) => {
          count(sql, replica);
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/**
 * The binding, counting every statement it runs (a batch counts each of its statements). `replica`: the binding
 * is a D1 session whose reads a replica may answer.
 */
export function countingD1(db: D1Database, replica = false): D1Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql, replica);
      if (prop === "batch")
        return (statements: Statement[]) => {
          for (const s of statements) count(s.__sql ?? "", replica);
          // The proxies stand for D1's own statements, which batch() needs: unwrap through the target's prepare.
          return target.batch(statements.map((s) => (s as unknown as { __target?: D1PreparedStatement }).__target ?? s));
        };
      if (prop === "exec")
        return (sql: string) => {
          count(sql, replica);
          return target.exec(sql);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
