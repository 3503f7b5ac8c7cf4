// The admin SQL console's guard (docs/decisions/019-staff-and-admins.md): one read-only SELECT/WITH statement,
// decided by tokenising the text the way SQLite does, so strings, quoted names and comments cannot hide a second
// statement or a write. Anything this tokenizer is unsure of is refused. It also refuses what would read a secret
// or see through the phone mask, and what would hold the database for long (table-valued functions, recursion,
// many joins); the plan check below refuses nested full scans (docs/decisions/048-secrets-at-rest-and-the-console.md).

export type SqlVerdict = { ok: true; sql: string } | { ok: false; reason: string };

type Token = { kind: "word" | "string" | "name" | "symbol" | "number" | "param"; text: string };

// Statements and clauses that change data or the connection, and schema/extension tricks.
const FORBIDDEN = new Set([
  "insert",
  "update",
  "delete",
  "replace",
  "upsert",
  "create",
  "drop",
  "alter",
  "attach",
  "detach",
  "pragma",
  "vacuum",
  "reindex",
  "analyze",
  "begin",
  "commit",
  "rollback",
  "end",
  "savepoint",
  "release",
  "returning",
  "conflict",
  "into",
  "trigger",
  "transaction",
  // An unbounded recursive CTE would hold the database past any time limit.
  "recursive",
]);

// Functions that load code, make huge values, or re-encode a phone number past the result mask.
const FORBIDDEN_FUNCTIONS = new Set([
  "load_extension",
  "randomblob",
  "zeroblob",
  "hex",
  "unhex",
  "quote",
  "cast",
  "substr",
  "substring",
  "replace",
  "instr",
  "unicode",
  "char",
  "printf",
  "format",
  "reverse",
  "group_concat",
  "string_agg",
  "json_group_array",
  "json_group_object",
]);

export const SQL_MAX_LENGTH = 2000;

/**
 * Columns that hold secrets, by table (db/schema.ts): session and WebAuthn-challenge ids are session hashes,
 * hashes of codes and keys, the authenticator secret, push endpoints and their keys, passkey credentials, and
 * the bodies of sent messages. A query that names one of these tables may not name these columns, nor `*`.
 * workers/admin/console-columns.test.ts fails when a new column looks secret and is not listed.
 */
export const SECRET_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  sessions: ["id"],
  two_factor: ["secret"],
  backup_codes: ["code_hash"],
  verifications: ["code_hash"],
  api_keys: ["key_hash"],
  push_subscriptions: ["endpoint", "p256dh", "auth"],
  passkeys: ["id", "public_key"],
  webauthn_challenges: ["session_id", "challenge"],
  outbound_messages: ["body"],
  // Keyed hashes of a phone or a client address: a staff member with the key could test guesses against them.
  premium_claims: ["phone_hash"],
  emergency_broadcasts: ["address_key", "address_hash"],
  sos_responses: ["address_hash"],
  // A team invitation's code, kept as a keyed hash like a phone code (docs/decisions/067-enterprise-teams.md).
  org_invites: ["code_hash"],
};

/** Columns holding phone numbers, by table: shown only masked, so only as they are (see `maskedUse`). */
export const MASKED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  users: ["phone"],
  verifications: ["phone"],
  trial_claims: ["phone"],
  emergency_contacts: ["phone"],
  support_tickets: ["phone"],
  phone_channels: ["phone"],
  // The global directory of decision 058: a verified phone, masked like users.phone.
  person_directory: ["phone"],
  outbound_messages: ["to"],
  org_invites: ["phone"],
};

const MASKED_NAMES = new Set(Object.values(MASKED_COLUMNS).flat());

// Functions that make rows out of a value: one call can multiply a query's work past any time limit.
const TABLE_FUNCTIONS = new Set(["json_each", "json_tree", "jsonb_each", "jsonb_tree", "generate_series"]);

/** Table sources (FROM items and JOINs, subqueries and CTEs included) one console query may have. */
export const MAX_SOURCES = 4;

// Words after which a comma no longer separates FROM items (ON and USING do not end the list: `a join b on x, c`).
const CLAUSE_ENDS = new Set(["where", "group", "order", "limit", "having", "window", "union", "intersect", "except"]);

function tokenize(input: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (/\s/.test(ch)) {
      i++;
    } else if ((ch === "-" && input[i + 1] === "-") || (ch === "/" && input[i + 1] === "*")) {
      return "Comments are not allowed in the console";
    } else if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      let j = i + 1;
      let text = "";
      for (;;) {
        if (j >= input.length) return "Unterminated quote";
        if (input[j] === close) {
          if (close !== "]" && input[j + 1] === close) {
            text += close;
            j += 2;
            continue;
          }
          break;
        }
        text += input[j++];
      }
      tokens.push({ kind: ch === "'" ? "string" : "name", text: ch === "'" ? text : text.toLowerCase() });
      i = j + 1;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(ch)) {
      let j = i;
      while (j < input.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(input[j])) j++;
      tokens.push({ kind: "word", text: input.slice(i, j).toLowerCase() });
      i = j;
    } else if (/[0-9]/.test(ch) || (ch === "." && /[0-9]/.test(input[i + 1] ?? ""))) {
      let j = i;
      while (j < input.length && /[0-9A-Za-z_.]/.test(input[j])) j++;
      tokens.push({ kind: "number", text: input.slice(i, j) });
      i = j;
    } else if (/[?:@$]/.test(ch)) {
      return "Parameters are not allowed in the console";
    } else if (/[(),;=<>!|*+\-/%&~^.]/.test(ch)) {
      tokens.push({ kind: "symbol", text: ch });
      i++;
    } else {
      return `Unexpected character ${JSON.stringify(ch)}`;
    }
  }
  return tokens;
}

/** Checks one console statement; answers the statement to run (without a trailing semicolon) or why not. */
export function checkConsoleSql(input: string): SqlVerdict {
  if (input.length > SQL_MAX_LENGTH) return { ok: false, reason: `Queries are limited to ${SQL_MAX_LENGTH} characters` };
  const tokens = tokenize(input);
  if (typeof tokens === "string") return { ok: false, reason: tokens };
  let end = tokens.length;
  while (end > 0 && tokens[end - 1].text === ";" && tokens[end - 1].kind === "symbol") end--;
  if (end === 0) return { ok: false, reason: "Write one SELECT statement" };
  const body = tokens.slice(0, end);
  if (body.some((t) => t.kind === "symbol" && t.text === ";")) return { ok: false, reason: "Only one statement at a time" };
  if (body[0].kind !== "word" || (body[0].text !== "select" && body[0].text !== "with")) {
    return { ok: false, reason: "Only read-only SELECT or WITH queries can run here" };
  }
  for (const [n, t] of body.entries()) {
    // Quoted names count too: "delete" is not a table anyone needs, and sqlite_/_cf_ tables are internal.
    if ((t.kind === "word" || t.kind === "name") && FORBIDDEN.has(t.text)) {
      return { ok: false, reason: `${t.text.toUpperCase()} is not allowed: the console only reads` };
    }
    if (
      (t.kind === "word" || t.kind === "name") &&
      (t.text.startsWith("sqlite_") || t.text.startsWith("_cf_") || t.text === "d1_migrations")
    ) {
      return { ok: false, reason: "Internal tables are not available in the console" };
    }
    const next = body[n + 1];
    if ((t.kind === "word" || t.kind === "name") && next?.text === "(" && FORBIDDEN_FUNCTIONS.has(t.text)) {
      return { ok: false, reason: `${t.text}() is not allowed in the console` };
    }
  }
  const refusal = checkNames(body) ?? checkCost(body);
  if (refusal) return { ok: false, reason: refusal };
  const text = input.trim().replace(/;+\s*$/, "");
  return { ok: true, sql: text };
}

const isName = (t: Token | undefined) => t !== undefined && (t.kind === "word" || t.kind === "name" || t.kind === "string");

function depths(tokens: Token[]): number[] {
  let depth = 0;
  return tokens.map((t) => {
    if (t.kind === "symbol" && t.text === ")") depth--;
    const d = depth;
    if (t.kind === "symbol" && t.text === "(") depth++;
    return d;
  });
}

/** A `*` that stands for columns (`select *`, `t.*`), not a product or `count(*)`. */
function isStarColumn(tokens: Token[], i: number): boolean {
  const prev = tokens[i - 1];
  return (
    tokens[i].kind === "symbol" &&
    tokens[i].text === "*" &&
    prev !== undefined &&
    ((prev.kind === "word" && ["select", "distinct", "all"].includes(prev.text)) ||
      (prev.kind === "symbol" && [",", "."].includes(prev.text)))
  );
}

/**
 * Secret columns, schema names, and phone columns anywhere but as they are in the final result. Names are
 * matched whatever their quoting (SQLite reads a single-quoted word as a name where only a name fits), and a
 * table counts as named wherever its name appears: a wider refusal, never a missed one.
 */
function checkNames(tokens: Token[]): string | undefined {
  const depth = depths(tokens);
  const named = new Set(tokens.filter(isName).map((t) => t.text.toLowerCase()));
  for (const [i, t] of tokens.entries()) {
    const next = tokens[i + 1];
    if (isName(t) && next?.kind === "symbol" && next.text === "." && ["main", "temp", "temporary"].includes(t.text.toLowerCase())) {
      return "Schema names are not needed in the console: name the table alone";
    }
  }
  for (const [table, columns] of Object.entries(SECRET_COLUMNS)) {
    if (!named.has(table)) continue;
    if (tokens.some((_, i) => isStarColumn(tokens, i))) return `${table} holds secrets: name the columns you need instead of *`;
    // Names that surely stand for another table: one written right after FROM or JOIN, and its alias (`users u`,
    // `users as u`), unless this table goes by it too. A subquery's or a parenthesised table's alias is not one.
    const aliasAfter = (i: number) => (tokens[i + 1]?.text === "as" ? tokens[i + 2] : tokens[i + 1]);
    const others = new Set<string>();
    const own = new Set([table]);
    for (const [i, t] of tokens.entries()) {
      if (!isName(t)) continue;
      const alias = aliasAfter(i);
      if (t.text.toLowerCase() === table) {
        if (isName(alias)) own.add((alias as Token).text.toLowerCase());
        continue;
      }
      const before = tokens[i - 1];
      if (!(before?.kind === "word" && ["from", "join"].includes(before.text))) continue;
      others.add(t.text.toLowerCase());
      if (isName(alias)) others.add((alias as Token).text.toLowerCase());
    }
    for (const [i, t] of tokens.entries()) {
      if (!isName(t) || !columns.includes(t.text.toLowerCase())) continue;
      // `u.id` with `users u` is another table's id; any other `id` may be this table's.
      const qualifier = tokens[i - 1]?.text === "." ? tokens[i - 2]?.text.toLowerCase() : undefined;
      if (qualifier === undefined || !others.has(qualifier) || own.has(qualifier)) {
        return `${table}.${t.text.toLowerCase()} holds secrets: the console does not read it`;
      }
    }
  }
  const maskedTables = Object.keys(MASKED_COLUMNS).filter((t) => named.has(t));
  const stars = tokens.flatMap((_, i) => (isStarColumn(tokens, i) ? [i] : []));
  const masked = tokens.flatMap((t, i) => (isName(t) && MASKED_NAMES.has(t.text.toLowerCase()) ? [i] : []));
  const readsMasked = masked.length > 0 || (maskedTables.length > 0 && stars.length > 0);
  if (!readsMasked) return undefined;
  const phoneRule = "Phone numbers are shown masked: select the column as it is, with no expression, condition, ordering or grouping on it";
  if (maskedTables.length > 0 && stars.some((i) => depth[i] > 0)) return phoneRule;
  const selects = tokens.flatMap((t, i) => (t.kind === "word" && t.text === "select" && depth[i] === 0 ? [i] : []));
  if (selects.length !== 1 || tokens.some((t) => t.kind === "word" && ["union", "intersect", "except"].includes(t.text))) {
    return phoneRule;
  }
  const from = tokens.findIndex((t, i) => i > selects[0] && t.kind === "word" && t.text === "from" && depth[i] === 0);
  const listEnd = from === -1 ? tokens.length : from;
  const aliases = new Set<string>();
  for (const i of masked) {
    if (depth[i] !== 0 || i < selects[0] || i >= listEnd) return phoneRule;
    // Before: `select`, `,` or `all`, maybe through `table.`; after: `,`, `from`, the end, or `as alias` then one of those.
    let start = i;
    if (tokens[i - 1]?.text === "." && isName(tokens[i - 2])) start = i - 2;
    const before = tokens[start - 1];
    if (!before || !((before.kind === "word" && ["select", "all", "distinct"].includes(before.text)) || before.text === ","))
      return phoneRule;
    let after = i + 1;
    if (tokens[after]?.kind === "word" && tokens[after].text === "as" && isName(tokens[after + 1])) {
      aliases.add(tokens[after + 1].text.toLowerCase());
      after += 2;
    }
    const end = tokens[after];
    if (end && !(end.text === "," || (end.kind === "word" && end.text === "from"))) return phoneRule;
  }
  let ordering = false;
  for (const [i, t] of tokens.entries()) {
    if (i < listEnd) continue;
    if (isName(t) && aliases.has(t.text.toLowerCase())) return phoneRule;
    // `order by 2` or `group by 2` would sort or group by a phone column through its place in the result.
    const prev = tokens[i - 1];
    if (depth[i] === 0 && t.kind === "word" && t.text === "by" && (prev?.text === "order" || prev?.text === "group")) ordering = true;
    else if (depth[i] === 0 && t.kind === "word" && ["limit", "having", "window"].includes(t.text)) ordering = false;
    else if (ordering && depth[i] === 0 && t.kind === "number" && (prev?.text === "by" || prev?.text === ",")) return phoneRule;
  }
  return undefined;
}

/** What makes a read expensive however it is written: functions that make rows, recursion, and many sources. */
function checkCost(tokens: Token[]): string | undefined {
  const depth = depths(tokens);
  let sources = 0;
  const inFrom = new Map<number, boolean>();
  for (const [i, t] of tokens.entries()) {
    const next = tokens[i + 1];
    const d = depth[i];
    if (isName(t) && next?.text === "(" && (TABLE_FUNCTIONS.has(t.text) || t.text.startsWith("pragma_"))) {
      return `${t.text}() is not available in the console: it can make rows without end`;
    }
    if (t.kind === "word" && (t.text === "from" || t.text === "join")) {
      sources++;
      inFrom.set(d, true);
      // A function in a table's place (`from f(...)`) is a table-valued function whatever its name.
      if (isName(next) && tokens[i + 2]?.text === "(") return `${next?.text}() is not available in the console as a table`;
    } else if (t.kind === "word" && CLAUSE_ENDS.has(t.text)) {
      inFrom.set(d, false);
    } else if (t.kind === "symbol" && t.text === "," && inFrom.get(d)) {
      sources++;
      if (isName(next) && tokens[i + 2]?.text === "(") return `${next?.text}() is not available in the console as a table`;
    } else if (t.kind === "symbol" && t.text === ")") {
      inFrom.set(d + 1, false);
    }
    if (t.kind === "word" && t.text === "natural") return "NATURAL joins are not available in the console: join ON named columns";
  }
  if (sources > MAX_SOURCES) return `At most ${MAX_SOURCES} tables or subqueries in one console query`;
  return undefined;
}

/** One row of `EXPLAIN QUERY PLAN`. */
export type PlanRow = { id: number; parent: number; detail: string };

/**
 * The plan's verdict: a full scan inside another loop (two scans joined, or a scan in a correlated subquery)
 * reads one table once per row of another, which no time limit on a Worker can stop on D1. One scan, index
 * searches, sorting and subqueries run once are allowed.
 */
export function checkConsolePlan(plan: PlanRow[]): string | undefined {
  const isScan = (r: PlanRow) => /^SCAN /.test(r.detail) && !/^SCAN CONSTANT ROW/.test(r.detail);
  const children = new Map<number, PlanRow[]>();
  for (const r of plan) children.set(r.parent, [...(children.get(r.parent) ?? []), r]);
  const scansUnder = (id: number): number => (children.get(id) ?? []).reduce((n, r) => n + (isScan(r) ? 1 : 0) + scansUnder(r.id), 0);
  const heavy =
    "This query would read a whole table once for each row of another: join on an indexed column (an id), or narrow it with WHERE";
  for (const [, rows] of children) {
    // Siblings are the loops of one SELECT, outermost first: two scans among them multiply.
    if (rows.filter(isScan).length > 1) return heavy;
  }
  for (const r of plan) if (/^CORRELATED /.test(r.detail) && scansUnder(r.id) > 0) return heavy;
  return undefined;
}

// Phone numbers in any written form: 7+ digits with optional +, spaces, dashes or dots between.
const PHONE_LIKE = /\+?\d(?:[\s.-]?\d){6,}/g;

/** Masks phone-like digit runs in a result value, keeping the last three digits to tell people apart. */
export function maskPhones(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value.replace(PHONE_LIKE, (m) => {
    const digits = m.replace(/\D/g, "");
    return `${m.startsWith("+") ? "+" : ""}${"•".repeat(Math.max(0, digits.length - 3))}${digits.slice(-3)}`;
  });
}
