// The admin SQL console's guard (docs/decisions/019-staff-and-admins.md): one read-only SELECT/WITH statement,
// decided by tokenising the text the way SQLite does, so strings, quoted names and comments cannot hide a second
// statement or a write. Anything this tokenizer is unsure of is refused.

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
    } else if (/[0-9.]/.test(ch)) {
      let j = i;
      while (j < input.length && /[0-9A-Za-z_.]/.test(input[j])) j++;
      tokens.push({ kind: "number", text: input.slice(i, j) });
      i = j;
    } else if (/[?:@$]/.test(ch)) {
      return "Parameters are not allowed in the console";
    } else if (/[(),;=<>!|*+\-/%&~^]/.test(ch)) {
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
  const text = input.trim().replace(/;+\s*$/, "");
  return { ok: true, sql: text };
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
