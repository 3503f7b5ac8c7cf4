// The room's once-a-minute D1 batch (docs/decisions/056-the-room-is-the-record-of-its-messages.md). Nothing on a
// message's path writes D1: the envelope row the room stores IS the pending record (seq above `d1_through`), and
// presence changes wait in `presence_changed`, both in the room's own SQLite. The alarm sends what is pending as
// one D1 batch (db/queries/room-activity.ts) and only then marks it counted; a failed or interrupted batch stays
// pending for the next alarm, and D1 itself ignores what it already counted, so nothing is lost or counted twice.
import { roomKind } from "../core/room-ids";
import { faultPoint } from "../core/faults";
import { createDb, type Db } from "../db";
import { dbForArea, type ShardEnv } from "../db/shards";
import { FLUSH_MAX_MESSAGES, type FlushMessage, writeRoomFlush } from "../db/queries/room-activity";
import { coarseArea } from "../core/geohash";
import type { RoomEffects } from "./room-effects";

/** A room writes D1 at most once per this window (issue 28: at most once a minute per room). */
export const FLUSH_INTERVAL_MS = 60_000;

/** Envelope types that are chat messages (counted in room_activity); `key` envelopes stay in the room only. */
export const MESSAGE_TYPES = ["text", "emergency", "system", "ai"] as const;
const TYPES_SQL = MESSAGE_TYPES.map((t) => `'${t}'`).join(", ");
/**
 * Only this object's own envelopes: a hot area's shard also stores what its siblings relayed in (listed in
 * `shard_origin`, durable-objects/shards.ts), and the sibling that took each one counts it.
 */
const OWN = "NOT EXISTS (SELECT 1 FROM shard_origin o WHERE o.seq = envelopes.seq)";

export type FlushEnv = Env & { FAULT_HANG_AT?: string; FAULT_TRACE?: string; ENVIRONMENT?: string };

export class RoomFlusher {
  /** Set once this instance has asked for the flush alarm (the stored `flush_at` says so across restarts). */
  private asked = false;
  private lastVersion = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
    private readonly env: FlushEnv,
    private readonly scheduleAlarm: (at: number) => Promise<void>,
    private readonly effects: Pick<RoomEffects, "countD1WriteFailed">,
  ) {
    sql.exec("CREATE TABLE IF NOT EXISTS presence_changed (user_id TEXT PRIMARY KEY, v INTEGER NOT NULL)");
    // The storage epoch: a room whose storage began again counts its seqs afresh in D1.
    sql.exec("INSERT INTO meta (key, value) VALUES ('epoch', ?) ON CONFLICT (key) DO NOTHING", String(Date.now()));
  }

  /** A person's sockets here changed (joined or left): their count goes with the next batch. */
  presenceChanged(userId: string): void {
    this.sql.exec(
      "INSERT INTO presence_changed (user_id, v) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET v = excluded.v",
      userId,
      this.version(),
    );
  }

  /** The room woke with no sockets (torn down without close events): its presence rows in D1 are all stale. */
  presenceReset(): void {
    this.setMeta("presence_reset", String(this.version()));
  }

  /**
   * Asks for the flush alarm once per window: the first change after a batch sets `flush_at` a window ahead, in
   * the same synchronous step as the change itself (so a room that dies still has it).
   */
  schedule(now = Date.now()): void {
    if (this.asked) return;
    this.asked = true;
    const stored = this.meta("flush_at");
    const at = stored === null ? now + FLUSH_INTERVAL_MS : Number(stored);
    if (stored === null) this.setMeta("flush_at", String(at));
    void this.scheduleAlarm(at);
  }

  /**
   * Called by the room's alarm: when the flush is due, writes what is pending (one batch, more while a batch was
   * full), then asks for the next window if anything is left. Never throws: a failed batch is counted as
   * trouble and retried by the next alarm.
   */
  async onAlarm(roomId: string | null, present: () => Map<string, number>, now = Date.now()): Promise<void> {
    const due = this.meta("flush_at");
    if (due !== null && Number(due) > now) return this.scheduleAlarm(Number(due));
    this.asked = false;
    this.sql.exec("DELETE FROM meta WHERE key = 'flush_at'");
    if (roomId === null) return this.dropPending();
    try {
      while (await this.flushOnce(roomId, present(), now)) {
        // A full batch: the rest goes in the next one, still within this alarm.
      }
    } catch (err) {
      console.error("MeshRoom D1 batch failed; kept for the next alarm", err);
      // An injected fault stands for the room dying there: nothing would be counted.
      if (!(err instanceof Error && err.name === "InjectedFault")) await this.effects.countD1WriteFailed(createDb(this.env));
    }
    if (this.hasPending()) this.schedule(now);
  }

  /** Whether anything waits for D1: messages not yet counted, or presence changes. */
  hasPending(): boolean {
    const through = Number(this.meta("d1_through") ?? 0);
    const message = this.sql.exec(`SELECT 1 FROM envelopes WHERE seq > ? AND type IN (${TYPES_SQL}) AND ${OWN} LIMIT 1`, through).toArray();
    if (message.length > 0 || this.meta("presence_reset") !== null) return true;
    return this.sql.exec("SELECT 1 FROM presence_changed LIMIT 1").toArray().length > 0;
  }

  /** A room that no longer knows its id (a direct chat deleted whole) has nothing to count against: nothing is kept. */
  private dropPending(): void {
    const latest = this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM envelopes").one().seq ?? 0;
    this.setMeta("d1_through", String(latest));
    this.sql.exec("DELETE FROM presence_changed");
    this.sql.exec("DELETE FROM meta WHERE key = 'presence_reset'");
  }

  /** The highest seq whose message is counted in D1: envelopes above it must be kept until it passes them. */
  countedThrough(): number {
    return Number(this.meta("d1_through") ?? 0);
  }

  /** One batch; answers whether another should follow at once (this one was full). */
  private async flushOnce(roomId: string, present: Map<string, number>, now: number): Promise<boolean> {
    const through = this.countedThrough();
    const latest = this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM envelopes").one().seq ?? 0;
    const rows = this.sql
      .exec<{ seq: number; sender: string; type: string; at: number }>(
        `SELECT seq, sender_id AS sender, type, stored_at AS at FROM envelopes WHERE seq > ? AND type IN (${TYPES_SQL}) AND ${OWN} ORDER BY seq LIMIT ?`,
        through,
        FLUSH_MAX_MESSAGES,
      )
      .toArray();
    const full = rows.length === FLUSH_MAX_MESSAGES;
    const throughSeq = full ? (rows.at(-1)?.seq ?? through) : Math.max(latest, through);
    const reset = this.meta("presence_reset");
    const changed = this.sql.exec<{ user: string; v: number }>("SELECT user_id AS user, v FROM presence_changed").toArray();
    const people = new Map(changed.map((c) => [c.user, present.get(c.user) ?? 0]));
    if (reset !== null) for (const [user, n] of present) people.set(user, n);
    if (rows.length === 0 && throughSeq === through && people.size === 0 && reset === null) return false;
    const maxVersion = Math.max(Number(reset ?? 0), ...changed.map((c) => c.v));
    const prefix = roomKind(roomId);
    await faultPoint("room.flush.collected", this.env);
    await writeRoomFlush(await this.databaseOf(roomId), {
      roomId,
      epoch: Number(this.meta("epoch") ?? 0),
      throughSeq,
      messages: rows.map((r): FlushMessage => [r.seq, r.sender, r.type === "text" ? 1 : 0, r.at]),
      kind: prefix ? `message.${prefix}` : "message.other",
      area: prefix === "nearby" ? coarseArea(roomId.slice("nearby:".length)) : "",
      presence: [...people],
      presenceReset: reset !== null,
      now,
    });
    await faultPoint("room.flush.written", this.env);
    // Marked counted only now that D1 has it; changes made while the batch was out stay pending (newer version).
    this.storage.transactionSync(() => {
      this.setMeta("d1_through", String(throughSeq));
      this.sql.exec("DELETE FROM presence_changed WHERE v <= ?", maxVersion);
      if (reset !== null && Number(reset) <= maxVersion) this.sql.exec("DELETE FROM meta WHERE key = 'presence_reset'");
    });
    await faultPoint("room.flush.marked", this.env);
    return full;
  }

  /**
   * Where the room's minute goes: an area room's to its area's database (the shard map, read once a minute per
   * isolate: docs/decisions/058-beyond-one-database.md, docs/scale.md), shard 0 while no area is mapped; other rooms
   * to shard 0 until their readers follow (docs/scale.md).
   */
  private async databaseOf(roomId: string): Promise<Db> {
    if (roomKind(roomId) !== "nearby") return createDb(this.env);
    const cell = roomId.slice("nearby:".length).split("#")[0];
    return dbForArea(this.env as unknown as ShardEnv, cell);
  }

  /** Increasing across restarts (time-based), so a change made during a batch is never taken for a sent one. */
  private version(): number {
    this.lastVersion = Math.max(this.lastVersion + 1, Date.now());
    return this.lastVersion;
  }

  private meta(key: string): string | null {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }
}
