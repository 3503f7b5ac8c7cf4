// bench/growth: bytes of D1 per daily active person, from real row sizes and the retention windows
// (docs/decisions/051-retention.md). Builds a SQLite database from db/migrations (the same schema D1 runs), inserts
// N representative rows into each table a person's day writes, and reads what they take with SQLite's `dbstat`
// virtual table (table and index pages, so B-tree fill is included). Writes the "growth" section of
// bench/README.md. `npm run bench -- growth` (node 24: node:sqlite and TypeScript imports).
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tsImport } from "tsx/esm/api";
import { MESSAGE_POINTS_PER_DAY } from "../../core/rewards.ts";
import { writeSection } from "../readme.mjs";

// The windows the Cron applies, from the module itself (through tsx: it imports without file extensions).
const { RETENTION, CRON_INTERVAL_MS } = await tsImport("../../db/queries/retention.ts", import.meta.url);

const N = 20_000;
const PEOPLE = 2_000;
const ROOMS = 500;
const DAY = 86_400_000;

// The issue's assumptions per daily active person (issue 28), and what follows from them.
const MESSAGES = 20;
const RECONNECTS = 10;
const PAGE_LOADS = 10; // read the session (touched at most every few minutes): no new rows
const HOURS_WITH_MESSAGES = 5; // distinct UTC hours a person sends in: one analytics_personal row each

// A seeded generator, so every run measures the same rows (ids as random as newId's, 16 bytes in base64url).
let seed = 0x2545f491;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const id = () => Buffer.from(Array.from({ length: 16 }, () => Math.floor(random() * 256))).toString("base64url");
const pick = (arr) => arr[Math.floor(random() * arr.length)];
const people = Array.from({ length: PEOPLE }, id);
const rooms = Array.from({ length: ROOMS }, (_, i) => `nearby:s${(1_000_000 + i).toString(36).slice(-4)}`);
const start = Date.parse("2026-11-01T00:00:00Z");
const body = "Is the Mile 12 market open today? Traffic on Ikorodu Road is bad."; // an area-room line

const db = new DatabaseSync(":memory:");
db.exec("PRAGMA foreign_keys = OFF"); // sizes only: the rows point at people this database does not hold
const migrations = new URL("../../db/migrations/", import.meta.url);
for (const f of readdirSync(migrations)
  .filter((f) => f.endsWith(".sql"))
  .sort())
  for (const stmt of readFileSync(new URL(f, migrations), "utf8").split("--> statement-breakpoint")) if (stmt.trim()) db.exec(stmt);
// Seed content (market prices, FAQ…) is not measured; only the tables below.

/** Bytes a table and its indexes take now, by dbstat. */
function bytesOf(table) {
  const names = db
    .prepare("SELECT name FROM sqlite_schema WHERE tbl_name = ? AND type IN ('table', 'index')")
    .all(table)
    .map((r) => r.name);
  const q = db.prepare(`SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name IN (${names.map(() => "?").join(",")})`);
  return Number(q.get(...names).b);
}

/** Mean bytes a row of `table` takes with its indexes, over N rows made by `row(i)`. */
function measure(table, row) {
  const before = bytesOf(table);
  const sample = row(0);
  const cols = Object.keys(sample);
  const ins = db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(",")}) VALUES (${cols.map(() => "?").join(",")})`);
  db.exec("BEGIN");
  for (let i = 0; i < N; i++) ins.run(...Object.values(row(i)));
  db.exec("COMMIT");
  return (bytesOf(table) - before) / N;
}

const t = (i) => start + i * 4_000; // rows arrive in time order, as they do
const sizes = {
  messages: measure("messages", (i) => ({
    id: id(),
    room_id: pick(rooms),
    sender_id: pick(people),
    type: "text",
    is_encrypted: 0,
    body,
    hop_count: 0,
    priority: "normal",
    sent_at: t(i),
  })),
  mesh_connections: measure("mesh_connections", (i) => ({
    id: id(),
    user_id: pick(people),
    room_id: pick(rooms),
    transport: "relay",
    is_active: 0,
    connected_at: t(i),
    disconnected_at: t(i) + 600_000,
  })),
  point_events: measure("point_events", (i) => ({
    id: id(),
    user_id: pick(people),
    kind: "message",
    ref: id(),
    points: 1,
    day: new Date(t(i)).toISOString().slice(0, 10),
    created_at: t(i),
  })),
  analytics_personal: measure("analytics_personal", (i) => ({
    user_id: people[i % PEOPLE],
    hour: new Date(start + Math.floor(i / PEOPLE) * 3_600_000).toISOString().slice(0, 13),
    kind: "message.nearby",
    count: 4,
  })),
};

// Rows a person's day writes, how long each lives, and what that holds at steady state.
const keepDays = {
  messages: (RETENTION.messagesMs + CRON_INTERVAL_MS) / DAY,
  // Open for a while (not counted: a socket is open only while someone is there), then an hour after closing.
  mesh_connections: (RETENTION.closedConnectionsMs + CRON_INTERVAL_MS) / DAY,
  point_events: Number.POSITIVE_INFINITY, // the rewards ledger: totals, leaderboards and caps are sums of its rows
  analytics_personal: 31, // pruneAnalytics (docs/decisions/037-hourly-and-personal-analytics.md)
};
const perDay = {
  messages: MESSAGES,
  mesh_connections: RECONNECTS,
  point_events: Math.min(MESSAGES, MESSAGE_POINTS_PER_DAY),
  analytics_personal: HOURS_WITH_MESSAGES,
};

const rows = Object.keys(perDay).map((table) => {
  const written = perDay[table] * sizes[table];
  const forever = keepDays[table] === Number.POSITIVE_INFINITY;
  return { table, perDay: perDay[table], size: sizes[table], written, forever, held: forever ? 0 : written * keepDays[table] };
});
const written = rows.reduce((s, r) => s + r.written, 0);
const growth = rows.filter((r) => r.forever).reduce((s, r) => s + r.written, 0);
const held = rows.reduce((s, r) => s + r.held, 0);
const LIMIT = 10 * 1024 ** 3;
const LAGOS = 2_000_000;
const fmt = (n, d = 0) => n.toLocaleString("en-GB", { maximumFractionDigits: d, minimumFractionDigits: d });
const kept = (r) => (r.forever ? "forever" : r.table === "mesh_connections" ? "1 h after closing" : `${fmt(keepDays[r.table])} days`);

// What is left once the message path no longer writes D1 (item 2 of issue 28): the personal roll-up and the ledger.
const personal = rows.find((r) => r.table === "analytics_personal");
const ledger = rows.find((r) => r.table === "point_events");
const ledgerDay = sizes.analytics_personal; // one ledger row per person, day and kind: about a roll-up row's size
const personalDaily = 31 * sizes.analytics_personal; // personal activity kept per day, not per hour, past 48 hours
const today = new Date().toISOString().slice(0, 10);

const table = [
  "| table | rows per person a day | bytes a row (with indexes) | written per person a day | kept | held per person at steady state |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.table} | ${r.perDay} | ${fmt(r.size)} | ${fmt(r.written)} B | ${kept(r)} | ${r.forever ? "grows every day" : `${fmt(r.held / 1024, 1)} KB`} |`,
  ),
].join("\n");

writeSection(
  "growth",
  `
Measured ${today} with \`npm run bench -- growth\`: a SQLite database built from \`db/migrations\` (the schema D1
runs), ${fmt(N)} representative rows per table (ids of 22 characters, ${ROOMS} area rooms, ${fmt(PEOPLE)} people, a
${body.length}-character area message), sizes read with SQLite's \`dbstat\` (table and index pages, B-tree fill
included). Per daily active person, the issue's assumptions: ${MESSAGES} messages in area rooms, ${PAGE_LOADS} page
loads (no new rows) and ${RECONNECTS} reconnects a day; messages fall in ${HOURS_WITH_MESSAGES} distinct hours. Retention
windows from \`db/queries/retention.ts\` (docs/decisions/051-retention.md), plus up to 15 minutes until the Cron runs.

${table}

Without retention every byte written stays: ${fmt(written)} B per active person a day. With it, what grows without end is
the rewards ledger alone (one \`point_events\` row per rewarded message), and the windows hold a standing
${fmt(held / 1024, 1)} KB per active person (${fmt((held * LAGOS) / 1024 ** 3, 1)} GB for Lagos's 2 million; one 10 GB database holds
the windows of ${fmt(LIMIT / held)} daily active people).

Growth: ${fmt(growth)} B of D1 per active person per day at steady state (goal ≤ 1 KB: ${fmt(growth / 1024, 1)}× it), plus ${fmt(held / 1024, 1)} KB held per active person.
For Lagos that is ${fmt((growth * LAGOS) / 1024 ** 3, 1)} GB more every day on top of ${fmt((held * LAGOS) / 1024 ** 3, 1)} GB held, far past what one 10 GB database holds.

What closes the gap, from these sizes. (1) The message path not writing D1 (issue 28, item 2): no \`messages\` or
\`mesh_connections\` rows leaves the personal roll-up's ${fmt(personal.held / 1024, 1)} KB held per person
(${fmt((personal.held * LAGOS) / 1024 ** 3, 1)} GB for Lagos), so it too must leave D1 (Analytics Engine) or keep days instead of hours past
48 hours (${fmt(personalDaily / 1024, 1)} KB, ${fmt((personalDaily * LAGOS) / 1024 ** 3, 1)} GB for Lagos). (2) The rewards ledger as one row per person, day
and kind instead of one per message (the caps and the weekly board already count by day; the message count is kept
in the row): about ${fmt(ledgerDay)} B a day instead of ${fmt(ledger.written)} B, under the goal. That needs a new table, a schema
change this work did not make.
`,
);
console.log(`growth: ${fmt(growth)} B per active person per day kept forever; ${fmt(held / 1024, 1)} KB held in windows`);
console.log(rows.map((r) => `${r.table}: ${fmt(r.size)} B a row`).join("\n"));
