// Every table that points at a user is handled by the account merge (docs/architecture.md §3): a table added
// with a foreign key to users and forgotten here would lose a person's data, or block the merge, when their
// anonymous identity is merged into their verified one.
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db";
import * as schema from "../../db/schema";
import { mergeUsers } from "./merge";

/** Columns that point at users.id, as "table.column". */
function userReferences(): string[] {
  const refs: string[] = [];
  for (const value of Object.values(schema)) {
    if (!value || typeof value !== "object" || !(Symbol.for("drizzle:IsDrizzleTable") in value)) continue;
    const config = getTableConfig(value as SQLiteTable);
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      if (getTableConfig(ref.foreignTable).name !== "users") continue;
      for (const column of ref.columns) refs.push(`${config.name}.${column.name}`);
    }
  }
  return refs.sort();
}

async function mergeSql(): Promise<string[]> {
  const statements: string[] = [];
  const client = { batch: async (s: { sql: string }[]) => void statements.push(...s.map((q) => q.sql)) };
  const user = (id: string) => ({ id, interests: [], subscriptionTier: "free", role: "user", latitude: null }) as unknown as schema.User;
  await mergeUsers({ $client: client } as unknown as Db, user("from"), user("into"));
  return statements;
}

describe("the account merge", () => {
  it("moves or deliberately drops every column that points at a user", async () => {
    const refs = userReferences();
    expect(refs.length).toBeGreaterThan(20);
    const statements = await mergeSql();
    const handled = (ref: string) => {
      const [table, column] = ref.split(".");
      return statements.some((s) => new RegExp(`\\b${table}\\b`).test(s) && new RegExp(`\\b${column}\\b`).test(s));
    };
    expect(refs.filter((r) => !handled(r))).toEqual([]);
  });
});
