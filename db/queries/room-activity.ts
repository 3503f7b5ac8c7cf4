// What a room writes to D1, once a minute at most, as ONE batch of a fixed number of statements whatever the
// number of messages (docs/decisions/056-the-room-is-the-record-of-its-messages.md). Each statement takes the
// room's messages through one JSON parameter (`json_each`), so a batch binds a handful of parameters, far under
// D1's 100 a statement (https://developers.cloudflare.com/d1/platform/limits/). Exactly once: every statement
// counts only the messages above the seq the room_activity row says were already counted (under the room's
// storage epoch), and the last statement raises that seq; a batch is one transaction, so a replay after a crash
// (D1 wrote, the room died before noting it) adds nothing twice.
import { eq, type SQL, sql, sum } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { MESSAGE_POINTS, MESSAGE_POINTS_PER_DAY } from "../../core/rewards";
import type { Db } from "../index";
import { roomActivity, roomPresence } from "../schema";

/** One stored message as the batch takes it: [seq, senderId, 1 when a person's text (counted, earns points), at ms]. */
export type FlushMessage = [seq: number, senderId: string, said: 0 | 1, at: number];

export interface RoomFlush {
  roomId: string;
  /** The room's storage epoch: a room whose storage began again (new epoch) counts from seq 0 again. */
  epoch: number;
  /** Every seq up to this one is counted once the batch is written. */
  throughSeq: number;
  messages: FlushMessage[];
  /** Analytics kind and coarse area of this room's messages (workers/analytics). */
  kind: string;
  area: string;
  /** People whose socket count changed: [userId, sockets now] (0 = gone). */
  presence: [string, number][];
  /** The room woke with no sockets: every presence row it had is stale and goes first. */
  presenceReset: boolean;
  now: number;
}

/** Messages one batch carries at most (about 60 bytes each in the JSON: well under D1's 100 KB statement). */
export const FLUSH_MAX_MESSAGES = 1000;

/** The statements of one room's batch, in order; the room_activity upsert, which marks them counted, is last. */
export function roomFlushStatements(f: RoomFlush): SQL[] {
  const rows = JSON.stringify(f.messages);
  const counted = sql`coalesce((SELECT CASE WHEN a.epoch = ${f.epoch} THEN a.counted_seq ELSE 0 END FROM room_activity a WHERE a.room_id = ${f.roomId}), 0)`;
  // The messages not yet counted, with their UTC day and hour as the roll-ups key them.
  const fresh = sql`fresh AS (
    SELECT json_extract(value, '$[1]') AS sender, json_extract(value, '$[2]') AS said, json_extract(value, '$[3]') AS at,
      strftime('%Y-%m-%d', json_extract(value, '$[3]') / 1000, 'unixepoch') AS day,
      strftime('%Y-%m-%dT%H', json_extract(value, '$[3]') / 1000, 'unixepoch') AS hour
    FROM json_each(${rows}) WHERE json_extract(value, '$[0]') > ${counted})`;
  const cap = MESSAGE_POINTS * MESSAGE_POINTS_PER_DAY;
  const statements: SQL[] = [
    sql`WITH ${fresh} INSERT INTO analytics_daily (day, kind, area, count)
      SELECT day, ${f.kind}, ${f.area}, count(*) FROM fresh WHERE said = 1 GROUP BY day
      ON CONFLICT (day, kind, area) DO UPDATE SET count = analytics_daily.count + excluded.count`,
    sql`WITH ${fresh} INSERT INTO analytics_hourly (hour, kind, area, count)
      SELECT hour, ${f.kind}, ${f.area}, count(*) FROM fresh WHERE said = 1 GROUP BY hour
      ON CONFLICT (hour, kind, area) DO UPDATE SET count = analytics_hourly.count + excluded.count`,
    // Only people who still have an account: a deleted sender's own rows would name nobody (and break the batch).
    sql`WITH ${fresh} INSERT INTO analytics_personal (user_id, hour, kind, count)
      SELECT sender, hour, ${f.kind}, count(*) FROM fresh WHERE said = 1 AND sender IN (SELECT id FROM users) GROUP BY sender, hour
      ON CONFLICT (user_id, hour, kind) DO UPDATE SET count = analytics_personal.count + excluded.count`,
    // One ledger row per person and day, the daily cap kept here on the server (workers/rewards).
    sql`WITH ${fresh} INSERT INTO point_events (id, user_id, kind, ref, points, day, created_at)
      SELECT lower(hex(randomblob(16))), sender, 'message', day, min(count(*) * ${MESSAGE_POINTS}, ${cap}), day, max(at)
      FROM fresh WHERE said = 1 AND sender IN (SELECT id FROM users) GROUP BY sender, day
      ON CONFLICT (user_id, kind, ref) DO UPDATE SET points = min(point_events.points + excluded.points, ${cap})`,
  ];
  if (f.presenceReset || f.presence.length > 0) {
    const people = JSON.stringify(f.presence);
    statements.push(
      sql`DELETE FROM room_presence WHERE room_id = ${f.roomId} AND (${f.presenceReset ? 1 : 0} = 1
        OR user_id IN (SELECT json_extract(value, '$[0]') FROM json_each(${people}) WHERE json_extract(value, '$[1]') = 0))`,
      sql`INSERT INTO room_presence (room_id, user_id, sockets)
        SELECT ${f.roomId}, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${people}) WHERE json_extract(value, '$[1]') > 0
        ON CONFLICT (room_id, user_id) DO UPDATE SET sockets = excluded.sockets`,
    );
  }
  statements.push(
    sql`WITH ${fresh} INSERT INTO room_activity (room_id, last_message_at, messages, epoch, counted_seq, updated_at)
      SELECT ${f.roomId}, max(at), count(*), ${f.epoch}, ${f.throughSeq}, ${f.now} FROM fresh WHERE 1
      ON CONFLICT (room_id) DO UPDATE SET
        last_message_at = CASE WHEN excluded.last_message_at IS NULL THEN room_activity.last_message_at
          ELSE max(coalesce(room_activity.last_message_at, 0), excluded.last_message_at) END,
        messages = room_activity.messages + excluded.messages,
        counted_seq = max(CASE WHEN room_activity.epoch = excluded.epoch THEN room_activity.counted_seq ELSE 0 END, excluded.counted_seq),
        epoch = excluded.epoch,
        updated_at = excluded.updated_at`,
  );
  return statements;
}

interface D1Like {
  prepare: (q: string) => { bind: (...v: unknown[]) => unknown };
  batch: (s: unknown[]) => Promise<unknown>;
}
interface LibsqlLike {
  batch: (s: { sql: string; args: unknown[] }[], mode: "write") => Promise<unknown>;
}

/** Writes one room's batch: one D1 batch (one transaction, one round trip), or one libSQL write batch. */
export async function writeRoomFlush(db: Db, f: RoomFlush): Promise<void> {
  const dialect = new SQLiteAsyncDialect();
  const queries = roomFlushStatements(f).map((s) => dialect.sqlToQuery(s));
  const client = (db as unknown as { $client: D1Like | LibsqlLike }).$client;
  if ("prepare" in client) await client.batch(queries.map((q) => client.prepare(q.sql).bind(...q.params)));
  else
    await client.batch(
      queries.map((q) => ({ sql: q.sql, args: q.params })),
      "write",
    );
}

/** A room's activity row (the room list, the staff counts). */
export async function findRoomActivity(db: Db, roomId: string) {
  return db.select().from(roomActivity).where(eq(roomActivity.roomId, roomId)).get();
}

/** Sockets open now in one room, as of its last batch. */
export async function countRoomSockets(db: Db, roomId: string): Promise<number> {
  const [row] = await db
    .select({ n: sum(roomPresence.sockets) })
    .from(roomPresence)
    .where(eq(roomPresence.roomId, roomId));
  return Number(row?.n ?? 0);
}

/** The rooms where the person had a socket open at each room's last batch. */
export async function presentRoomsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ roomId: roomPresence.roomId }).from(roomPresence).where(eq(roomPresence.userId, userId)).all();
  return rows.map((r) => r.roomId);
}
