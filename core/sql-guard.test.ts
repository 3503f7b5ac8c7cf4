import { describe, expect, it } from "vitest";
import { checkConsoleSql, maskPhones } from "./sql-guard";

describe("console SQL guard", () => {
  it("lets one SELECT or WITH through, a trailing semicolon dropped", () => {
    expect(checkConsoleSql("SELECT count(*) FROM users;")).toEqual({ ok: true, sql: "SELECT count(*) FROM users" });
    expect(checkConsoleSql("with t as (select 1 as n) select n from t").ok).toBe(true);
    expect(checkConsoleSql("select ';' as semi, 'drop table users' as text").ok).toBe(true);
    // A doubled quote stays inside the string: this is one harmless SELECT of an odd id.
    expect(checkConsoleSql("select * from users where id = 'a'';delete from users;--'").ok).toBe(true);
  });

  it.each([
    ["DELETE FROM users", "read-only"],
    ["PRAGMA table_info(users)", "read-only"],
    ["ATTACH DATABASE 'x' AS y", "read-only"],
    ["select 1; delete from users", "one statement"],
    ["select 1 -- ; drop table users", "Comments"],
    ["select 1 /* */ ; drop table users", "Comments"],
    ["with x as (select 1) delete from users", "DELETE"],
    ["with x as (select 1) insert into users select * from x", "INSERT"],
    ['select "a"";drop table users" from users; select 2', "one statement"],
    ["select load_extension('x')", "load_extension"],
    ["select hex(phone) from users", "hex"],
    ["select substr (phone, 2) from users", "substr"],
    ["select randomblob(1000000000)", "randomblob"],
    ["with recursive c(x) as (select 1 union all select x+1 from c) select x from c", "RECURSIVE"],
    ["select * from sqlite_master", "Internal tables"],
    ['select * from "_cf_KV"', "Internal tables"],
    ["select ?", "Parameters"],
    ["select 'open", "Unterminated"],
    ["   ", "one SELECT"],
    ["values (1)", "read-only"],
    ["explain select 1", "read-only"],
  ])("refuses %s", (sql, reason) => {
    const verdict = checkConsoleSql(sql);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? "" : verdict.reason).toContain(reason);
  });

  it("masks phone numbers in any written form, keeping the last three digits", () => {
    expect(maskPhones("+2348031112222")).toBe("+••••••••••222");
    expect(maskPhones("call 0803 111 2222 now")).toBe("call ••••••••222 now");
    expect(maskPhones(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(maskPhones("room 42")).toBe("room 42");
  });
});
