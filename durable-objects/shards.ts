// Shards of a busy area room (docs/decisions/043-room-speed-and-shards.md, "Sharding a busy area"). The area's own
// object (`nearby:<cell>`, shard 0, "the main room") takes sockets up to its budget; past it, the main room sends
// new people to numbered shards (`nearby:<cell>#<n>`, separate objects), adding one when all are full. Each shard
// stores, acks and fans out its own members' envelopes, then relays them to every sibling in one call per
// RELAY_WINDOW_MS; a sibling stores a relayed envelope under its own seq (deduped by id, as any resend) and fans it
// out, and never relays it on. Every shard so holds the whole cell's recent history, numbered its own way: a
// resume whose cursor counts another shard's seqs is translated (resumeAcross). MeshRoom calls this module; it
// keeps its own tables (shard_*) beside the room's.
import { MAX_RECEIPT_IDS } from "../core/frames";
import { planResume, RESUME_ITEM_OVERHEAD, RESUME_MAX_BYTES } from "./mesh-logic";

/** Sockets one object takes before new people go to a shard (decision 043: 2,000 sockets per busy area object). */
export const DEFAULT_ROOM_SOCKET_BUDGET = 2000;
/** A shard's accepted envelopes go to each sibling at most once per this window, in one call. */
export const RELAY_WINDOW_MS = 20;
/** A failed relay call is tried again after this long (the envelopes wait in the sender's storage). */
const RELAY_RETRY_MS = 1000;
/**
 * Envelopes per relay call, and about the bytes (one envelope alone may pass it): a call stays short, and a shard
 * that was unreachable catches up in steps rather than in one huge call.
 */
const RELAY_BATCH_ROWS = 200;
const RELAY_BATCH_BYTES = 1024 * 1024;
/** A shard tells the main room its socket count at most once per this window. */
const LOAD_REPORT_MS = 250;
/** Shards of one cell at most: past this the main room places people on the least loaded one. */
export const MAX_SHARDS = 64;
/** The main room's answer to an upgrade it sends elsewhere: the Worker opens the socket on this shard instead. */
export const SHARD_HEADER = "x-linkup-shard";
/** With SHARD_HEADER: how many shards the cell has, so the new shard knows its siblings at once. */
export const SHARD_COUNT_HEADER = "x-linkup-shards";

export type RelayItem = {
  /** The seq the envelope has in the shard that accepted it. */
  seq: number;
  /** When that shard stored it (ms): envelopes stored before the receiving shard existed are stored there quietly. */
  at: number;
  /** The stored envelope's JSON, as that shard keeps it. */
  body: string;
};
export interface RelayBatch {
  room: string;
  from: number;
  to: number;
  count: number;
  items: RelayItem[];
}
/** Receipts of readers on one shard for envelopes another shard accepted (whose senders are there). */
export interface ReceiptRelay {
  by: string;
  status: "delivered" | "read";
  ids: string[];
}
/** A page of a shard's history for a socket on a sibling (see resumeAcross). */
export interface AcrossPage {
  items: { seq: number; id: string; body: string }[];
  /** The seq (in the answering shard) up to which the page went. */
  cursor: number;
  more: boolean;
  /** Per origin shard, the highest of its seqs the answering shard had processed up to `cursor`. */
  vector: number[];
}

/** A shard's sockets and people, as it reports them to the main room. */
export interface LoadReport {
  shard: number;
  sockets: number;
  people: number;
}

/** What the sibling objects answer (MeshRoom's RPC methods that call into this module). */
export interface ShardSibling {
  relay(batch: RelayBatch): Promise<{ received: number; count: number }>;
  shardLoad(report: LoadReport): Promise<{ count: number }>;
  shardCount(count: number): Promise<void>;
  shardResume(cursor: number): Promise<AcrossPage>;
  relayReceipts(receipts: ReceiptRelay[]): Promise<void>;
  expel(userId: string, reason?: string): Promise<number>;
  forget(userId: string, wholeRoom: boolean): Promise<void>;
}

export interface ShardHost {
  /** Stores a sibling's envelope (deduped by id), fanned out to the sockets here unless `quiet`; its seq here, or null. */
  storeRelayed(body: string, quiet: boolean): number | null;
  /** Sockets connected to this object now. */
  socketCount(): number;
  /** People (distinct) with a socket here now. */
  peopleCount(): number;
  /** The object of shard n of `room`. */
  sibling(room: string, n: number): ShardSibling;
  /** The room id this object serves, once known. */
  room(): string | null;
  waitUntil(work: Promise<unknown>): void;
}

/** FNV-1a: a stable 32-bit hash (rendezvous placement needs the same answer in every isolate). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Which shard a person goes to: of the shards with room (load below budget), the one with the highest hash of
 * (person, shard). The order is the person's own and stays the same as shards are added (rendezvous hashing), so
 * their sockets, rate buckets and four-socket limit stay in one object while it has room, and adding a shard
 * moves only those whose first choice it becomes. Answers `loads.length` when every shard is full (add one).
 */
export function pickShard(userId: string, loads: number[], budget: number): number {
  let best = loads.length;
  let bestWeight = -1;
  for (let n = 0; n < loads.length; n++) {
    if ((loads[n] ?? 0) >= budget) continue;
    const weight = fnv1a(`${userId}#${n}`);
    if (weight > bestWeight) {
      best = n;
      bestWeight = weight;
    }
  }
  return best;
}

export class Shards {
  /** Sockets this cell's objects each take before new people go to another (tests lower it on the instance). */
  budget: number;
  private relayTimer: ReturnType<typeof setTimeout> | null = null;
  private relaying: Promise<void> | null = null;
  private relayAgain = false;
  private reportTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Upgrades this main room said yes to whose sockets are not in its set yet (the upgrade awaits in between): a
   * reconnect storm after a deploy must not all see the same count and all stay here.
   */
  private admitting = 0;
  /** Receipts waiting for the next relay window, per shard that accepted their envelopes. */
  private readonly receiptsOut = new Map<number, ReceiptRelay[]>();
  /** shard_state, read once per wake-up (asked on every store). */
  private readonly known = new Map<string, number>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly host: ShardHost,
    env: { ROOM_SOCKET_BUDGET?: string },
  ) {
    this.budget = Number(env.ROOM_SOCKET_BUDGET) > 0 ? Number(env.ROOM_SOCKET_BUDGET) : DEFAULT_ROOM_SOCKET_BUDGET;
    sql.exec("CREATE TABLE IF NOT EXISTS shard_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    // Per sibling: our seqs it has acknowledged (sent), its seqs we have taken in (received), its last reported load.
    sql.exec(`CREATE TABLE IF NOT EXISTS shard_peers (
      peer INTEGER PRIMARY KEY,
      sent INTEGER NOT NULL DEFAULT 0,
      received INTEGER NOT NULL DEFAULT 0,
      sockets INTEGER NOT NULL DEFAULT 0,
      people INTEGER NOT NULL DEFAULT 0
    )`);
    // Envelopes relayed in: which shard accepted each and under which of its seqs. Rows absent here are our own.
    sql.exec("CREATE TABLE IF NOT EXISTS shard_origin (seq INTEGER PRIMARY KEY, origin INTEGER NOT NULL, origin_seq INTEGER NOT NULL)");
    for (const r of sql.exec<{ key: string; value: number }>("SELECT key, value FROM shard_state")) this.known.set(r.key, r.value);
    // Woken with relays owed (evicted mid-window): they go out again.
    if (this.count > 1) this.scheduleRelay();
  }

  /** This object's shard number (0: the room's own object). */
  get index(): number {
    return this.state("index") ?? 0;
  }

  /** Shards the cell has, as far as this object knows (the main room decides it). */
  get count(): number {
    return this.state("count") ?? 1;
  }

  // ---------------------------------------------------------------- placement (the main room)

  /**
   * An upgrade reaching this object. On a shard it records who it is (the Worker passes `shard` and `shards`);
   * on the main room it places the person and answers a redirect to a shard, or null to take the socket here.
   * No D1 query: the main room knows its own sockets and the loads its shards last reported.
   */
  admit(url: URL, userId: string): Response | null {
    const asShard = Number(url.searchParams.get("shard") ?? 0);
    if (asShard > 0) {
      this.becomeShard(asShard);
      this.adoptCount(Number(url.searchParams.get("shards") ?? 0));
      return null;
    }
    if (this.index !== 0) return null;
    const count = this.count;
    const loads = [this.host.socketCount() + this.admitting];
    if (count === 1 && loads[0]! < this.budget) {
      this.admitting++;
      return null;
    }
    const rows = this.sql.exec<{ peer: number; sockets: number }>("SELECT peer, sockets FROM shard_peers").toArray();
    for (let n = 1; n < count; n++) loads.push(rows.find((r) => r.peer === n)?.sockets ?? 0);
    let shard = pickShard(userId, loads, this.budget);
    if (shard === count) {
      if (count < MAX_SHARDS) this.addShard(count + 1);
      else shard = loads.indexOf(Math.min(...loads));
    }
    if (shard === 0) {
      this.admitting++;
      return null;
    }
    // Counted at once, so the next upgrades see it before the shard's own report arrives (which then replaces it).
    this.sql.exec("INSERT INTO shard_peers (peer, sockets) VALUES (?, 1) ON CONFLICT (peer) DO UPDATE SET sockets = sockets + 1", shard);
    return new Response(null, { status: 307, headers: { [SHARD_HEADER]: String(shard), [SHARD_COUNT_HEADER]: String(this.count) } });
  }

  /** The first call naming this object's shard number (an upgrade or a relay, whichever comes first) records it. */
  private becomeShard(n: number): void {
    if (this.index === n) return;
    this.setState("index", n);
    this.setState("born", Date.now());
  }

  /** A socket admitted by admit() is in the room's set now (or its upgrade failed). */
  settled(): void {
    if (this.admitting > 0) this.admitting--;
  }

  /** The main room grows the cell by a shard and tells the existing ones, so they relay to it from now on. */
  private addShard(count: number): void {
    this.setState("count", count);
    const room = this.host.room();
    if (!room) return;
    for (let n = 1; n < count - 1; n++)
      this.host.waitUntil(
        this.host
          .sibling(room, n)
          .shardCount(count)
          .catch((err) => console.error("shard count not told", n, err)),
      );
    this.scheduleRelay();
  }

  /** A shard's socket count, reported to the main room; answers the cell's shard count. */
  load(report: LoadReport): { count: number } {
    this.sql.exec(
      `INSERT INTO shard_peers (peer, sockets, people) VALUES (?, ?, ?)
       ON CONFLICT (peer) DO UPDATE SET sockets = excluded.sockets, people = excluded.people`,
      report.shard,
      report.sockets,
      report.people,
    );
    return { count: this.count };
  }

  /**
   * On the main room: the sockets and people its shards last reported (a person with sockets on two shards counts
   * twice; placement keeps that rare). Zero elsewhere.
   */
  elsewhere(): { sockets: number; people: number } {
    if (this.index !== 0 || this.count <= 1) return { sockets: 0, people: 0 };
    return this.sql
      .exec<{ sockets: number; people: number }>(
        "SELECT COALESCE(SUM(sockets), 0) AS sockets, COALESCE(SUM(people), 0) AS people FROM shard_peers WHERE peer > 0",
      )
      .one();
  }

  /** Sockets of a shard changed: the main room hears the count within LOAD_REPORT_MS (one call per window). */
  noteLoad(): void {
    if (this.index === 0 || this.reportTimer) return;
    this.reportTimer = setTimeout(() => {
      this.reportTimer = null;
      const room = this.host.room();
      if (!room) return;
      const report = { shard: this.index, sockets: this.host.socketCount(), people: this.host.peopleCount() };
      this.host.waitUntil(
        this.host
          .sibling(room, 0)
          .shardLoad(report)
          .then((r) => this.adoptCount(r.count))
          .catch((err) => console.error("shard load not reported", err)),
      );
    }, LOAD_REPORT_MS);
  }

  adoptCount(count: number): void {
    if (Number.isInteger(count) && count > this.count && count <= MAX_SHARDS) {
      this.setState("count", count);
      this.scheduleRelay();
    }
  }

  /** Every other shard of the cell, when this is the main room (which the Worker's expel and forget reach). */
  others(): ShardSibling[] {
    const room = this.host.room();
    if (this.index !== 0 || !room) return [];
    return Array.from({ length: this.count - 1 }, (_, i) => this.host.sibling(room, i + 1));
  }

  // ---------------------------------------------------------------- relay

  /** After this shard accepted an envelope: it goes to the siblings with the next window's call. */
  scheduleRelay(): void {
    if (this.count <= 1 || this.relayTimer) return;
    this.relayTimer = setTimeout(() => {
      this.relayTimer = null;
      this.host.waitUntil(this.relay());
    }, RELAY_WINDOW_MS);
  }

  /** Sends each sibling our own envelopes it has not acknowledged, in seq order, in batches; one run at a time. */
  private relay(): Promise<void> {
    if (this.relaying) {
      this.relayAgain = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      try {
        do {
          this.relayAgain = false;
          const room = this.host.room();
          if (!room) return;
          const index = this.index;
          const peers = Array.from({ length: this.count }, (_, n) => n).filter((n) => n !== index);
          const results = await Promise.allSettled(
            peers.map(async (peer) => {
              await this.relayTo(room, index, peer);
              const receipts = this.receiptsOut.get(peer);
              this.receiptsOut.delete(peer);
              // Best effort, like a receipt to a socket that just closed: a lost one is sent again by the reader's next
              // receipt, and the sender's resume reads the receipts kept here.
              if (receipts?.length) await this.host.sibling(room, peer).relayReceipts(receipts);
            }),
          );
          if (results.some((r) => r.status === "rejected")) {
            console.error(
              "shard relay failed; retrying",
              results.find((r) => r.status === "rejected"),
            );
            setTimeout(() => this.scheduleRelay(), RELAY_RETRY_MS);
          }
        } while (this.relayAgain);
      } finally {
        this.relaying = null;
      }
    })();
    return this.relaying;
  }

  private async relayTo(room: string, index: number, peer: number): Promise<void> {
    for (;;) {
      const sent = this.sql.exec<{ sent: number }>("SELECT sent FROM shard_peers WHERE peer = ?", peer).toArray()[0]?.sent ?? 0;
      // Our own envelopes only (not in shard_origin): a relayed envelope is never relayed again, so no loops.
      let bytes = 0;
      const items: RelayItem[] = [];
      const rows = this.sql.exec<RelayItem>(
        `SELECT e.seq AS seq, e.stored_at AS at, e.body AS body FROM envelopes e
           WHERE e.seq > ? AND e.body IS NOT NULL AND NOT EXISTS (SELECT 1 FROM shard_origin o WHERE o.seq = e.seq)
           ORDER BY e.seq LIMIT ?`,
        sent,
        RELAY_BATCH_ROWS,
      );
      for (const row of rows) {
        if (items.length > 0 && bytes + row.body.length > RELAY_BATCH_BYTES) break;
        items.push(row);
        bytes += row.body.length;
      }
      if (items.length === 0) return;
      const answer = await this.host.sibling(room, peer).relay({ room, from: index, to: peer, count: this.count, items });
      this.sql.exec(
        "INSERT INTO shard_peers (peer, sent) VALUES (?, ?) ON CONFLICT (peer) DO UPDATE SET sent = MAX(sent, excluded.sent)",
        peer,
        answer.received,
      );
      this.adoptCount(answer.count);
    }
  }

  /**
   * A sibling's envelopes, in its seq order. Each is taken once: anything at or below the last seq taken from
   * that sibling is a retry and skipped; a duplicate id (the same envelope resent to two shards) is stored once.
   */
  receive(batch: RelayBatch): { received: number; count: number } {
    if (batch.to > 0) this.becomeShard(batch.to);
    this.adoptCount(batch.count);
    let received =
      this.sql.exec<{ received: number }>("SELECT received FROM shard_peers WHERE peer = ?", batch.from).toArray()[0]?.received ?? 0;
    const born = this.state("born") ?? 0;
    for (const item of batch.items) {
      if (item.seq <= received) continue;
      // Stored by a sibling before this shard existed: history for later resumes here, not news for its sockets.
      const seq = this.host.storeRelayed(item.body, item.at < born);
      if (seq !== null) this.sql.exec("INSERT INTO shard_origin (seq, origin, origin_seq) VALUES (?, ?, ?)", seq, batch.from, item.seq);
      received = item.seq;
    }
    this.sql.exec(
      "INSERT INTO shard_peers (peer, received) VALUES (?, ?) ON CONFLICT (peer) DO UPDATE SET received = excluded.received",
      batch.from,
      received,
    );
    return { received, count: this.count };
  }

  /**
   * A reader here sent receipts: those for envelopes another shard accepted go to that shard (their sender's
   * sockets are there) with the next relay window.
   */
  forwardReceipts(by: string, status: ReceiptRelay["status"], ids: string[]): void {
    if (this.count <= 1) return;
    const rows = this.sql.exec<{ origin: number; id: string }>(
      `SELECT o.origin AS origin, e.id AS id FROM envelopes e JOIN shard_origin o ON o.seq = e.seq
       WHERE e.id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(ids),
    );
    for (const r of rows) {
      const list = this.receiptsOut.get(r.origin) ?? [];
      const last = list.at(-1);
      if (last && last.by === by && last.status === status && last.ids.length < MAX_RECEIPT_IDS) last.ids.push(r.id);
      else list.push({ by, status, ids: [r.id] });
      this.receiptsOut.set(r.origin, list);
    }
    if (this.receiptsOut.size > 0) this.scheduleRelay();
  }

  /** Mapping rows of envelopes the room has pruned go with them. */
  prune(): void {
    this.sql.exec("DELETE FROM shard_origin WHERE seq < (SELECT COALESCE(MIN(seq), 0) FROM envelopes)");
  }

  // ---------------------------------------------------------------- resume across shards

  /**
   * Per origin shard, the highest of its seqs this object had taken in up to its own seq `cursor`. Relays run in
   * each origin's seq order without gaps, so a socket that had everything here up to `cursor` has every envelope
   * of origin o up to vector[o] (from here, or an earlier copy with the same id).
   */
  vectorAt(cursor: number): number[] {
    const vector = Array.from({ length: this.count }, () => 0);
    vector[this.index] = cursor;
    for (const r of this.sql.exec<{ origin: number; top: number }>(
      "SELECT origin, MAX(origin_seq) AS top FROM shard_origin WHERE seq <= ? GROUP BY origin",
      cursor,
    ))
      if (r.origin !== this.index) vector[r.origin] = Math.max(vector[r.origin] ?? 0, r.top);
    return vector;
  }

  /** RPC from a sibling: one page (emergencies first) of what is stored here after `cursor`, with its vector. */
  page(cursor: number, budget = RESUME_MAX_BYTES): AcrossPage {
    const rows = (where: string) =>
      this.sql.exec<{ seq: number; id: string; body: string }>(
        `SELECT seq, id, body FROM envelopes WHERE seq > ? AND body IS NOT NULL AND ${where} ORDER BY seq`,
        cursor,
      );
    const plan = planResume(rows("(type = 'emergency' OR priority = 'high')"), rows("1"), sizeOf, budget);
    const latest = this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM envelopes").one().seq ?? 0;
    const upTo = plan.more && plan.cursor !== null ? plan.cursor : Math.max(latest, cursor);
    return { items: plan.items, cursor: upTo, more: plan.more, vector: this.vectorAt(upTo) };
  }

  /**
   * A resume here whose cursor counts shard `from`'s seqs (the person was there before). That shard answers a
   * page of what it has after the cursor, with its vector; this one then adds what it holds beyond that vector
   * (its own members' newest envelopes and relays not yet there). Answers null when `from` is this shard.
   */
  async resumeAcross(from: number, cursor: number): Promise<AcrossPage | null> {
    if (from === this.index) return null;
    const room = this.host.room();
    // A shard the cell never had (or an unknown room): the cursor says nothing here; all history is sent.
    if (!room || from >= this.count) return { items: [], cursor: 0, more: false, vector: [] };
    return this.host.sibling(room, from).shardResume(cursor);
  }

  /**
   * Rows stored here beyond `vector` (see vectorAt), in seq order, for `where` (a condition on the envelopes
   * row `e`): what a socket arriving with a sibling's cursor may not have.
   */
  rowsBeyond(vector: number[], where: string): Iterable<{ seq: number; id: string; body: string }> {
    return this.sql.exec<{ seq: number; id: string; body: string }>(
      `SELECT e.seq AS seq, e.id AS id, e.body AS body FROM envelopes e LEFT JOIN shard_origin o ON o.seq = e.seq
       WHERE e.body IS NOT NULL AND ${where} AND CASE WHEN o.seq IS NULL THEN e.seq > ?
         ELSE o.origin_seq > COALESCE(json_extract(?, '$[' || o.origin || ']'), 0) END
       ORDER BY e.seq`,
      vector[this.index] ?? 0,
      JSON.stringify(vector),
    );
  }

  // ---------------------------------------------------------------- state

  private state(key: string): number | undefined {
    return this.known.get(key);
  }

  private setState(key: string, value: number): void {
    this.known.set(key, value);
    this.sql.exec("INSERT INTO shard_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }
}

const utf8 = new TextEncoder();
const sizeOf = (r: { body: string }) => utf8.encode(r.body).byteLength + RESUME_ITEM_OVERHEAD;
