// A query counter for the capacity benchmark (bench/capacity): wraps the D1 binding so every statement that
// reaches the database is counted, reads and writes apart. On only where a run sets QUERY_COUNT=1 (the benchmark's
// local server, and tests); nothing else ever wraps the binding. Each statement is counted in this isolate and
// logged as one short line (QUERY_LOG_LINE): the Durable Objects run in isolates of their own, and the benchmark
// adds up the lines of every isolate from the server's output.

export interface QueryCounts {
  reads: number;
  writes: number;
}

const counts: QueryCounts = { reads: 0, writes: 0 };

/** The line each counted statement logs, followed by "r" or "w". */
export const QUERY_LOG_LINE = "linkup-d1-statement";

/** What the isolate has counted since it started (or since the last reset). */
export function queryCounts(): QueryCounts {
  return { ...counts };
}

export function resetQueryCounts(): void {
  counts.reads = 0;
  counts.writes = 0;
}

function count(sql: string): void {
  const s = sql
    .replace(/'[^']*'/g, "''")
    .trim()
    .toLowerCase();
  const write =
    /^(insert|update|delete|replace|create|drop|alter)\b/.test(s) || (s.startsWith("with") && /\b(insert|update|delete)\b/.test(s));
  if (write) counts.writes++;
  else counts.reads++;
  console.log(`${QUERY_LOG_LINE} ${write ? "w" : "r"}`);
}

type Statement = D1PreparedStatement & { __sql?: string };

function wrapStatement(statement: D1PreparedStatement, sql: string): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, prop, receiver) {
      if (prop === "__sql") return sql;
      if (prop === "__target") return target;
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args), sql);
      if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
        return (...args: unknown[]) => {
          count(sql);
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/** The binding, counting every statement it runs (a batch counts each of its statements). */
export function countingD1(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: Statement[]) => {
          for (const s of statements) count(s.__sql ?? "");
          // The proxies stand for D1's own statements, which batch() needs: unwrap through the target's prepare.
          return target.batch(statements.map((s) => (s as unknown as { __target?: D1PreparedStatement }).__target ?? s));
        };
      if (prop === "exec")
        return (sql: string) => {
          count(sql);
          return target.exec(sql);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
