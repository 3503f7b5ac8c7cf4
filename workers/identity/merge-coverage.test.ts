// Every reference to users.id in the schema is either moved by the account merge or listed in MERGE_LEAVES,
// so a table added later cannot silently lose a person's rows when two identities become one.
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteAsyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import type { User } from "../../db/schema";
import * as schema from "../../db/schema";
import { MERGE_LEAVES, mergeStatements } from "./merge";

/** "table.column" for every foreign key to users.id. */
function referencesToUsers(): string[] {
  const refs: string[] = [];
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue;
    const config = getTableConfig(value);
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      if (getTableConfig(ref.foreignTable).name !== "users") continue;
      for (const column of ref.columns) refs.push(`${config.name}.${column.name}`);
    }
  }
  return refs;
}

const someone = { id: "from", interests: [], subscriptionTier: "free", role: "user", latitude: null } as unknown as User;
const dialect = new SQLiteAsyncDialect();
const statements = mergeStatements(someone, { ...someone, id: "into" }).map((s) => dialect.sqlToQuery(s).sql.replace(/\s+/g, " "));

/** Whether a statement moves the column: an UPDATE or INSERT of that table naming the column. */
function moved(ref: string): boolean {
  const [table, column] = ref.split(".");
  const write = new RegExp(`^(UPDATE( OR IGNORE)?|INSERT INTO) ${table}\\b.*\\b${column}\\b`);
  return statements.some((s) => write.test(s));
}

describe("account merge", () => {
  const refs = referencesToUsers();

  it("finds the references to users in the schema", () => {
    expect(refs).toContain("sessions.user_id");
    expect(refs).toContain("room_members.user_id");
  });

  it("moves every reference to users, or leaves it on purpose", () => {
    const unhandled = refs.filter((ref) => !moved(ref) && !(ref in MERGE_LEAVES));
    expect(unhandled).toEqual([]);
  });

  it("lists as left only references that exist and that it does not move", () => {
    for (const ref of Object.keys(MERGE_LEAVES)) {
      expect(refs).toContain(ref);
      expect(moved(ref)).toBe(false);
    }
  });
});
