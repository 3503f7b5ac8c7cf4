// The disappearing-messages section of MeshRoom (docs/decisions/040-disappearing-messages.md): the chat's timer,
// the expiry the room stamps on each message sent under it, and the sweep that drops expired messages from the
// room's storage. Kept apart from mesh-room.ts, which calls it when storing, resuming and on its alarm.
import { DISAPPEAR_MS, type DisappearTimer, DisappearTimerSchema } from "../core/disappearing";

const TIMER_KEY = "disappear";

/**
 * How long messages live under a timer. Only in development a test may shorten the shortest timer (1 hour) with
 * DISAPPEARING_TEST_HOUR_MS, so a browser test can watch a message vanish; production always uses DISAPPEAR_MS.
 */
export function timerMs(timer: DisappearTimer, env: { ENVIRONMENT?: string; DISAPPEARING_TEST_HOUR_MS?: string }): number {
  const shortened = Number(env.DISAPPEARING_TEST_HOUR_MS);
  if (timer === "1hour" && env.ENVIRONMENT === "development" && Number.isInteger(shortened) && shortened > 0) return shortened;
  return DISAPPEAR_MS[timer];
}

export class Disappearing {
  // Read once per instance: every message of a private room asks for it on the send path.
  private current: DisappearTimer | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly env: { ENVIRONMENT?: string; DISAPPEARING_TEST_HOUR_MS?: string },
  ) {
    // Expiries apart from `envelopes`, so rooms created before this feature need no change to that table.
    sql.exec("CREATE TABLE IF NOT EXISTS expiries (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
    sql.exec("CREATE INDEX IF NOT EXISTS expiries_at ON expiries (expires_at)");
  }

  timer(): DisappearTimer {
    if (this.current === null) {
      const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", TIMER_KEY).toArray()[0];
      const parsed = DisappearTimerSchema.safeParse(row?.value);
      this.current = parsed.success ? parsed.data : "never";
    }
    return this.current;
  }

  /** Reads the timer again from storage (after the room's storage was wiped underneath). */
  reload(): void {
    this.current = null;
  }

  /** Sets the timer; answers whether it changed (an unchanged timer is not announced again). */
  setTimer(timer: DisappearTimer): boolean {
    if (timer === this.timer()) return false;
    if (timer === "never") this.sql.exec("DELETE FROM meta WHERE key = ?", TIMER_KEY);
    else
      this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", TIMER_KEY, timer);
    this.current = timer;
    return true;
  }

  /** The expiry of a message stored now under the current timer, or undefined when the timer is off. */
  expiryFor(now: number): number | undefined {
    const ms = timerMs(this.timer(), this.env);
    return ms > 0 ? now + ms : undefined;
  }

  /** Remembers a stored message's expiry for the sweep. */
  track(id: string, expiresAt: number): void {
    this.sql.exec("INSERT INTO expiries (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", id, expiresAt);
  }

  /** The expiry of a stored message still to disappear, or undefined. */
  expiryOf(id: string): number | undefined {
    return this.sql.exec<{ at: number }>("SELECT expires_at AS at FROM expiries WHERE id = ?", id).toArray()[0]?.at;
  }

  /**
   * Drops the bodies and receipts of every message expired by `now`. The row's id stays (as after pruning) so a
   * late resend of the same id is a duplicate and never brings the message back. Answers the ids dropped.
   */
  sweep(now: number): string[] {
    const ids = this.sql
      .exec<{ id: string }>("SELECT id FROM expiries WHERE expires_at <= ?", now)
      .toArray()
      .map((r) => r.id);
    if (ids.length === 0) return ids;
    const list = JSON.stringify(ids);
    this.sql.exec("UPDATE envelopes SET body = NULL WHERE id IN (SELECT value FROM json_each(?))", list);
    this.sql.exec("DELETE FROM receipts WHERE envelope_id IN (SELECT value FROM json_each(?))", list);
    this.sql.exec("DELETE FROM expiries WHERE expires_at <= ?", now);
    return ids;
  }

  /** The next expiry still to come, for the room's alarm. */
  next(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT MIN(expires_at) AS at FROM expiries").one().at ?? null;
  }
}
