// bench/growth: bytes of D1 per daily active person, from real row sizes and the retention windows
// (docs/decisions/051-retention.md). Builds a SQLite database from db/migrations (the same schema D1 runs), inserts
// N representative rows into each table a person's day writes, and reads what they take with SQLite's `dbstat`
// virtual table (table and index pages, so B-tree fill is included). Writes the "growth" section of
// bench/README.md. `npm run bench -- growth` (node 24: node:sqlite and TypeScript imports).
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { MESSAGE_POINTS_PER_DAY } from "../../core/rewards.ts";
import { writeSection } from "../readme.mjs";

const N = 20_000;
const PEOPLE = 2_000;
const ROOMS = 500;

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
const day = (i) => new Date(t(i)).toISOString().slice(0, 10);
// What a person's day writes now that the room is the record of its messages
// (docs/decisions/056-the-room-is-the-record-of-its-messages.md): no message or connection rows; the rooms' batches
// add one ledger row per person and day, their own hours, one activity row per room and who is present now.
const sizes = {
  point_events: measure("point_events", (i) => ({
    id: Buffer.from(Array.from({ length: 16 }, () => Math.floor(random() * 256))).toString("hex"), // the batch's id
    user_id: people[i % PEOPLE],
    kind: "message",
    ref: day(Math.floor(i / PEOPLE) * 21_600), // one row per person and day
    points: 5 * Math.min(MESSAGES, MESSAGE_POINTS_PER_DAY),
    day: day(Math.floor(i / PEOPLE) * 21_600),
    created_at: t(i),
  })),
  analytics_personal: measure("analytics_personal", (i) => ({
    user_id: people[i % PEOPLE],
    hour: new Date(start + Math.floor(i / PEOPLE) * 3_600_000).toISOString().slice(0, 13),
    kind: "message.nearby",
    count: 4,
  })),
  room_activity: measure("room_activity", (i) => ({
    room_id: `group:${id()}`,
    last_message_at: t(i),
    messages: 120,
    epoch: start,
    counted_seq: 120,
    updated_at: t(i),
  })),
  room_presence: measure("room_presence", () => ({
    room_id: pick(rooms),
    user_id: id(),
    sockets: 1,
  })),
};

// Rows a person's day writes, how long each lives, and what that holds at steady state.
const keepDays = {
  point_events: Number.POSITIVE_INFINITY, // the rewards ledger: totals, leaderboards and caps are sums of its rows
  analytics_personal: 31, // pruneAnalytics (docs/decisions/037-hourly-and-personal-analytics.md)
};
const perDay = {
  point_events: 1, // the day's message points, one row however many messages (the cap is kept in it)
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
const kept = (r) => (r.forever ? "forever" : `${fmt(keepDays[r.table])} days`);
const today = new Date().toISOString().slice(0, 10);

const table = [
  "| table | rows per person a day | bytes a row (with indexes) | written per person a day | kept | held per person at steady state |",
  "| --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.table} | ${r.perDay} | ${fmt(r.size)} | ${fmt(r.written)} B | ${kept(r)} | ${r.forever ? "grows every day" : `${fmt(r.held / 1024, 1)} KB`} |`,
  ),
  `| messages, mesh_connections | 0 | (tables gone) | 0 B | — | 0 |`,
  `| room_activity | one per room, not per person | ${fmt(sizes.room_activity)} | — | while its room exists | ${fmt(sizes.room_activity)} B a room |`,
  `| room_presence | one per person present now | ${fmt(sizes.room_presence)} | — | while they are present | ${fmt(sizes.room_presence)} B a person online |`,
].join("\n");

writeSection(
  "growth",
  `
Measured ${today} with \`npm run bench -- growth\`: a SQLite database built from \`db/migrations\` (the schema D1
runs), ${fmt(N)} representative rows per table (ids of 22 characters, ${ROOMS} area rooms, ${fmt(PEOPLE)} people), sizes
read with SQLite's \`dbstat\` (table and index pages, B-tree fill included). Per daily active person, the issue's
assumptions: ${MESSAGES} messages in area rooms, ${PAGE_LOADS} page loads (no new rows) and ${RECONNECTS} reconnects a day
(no rows: a connect writes no D1); messages fall in ${HOURS_WITH_MESSAGES} distinct hours. The room is the record of its
messages (docs/decisions/056-the-room-is-the-record-of-its-messages.md): its once-a-minute batch adds to the roll-ups,
to one ledger row per person and day, and to one activity row per room. Retention windows from
\`db/queries/retention.ts\` (docs/decisions/051-retention.md).

${table}

Written per active person a day: ${fmt(written)} B. What stays for good is the rewards ledger's one row a day; the
personal roll-up holds a standing ${fmt(held / 1024, 1)} KB per active person (${fmt((held * LAGOS) / 1024 ** 3, 1)} GB for Lagos's 2 million;
one 10 GB database holds the windows of ${fmt(LIMIT / held)} daily active people). Rooms and presence grow with rooms
and with who is online now, not with messages.

Growth: ${fmt(growth)} B of D1 per active person per day at steady state (goal ≤ 1 KB), plus ${fmt(held / 1024, 1)} KB held per active person.
For Lagos that is ${fmt((growth * LAGOS) / 1024 ** 3, 2)} GB more a day, ${fmt((growth * LAGOS * 365) / 1024 ** 3, 0)} GB a year: the ledger, not messages, is
what a year fills; summing it into the \`rewards\` row past a year is the next step if one database must hold it.
`,
);
console.log(`growth: ${fmt(growth)} B per active person per day kept forever; ${fmt(held / 1024, 1)} KB held in windows`);
console.log(
  Object.entries(sizes)
    .map(([k, v]) => `${k}: ${fmt(v)} B a row`)
    .join("\n"),
);
