import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkConsolePlan, checkConsoleSql, MASKED_COLUMNS, maskPhones, SECRET_COLUMNS } from "./sql-guard";

const refused = (sql: string) => {
  const verdict = checkConsoleSql(sql);
  return verdict.ok ? "" : verdict.reason;
};

// The ways SQLite lets a name be written.
const quoted = (name: string) => fc.constantFrom(name, name.toUpperCase(), `"${name}"`, `[${name}]`, `\`${name}\``);

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

describe("console SQL guard: secrets and the phone mask", () => {
  it.each([
    ["select secret from two_factor", "two_factor.secret holds secrets"],
    ["select id, user_id from sessions", "sessions.id holds secrets"],
    ["select s.id from users u join sessions s on s.user_id = u.id", "sessions.id holds secrets"],
    ["select x.id from sessions as x", "sessions.id holds secrets"],
    ["select s.id from (sessions) as s", "sessions.id holds secrets"],
    ["select s.id from users u join (select user_id, id from sessions) s on s.user_id = u.id", "sessions.id holds secrets"],
    ["select u.id from users u join sessions u on 1", "sessions.id holds secrets"],
    ["select * from sessions", "name the columns"],
    ["select u.nickname from users u join sessions s on s.user_id = u.id where s.* is not null", "name the columns"],
    ["select code_hash from backup_codes", "backup_codes.code_hash"],
    ["select code_hash from verifications", "verifications.code_hash"],
    ["select key_hash from api_keys", "api_keys.key_hash"],
    ["select p256dh from push_subscriptions", "push_subscriptions.p256dh"],
    ["select endpoint from push_subscriptions", "push_subscriptions.endpoint"],
    ["select public_key from passkeys", "passkeys.public_key"],
    ["select challenge from webauthn_challenges", "webauthn_challenges.challenge"],
    ["select body from outbound_messages", "outbound_messages.body"],
    ["select length(secret) from two_factor", "two_factor.secret"],
    ["select count(*) from two_factor where secret like 'v1.%'", "two_factor.secret"],
    ["with t(a) as (select id from sessions) select a from t", "sessions.id"],
    ["select 'id' from sessions", "sessions.id"],
  ])("refuses the secret in %s", (sql, reason) => {
    expect(refused(sql)).toContain(reason);
  });

  it.each([
    "select phone+0 from users",
    "select phone + 0 from users",
    "select substr(phone,1) from users",
    "select phone || '' from users",
    "select lower(phone) from users",
    "select rtrim(phone, '4567') from users",
    "select -phone from users",
    "select (phone) from users",
    "select phone collate nocase from users",
    "select phone p from users",
    "select phone is null from users",
    "select nickname from users where phone like '+23480%'",
    "select nickname from users order by phone",
    "select nickname, phone from users order by 2",
    "select phone as p from users order by p",
    "select count(*) from users group by phone",
    "select phone from users union select '+2348030000000'",
    "select p from (select phone as p from users)",
    "with t as (select * from users) select nickname from t",
    "select x from (select * from users) as x",
    "select \"to\" || '' from outbound_messages",
    "select nickname from users join trial_claims using (phone)",
  ])("refuses an expression over a phone: %s", (sql) => {
    expect(refused(sql)).toMatch(/Phone numbers are shown masked|is not allowed in the console/);
  });

  it.each([
    "select nickname, phone from users where role = 'admin'",
    "select u.phone, u.nickname from users u order by u.created_at desc limit 5",
    "select phone as number from users",
    "select * from users where auth_mode = 'verified'",
    "select u.nickname, count(*) as sessions from users u join sessions s on s.user_id = u.id group by u.id",
    'select "to", channel, status from outbound_messages',
    "select count(*) from two_factor where enabled_at is not null",
  ])("lets %s through", (sql) => {
    expect(checkConsoleSql(sql)).toMatchObject({ ok: true });
  });

  it.each([
    ["select * from main.sqlite_schema", "Internal tables"],
    ['select * from "main"."sqlite_schema"', "Internal tables"],
    ["select * from main.users", "Schema names"],
    ['select nickname from "main"."users"', "Schema names"],
    ["select * from temp.sqlite_temp_master", "Internal tables"],
    ["select 1 from temp.t", "Schema names"],
    ["select name from x.sqlite_schema", "Internal tables"],
    ["select .5 as half", ""],
  ])("reads schema-qualified names as names: %s", (sql, reason) => {
    if (reason) expect(refused(sql)).toContain(reason);
    else expect(checkConsoleSql(sql).ok).toBe(true);
  });

  it.each([
    ["select count(*) from json_each('[1,2,3]') a, json_each('[1]') b, json_each('[1]') c, json_each('[1]') d", "json_each()"],
    ["select value from users, json_tree(users.interests)", "json_tree()"],
    ["select * from generate_series(1, 1000000000)", "generate_series()"],
    ["select * from pragma_table_info('users')", "pragma_table_info()"],
    ["select * from myfunc(1)", "as a table"],
    ["select count(*) from users a natural join users b", "NATURAL"],
    ["select count(*) from users a, users b, users c, users d, users e", "At most 4"],
    ["select count(*) from users a join users b on 1 join users c on 1 join users d on 1 join users e on 1", "At most 4"],
  ])("refuses the expensive %s", (sql, reason) => {
    expect(refused(sql)).toContain(reason);
  });

  it("refuses any expression around any phone column, however the name is written", () => {
    const column = fc.constantFrom(...Object.entries(MASKED_COLUMNS).flatMap(([table, cols]) => cols.map((c) => [table, c] as const)));
    const around = fc.constantFrom(
      (c: string) => `${c}+0`,
      (c: string) => `${c} * 1`,
      (c: string) => `abs(${c})`,
      (c: string) => `trim(${c})`,
      (c: string) => `${c} || 'x'`,
      (c: string) => `cast(${c} as integer)`,
      (c: string) => `${c} = '+2348030000000'`,
      (c: string) => `max(${c})`,
      (c: string) => `~${c}`,
    );
    fc.assert(
      fc.property(
        column.chain(([table, c]) => fc.tuple(fc.constant(table), quoted(c), fc.boolean())),
        around,
        ([table, c, qualify], wrap) => {
          const name = qualify ? `${table}.${c}` : c;
          expect(checkConsoleSql(`select ${wrap(name)} from ${table}`).ok).toBe(false);
          expect(checkConsoleSql(`select nickname from ${table} where ${wrap(name)}`).ok).toBe(false);
          expect(checkConsoleSql(`select ${name} from ${table}`).ok).toBe(true);
        },
      ),
    );
  });

  it("refuses every secret column, however written and through the table's alias", () => {
    const column = fc.constantFrom(...Object.entries(SECRET_COLUMNS).flatMap(([table, cols]) => cols.map((c) => [table, c] as const)));
    fc.assert(
      fc.property(
        column.chain(([table, c]) => fc.tuple(fc.constant(table), quoted(c), fc.constantFrom("", "t.", `${table}.`))),
        ([table, c, qualifier]) => {
          const alias = qualifier === "t." ? " t" : "";
          expect(checkConsoleSql(`select ${qualifier}${c} from ${table}${alias}`).ok).toBe(false);
          expect(checkConsoleSql(`select count(*) from ${table}${alias} where ${qualifier}${c} is not null`).ok).toBe(false);
        },
      ),
    );
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(typeof checkConsoleSql(text).ok).toBe("boolean");
      }),
    );
  });
});

describe("console plan check", () => {
  it("refuses two full scans in one loop nest and a scan in a correlated subquery; allows one scan with index searches", () => {
    expect(checkConsolePlan([{ id: 2, parent: 0, detail: "SCAN users" }])).toBeUndefined();
    expect(
      checkConsolePlan([
        { id: 2, parent: 0, detail: "SCAN u" },
        { id: 5, parent: 0, detail: "SEARCH s USING INDEX sessions_user_idx (user_id=?)" },
      ]),
    ).toBeUndefined();
    expect(
      checkConsolePlan([
        { id: 2, parent: 0, detail: "SCAN a" },
        { id: 4, parent: 0, detail: "SCAN b" },
      ]),
    ).toContain("once for each row");
    expect(
      checkConsolePlan([
        { id: 2, parent: 0, detail: "SCAN u" },
        { id: 4, parent: 0, detail: "CORRELATED SCALAR SUBQUERY 1" },
        { id: 7, parent: 4, detail: "SCAN m" },
      ]),
    ).toContain("once for each row");
    // Two subqueries run once each: two scans, one after the other.
    expect(
      checkConsolePlan([
        { id: 2, parent: 0, detail: "SCAN CONSTANT ROW" },
        { id: 3, parent: 0, detail: "SCALAR SUBQUERY 1" },
        { id: 6, parent: 3, detail: "SCAN users" },
        { id: 8, parent: 0, detail: "SCALAR SUBQUERY 2" },
        { id: 11, parent: 8, detail: "SCAN sessions" },
      ]),
    ).toBeUndefined();
  });
});
