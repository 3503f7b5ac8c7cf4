// The console's lists of secret and phone columns (core/sql-guard.ts) against the schema: a renamed column, or a
// new one that looks like a secret or a phone number, fails here until the lists say what the console does with it.
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { MASKED_COLUMNS, SECRET_COLUMNS } from "../../core/sql-guard";
import * as schema from "../../db/schema";

const tables = (Object.values(schema) as unknown[])
  .filter((v): v is SQLiteTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v)
  .map((t) => getTableConfig(t));
const columnsOf = new Map(tables.map((t) => [t.name, t.columns.map((c) => c.name)]));

const LOOKS_SECRET = /(^|_)(hash|secret|token|challenge|p256dh|endpoint|credential|private)(_|$)|^auth$/;
const LOOKS_PHONE = /phone|^to$/;

describe("the console's column lists", () => {
  it("name real tables and columns", () => {
    expect(tables.length).toBeGreaterThan(30);
    for (const list of [SECRET_COLUMNS, MASKED_COLUMNS]) {
      for (const [table, columns] of Object.entries(list)) {
        expect(columnsOf.get(table), table).toBeDefined();
        for (const c of columns) expect(columnsOf.get(table), `${table}.${c}`).toContain(c);
      }
    }
  });

  it("cover every column that looks like a secret or a phone number", () => {
    for (const { name, columns } of tables) {
      for (const { name: column } of columns) {
        if (LOOKS_SECRET.test(column)) expect(SECRET_COLUMNS[name] ?? [], `${name}.${column}`).toContain(column);
        // A phone-like column the console refuses outright (a hash of a phone) needs no mask.
        if (LOOKS_PHONE.test(column) && !(SECRET_COLUMNS[name] ?? []).includes(column))
          expect(MASKED_COLUMNS[name] ?? [], `${name}.${column}`).toContain(column);
      }
    }
  });
});
