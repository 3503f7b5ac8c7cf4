// Every table that points at a user is handled by the account merge (docs/architecture.md §3) and by the account
// deletion (docs/decisions/029-security-events-and-my-data.md): a table added with a foreign key to users and
// forgotten there would lose a person's data, or block the merge, when their anonymous identity is merged into
// their verified one, or keep their data after they deleted their account.
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db";
import * as schema from "../../db/schema";
import { accountDeletionSteps } from "../../db/queries/my-data";
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

/** The references no statement names both the table and the column of. */
function unhandled(refs: string[], statements: string[]): string[] {
  const handled = (ref: string) => {
    const [table, column] = ref.split(".");
    return statements.some((s) => new RegExp(`\\b${table}\\b`).test(s) && new RegExp(`\\b${column}\\b`).test(s));
  };
  return refs.filter((r) => !handled(r));
}

describe("the account merge", () => {
  it("moves or deliberately drops every column that points at a user", async () => {
    const refs = userReferences();
    expect(refs.length).toBeGreaterThan(20);
    expect(unhandled(refs, await mergeSql())).toEqual([]);
  });
});

describe("the account deletion", () => {
  it("deletes or clears every column that points at a user, without relying on cascades", () => {
    const db = drizzle(createClient({ url: ":memory:" }), { schema }) as unknown as Db;
    const statements = accountDeletionSteps(db, { id: "someone", phone: "+2348030000000" }, []).map((s) => s.toSQL().sql);
    const refs = userReferences();
    expect(refs.length).toBeGreaterThan(20);
    // The dependants reached only through another table (prekeys through device keys, key usage through keys,
    // WebAuthn challenges through sessions) are named too.
    expect(unhandled([...refs, "device_prekeys.user_id", "api_key_usage.key_id", "webauthn_challenges.session_id"], statements)).toEqual(
      [],
    );
  });
});
