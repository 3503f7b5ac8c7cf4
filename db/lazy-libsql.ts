// libSQL's HTTP client, loaded on the first statement: with D1 as the default (docs/architecture.md §3), an isolate
// that never sees `DATABASE_URL` never evaluates it (docs/decisions/070-light-enough-for-2g.md).
import type { Client, Config, TransactionMode } from "@libsql/client/web";
import type { DrizzleConfig } from "drizzle-orm";
import { construct } from "drizzle-orm/libsql/driver-core";
import type { LibSQLDatabase } from "drizzle-orm/libsql/driver-core";

// `drizzle-orm/libsql/web` imports the client for its URL overload; `construct` (what it calls with a client) is
// exported by the module but not declared in its types.
declare module "drizzle-orm/libsql/driver-core" {
  export function construct<TSchema extends Record<string, unknown>>(
    client: Client,
    config?: DrizzleConfig<TSchema>,
  ): LibSQLDatabase<TSchema>;
}

/** drizzle over a lazily loaded libSQL client: nothing of `@libsql/client` is evaluated before the first query. */
export function lazyLibsqlDrizzle<TSchema extends Record<string, unknown>>(config: Config, options: DrizzleConfig<TSchema>, load?: Load) {
  return construct(lazyLibsqlClient(config, load), options);
}

type Load = () => Promise<Client>;

/** A `Client` whose calls wait for the real one; `load` runs once, on the first call (again if it failed). */
export function lazyLibsqlClient(config: Config, load: Load = defaultLoad(config)): Client {
  let client: Promise<Client> | undefined;
  const real = () => {
    client ??= load().catch((e: unknown) => {
      client = undefined;
      throw e;
    });
    return client;
  };
  let closed = false;
  return {
    execute: (stmt: Parameters<Client["execute"]>[0], args?: Parameters<Client["execute"]>[1]) =>
      real().then((c) => (typeof stmt === "string" ? c.execute(stmt, args) : c.execute(stmt))),
    batch: (stmts, mode) => real().then((c) => c.batch(stmts, mode)),
    migrate: (stmts) => real().then((c) => c.migrate(stmts)),
    transaction: (mode?: TransactionMode) => real().then((c) => c.transaction(mode)),
    executeMultiple: (sql) => real().then((c) => c.executeMultiple(sql)),
    sync: () => real().then((c) => c.sync()),
    close: () => {
      closed = true;
      void client?.then((c) => c.close());
    },
    reconnect: () => void client?.then((c) => c.reconnect()),
    get closed() {
      return closed;
    },
    protocol: config.url.startsWith("ws") ? "ws" : "http",
  } as Client;
}

function defaultLoad(config: Config): Load {
  return () => import("@libsql/client/web").then(({ createClient }) => createClient(config));
}
