import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { lazyLibsqlClient, lazyLibsqlDrizzle } from "./lazy-libsql";

describe("libSQL client loaded on first use", () => {
  it("loads nothing until the first statement, then answers queries, batches and transactions through drizzle", async () => {
    const url = `file:${join(mkdtempSync(join(tmpdir(), "linkup-lazy-libsql-")), "test.db")}`;
    let loads = 0;
    // createDb's construction, with Node's client (file: URLs) in place of the Worker's HTTP one.
    const db = lazyLibsqlDrizzle({ url }, {}, async () => {
      loads++;
      return createClient({ url });
    });
    expect(loads).toBe(0);
    await db.run(sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)`);
    await db.batch([db.run(sql`INSERT INTO t (name) VALUES ('a')`), db.run(sql`INSERT INTO t (name) VALUES ('b')`)]);
    await db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO t (name) VALUES ('c')`);
    });
    expect(await db.all(sql`SELECT name FROM t ORDER BY id`)).toEqual([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(loads).toBe(1);
  });

  it("tries the load again after it failed", async () => {
    let tries = 0;
    const client = lazyLibsqlClient({ url: "file::memory:" }, async () => {
      if (++tries === 1) throw new Error("offline");
      return createClient({ url: "file::memory:" });
    });
    await expect(client.execute("SELECT 1")).rejects.toThrow("offline");
    expect((await client.execute("SELECT 1 AS one")).rows[0].one).toBe(1);
    client.close();
  });
});
