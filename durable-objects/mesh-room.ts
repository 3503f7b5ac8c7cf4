// MeshRoom: one Durable Object per room (docs/architecture.md §5), WebSocket hibernation API, frame protocol in
// core/frames.ts. The room keeps its recent envelopes in its own SQLite storage for store-and-forward and
// resume, acknowledges each envelope once stored, relays receipts to senders and tracks presence. The room is the
// record of its messages: counts and presence reach D1 in one batch a minute at most, from its alarm
// (durable-objects/room-flush.ts, docs/decisions/056-the-room-is-the-record-of-its-messages.md).
import { DurableObject } from "cloudflare:workers";
import { type Envelope, EnvelopeSchema } from "../core/envelope";
import { dmPeer, nearbyRoomId, roomKind, shardObjectName } from "../core/room-ids";
import {
  type ClientFrame,
  encodeFrame,
  type FrameErrorCode,
  type PresenceMember,
  PRESENCE_MEMBER_LIMIT,
  PRESENCE_PAGE_SIZE,
  MAX_ENVELOPE_BYTES,
  parseClientFrame,
  RESUME_BATCH_SIZE,
  type ReceiptProof,
  type ReceiptSignature,
  type ReceiptStatus,
  type ServerFrame,
} from "../core/frames";
import { newId } from "../core/ids";
import { forgetPerson } from "./forget";
import { Disappearing } from "./disappearing";
import type { DisappearTimer, DisappearingMeta } from "../core/disappearing";
import { CallSwitch } from "./calls";
import { REQUEST_PUSH_KEY, RequestGate } from "./requests";
import { type AcrossPage, type LoadReport, type ReceiptRelay, type RelayBatch, Shards, type ShardSibling } from "./shards";
import { createDb } from "../db";
import { type FlushEnv, MESSAGE_TYPES, RoomFlusher } from "./room-flush";
import { presentRoomsOf } from "../db/queries/room-activity";
import { findUserById } from "../db/queries/users";
import type { RoomEffects } from "./room-effects";
import {
  type Bucket,
  batchBySize,
  DEDUPE_MEMORY_MS,
  fullBucket,
  isPrivateRoom,
  mergeReceipt,
  normaliseEnvelope,
  pruneBounds,
  RESUME_BATCH_BYTES,
  RESUME_ITEM_OVERHEAD,
  RESUME_MAX_BYTES,
  receiptsBySender,
  refuseEnvelope,
  refuseServerEnvelope,
  PERSON_RATE,
  planResume,
  RESUME_RATE,
  socketsToReplace,
  CLOSE_NOT_MEMBER,
  CLOSE_REPLACED,
  stampMemberEnvelope,
  systemLine,
  takeToken,
} from "./mesh-logic";

interface Attachment {
  userId: string;
  nickname: string;
  roomId: string;
  /** The socket's id (calls name a party by it). */
  connId: string;
  /** When the socket joined (ms), so the oldest of a person's sockets is the one replaced. */
  openedAt: number;
}

const MESSAGE_TYPE_SET = new Set<string>(MESSAGE_TYPES);
const PRUNE_EVERY = 100;
/** People whose rate buckets the room keeps before dropping idle ones. */
const MAX_BUCKETS = 5000;
/** Idle this long, a person's buckets are full again (RESUME_RATE refills slowest: 8 at 0.25/s). */
const BUCKET_REFILLED_MS = (RESUME_RATE.burst / RESUME_RATE.perSecond) * 1000;
const utf8 = new TextEncoder();
/** Joins and leaves within this window share one presence delta (a room of N joining is not N² frames). */
const PRESENCE_DEBOUNCE_MS = 100;

/**
 * The room without its wiring: the Worker exports it with its effects (workers/rooms/mesh-room.ts), since the
 * runtime builds a Durable Object from `(ctx, env)` alone.
 */
export class MeshRoom extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /**
   * Rate buckets per person (all their sockets share them), in memory: after hibernation everyone has been
   * idle, so a full bucket is right. Kept after a person leaves, so reconnecting never refills them.
   */
  private readonly buckets = new Map<string, { frames: Bucket; resumes: Bucket }>();
  private readonly flusher: RoomFlusher;
  private presenceTimer: ReturnType<typeof setTimeout> | null = null;
  /** People who joined or left since the last presence delta. */
  private readonly presenceChanged = new Set<string>();
  /** The room's sockets, read once per wake-up from the runtime and kept current on join/leave. */
  private socketSet: Set<WebSocket> | null = null;
  /** Whether this instance has looked for sockets lost while it was down (once, at its first upgrade). */
  private presenceChecked = false;
  private readonly calls: CallSwitch;
  private readonly disappearing: Disappearing;
  private readonly requests: RequestGate;
  /** A busy area's shards (durable-objects/shards.ts); public so tests can lower its budget on the instance. */
  readonly shards: Shards;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    /** What the room asks of the Worker (durable-objects/room-effects.ts); tests may swap in a fake. */
    public effects: RoomEffects,
  ) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS envelopes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      sender_id TEXT NOT NULL,
      type TEXT NOT NULL,
      priority TEXT NOT NULL,
      stored_at INTEGER NOT NULL,
      body TEXT
    )`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS receipts (
      envelope_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      status TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (envelope_id, user_id)
    )`);
    // A group's receipts come signed per envelope (docs/protocol.md §7b): the signature of the status kept above,
    // handed back with it on resume. Its own table, so rooms made before it need no column added.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS receipt_proofs (
      envelope_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      status TEXT NOT NULL,
      device TEXT NOT NULL,
      signed_at INTEGER NOT NULL,
      sig TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (envelope_id, user_id)
    )`);
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.requests = new RequestGate(this.sql);
    this.flusher = new RoomFlusher(this.sql, ctx.storage, env as FlushEnv, (at) => this.scheduleAlarm(at), {
      countD1WriteFailed: (db) => this.effects.countD1WriteFailed(db),
    });
    // A bare ping is answered without waking a hibernated room.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    this.calls = new CallSwitch({
      sql: this.sql,
      env,
      ctx,
      sockets: () => this.sockets(),
      send: (ws, frame) => this.send(ws, frame),
      error: (ws, code, message, id, retryAfterMs) => this.error(ws, code, message, id, retryAfterMs),
      storeSystem: async (envelope) => {
        this.store(envelope, null);
      },
      db: () => createDb(env),
      scheduleAlarm: (at) => this.scheduleAlarm(at),
      effects: { notify: (...args) => this.effects.notify(...args) },
    });
    this.shards = new Shards(
      this.sql,
      {
        storeRelayed: (body, quiet) => {
          const result = this.store(JSON.parse(body) as Envelope, null, { quiet });
          return result.duplicate ? null : result.seq;
        },
        socketCount: () => this.sockets().size,
        peopleCount: () => this.present().members.length,
        sibling: (room, n) => env.ROOMS.get(env.ROOMS.idFromName(shardObjectName(room, n))) as unknown as ShardSibling,
        room: () => this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'room'").toArray()[0]?.value ?? null,
        waitUntil: (work) => ctx.waitUntil(work),
      },
      env,
    );
    this.disappearing = new Disappearing(this.sql, env as Env & { ENVIRONMENT?: string; DISAPPEARING_TEST_HOUR_MS?: string });
  }

  /**
   * One alarm serves three sections: the calls section's ring timeout (docs/decisions/024-calls-through-the-room.md),
   * the expiry of disappearing messages (docs/decisions/040-disappearing-messages.md) and the D1 batch
   * (docs/decisions/056-the-room-is-the-record-of-its-messages.md). Each asks for a time through scheduleAlarm,
   * which keeps the earliest; here each does its due work and asks again.
   */
  async alarm(): Promise<void> {
    await this.calls.alarm();
    await this.expire(Date.now());
    await this.flusher.onAlarm(this.d1RoomKey(), () => this.socketCounts());
    const next = this.disappearing.next();
    if (next !== null) await this.scheduleAlarm(next);
  }

  /** Sets the alarm to `at` unless one is already due earlier (inside alarm() none is set until asked again). */
  private async scheduleAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  /** Drops expired messages from the room's storage (D1 holds no message content). */
  private async expire(now: number): Promise<void> {
    this.disappearing.sweep(now);
  }

  /** The chat's disappearing-messages timer. */
  async disappearingTimer(): Promise<DisappearTimer> {
    return this.disappearing.timer();
  }

  /**
   * A member sets the chat's timer (the Worker checked membership and that the room is private). A change is
   * announced in the chat by a server line with no content (private rooms carry no server plain text); devices
   * word it from its meta. Messages stored from now on carry the new expiry; earlier ones keep theirs.
   */
  async setDisappearing(input: {
    roomId: string;
    timer: DisappearTimer;
    by: string;
    byName: string;
  }): Promise<{ timer: DisappearTimer; changed: boolean }> {
    this.rememberRoom(input.roomId);
    const changed = this.disappearing.setTimer(input.timer);
    if (changed) {
      const meta: DisappearingMeta = { event: "disappearing", by: input.by, byName: input.byName.slice(0, 60), timer: input.timer };
      this.store(systemLine(input.roomId, meta), null);
    }
    return { timer: input.timer, changed };
  }

  /** Health probe and WebSocket upgrades (the Worker has authenticated the user and checked membership). */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("Expected WebSocket", { status: 426 });
    const userId = url.searchParams.get("user");
    const roomId = url.searchParams.get("room");
    if (!userId || !roomId) return new Response("Missing user or room", { status: 400 });
    this.rememberRoom(roomId);
    // The Worker hands over the message request's state as D1 has it, at every upgrade (docs/decisions/050-…).
    if (roomKind(roomId) === "dm") this.requests.set(url.searchParams.get("request"));
    // A busy area's main room may send the socket to one of its shards (the Worker then opens it there).
    const elsewhere = roomKind(roomId) === "nearby" ? this.shards.admit(url, userId) : null;
    if (elsewhere) return elsewhere;

    // Woken with no sockets, the room may have been torn down with them (no close events): every presence row it
    // wrote is stale, and its next batch replaces them (docs/decisions/056-…). Once per instance, before any join.
    if (!this.presenceChecked) {
      this.presenceChecked = true;
      if (this.sockets().size === 0) this.flusher.presenceReset();
    }
    const pair = new WebSocketPair();
    const server = pair[1];
    const attachment: Attachment = {
      userId,
      nickname: url.searchParams.get("nickname") ?? "",
      roomId,
      connId: newId(),
      openedAt: Date.now(),
    };
    await this.replaceOldestSockets(userId);
    this.ctx.acceptWebSocket(server, [userId]);
    // Back in the direct chat: the next message while away may push again.
    this.sql.exec("DELETE FROM meta WHERE key = ?", dmPushKey(userId));
    server.serializeAttachment(attachment);
    this.sockets().add(server);
    this.shards.settled();
    this.send(server, {
      type: "hello",
      room: roomId,
      userId,
      latestSeq: this.latestSeq(),
      encrypted: isPrivateRoom(roomId),
      ...(this.shards.index > 0 ? { shard: this.shards.index } : {}),
    });
    this.send(server, this.presencePage());
    this.schedulePresence(userId);
    this.shards.noteLoad();
    // No D1 write on connect: the person's socket count goes with the room's next batch.
    this.flusher.presenceChanged(userId);
    this.flusher.schedule();
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** One frame from a member: checked, rate-limited, then handled; every refusal is an error frame. */
  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const me = ws.deserializeAttachment() as Attachment;
    const parsed = parseClientFrame(raw);
    const limited = this.takeToken(me.userId, "frames");
    if (limited) return this.error(ws, "rate_limited", "Too many messages. Slow down a little.", undefined, limited);
    if (parsed.ok && parsed.frame.type === "resume") {
      const wait = this.takeToken(me.userId, "resumes");
      if (wait) return this.error(ws, "rate_limited", "Too many catch-ups at once. Trying again shortly.", undefined, wait);
    }
    if (!parsed.ok) return this.error(ws, parsed.code, parsed.message);
    await this.handle(ws, me, parsed.frame);
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    await this.leave(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // Already closed.
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    await this.leave(ws);
  }

  /**
   * Server-side delivery (SOS, system notices, assistant replies): stores and relays an envelope exactly like
   * a member's send (deduped by id). Answers how many sockets it reached and its seq. The SOS and assistant
   * modules call this through the ROOMS binding.
   */
  async deliver(input: Envelope): Promise<{ delivered: number; seq: number; duplicate: boolean }> {
    const envelope = normaliseEnvelope(EnvelopeSchema.parse(input));
    const refused = refuseServerEnvelope(envelope);
    if (refused) throw new Error(refused.message);
    this.rememberRoom(envelope.room);
    return this.store(envelope, null);
  }

  /**
   * Closes a person's sockets here (they left the group, or were blocked in this direct chat). The Worker
   * checks membership (and bans) on every upgrade, so they cannot come back in. `reason` is the close reason
   * the client may show.
   */
  async expel(userId: string, reason = "No longer in this room"): Promise<number> {
    const open = this.ctx.getWebSockets(userId);
    for (const ws of open) {
      try {
        ws.close(CLOSE_NOT_MEMBER, reason);
      } catch {
        // Already closing.
      }
      await this.leave(ws);
    }
    // The main room of a sharded area reaches the person's sockets on its shards too.
    let elsewhere = 0;
    for (const shard of this.shards.others()) elsewhere += await shard.expel(userId, reason);
    return open.length + elsewhere;
  }

  /**
   * A direct chat elsewhere got a message for `userId`, who has no socket there but has one here: tell their
   * sockets here, so the chat appears and opens live (issue 32). Answers how many sockets heard it.
   */
  async chatWaiting(userId: string, room: string, fromName: string): Promise<number> {
    const open = this.ctx.getWebSockets(userId);
    for (const ws of open) this.send(ws, { type: "chat-waiting", room, fromName });
    return open.length;
  }

  /** A message request was accepted (`null`) or started (the requester's id): docs/decisions/050-…. */
  async setRequest(from: string | null): Promise<void> {
    this.requests.set(from);
  }

  /** Drops a person who deleted their account: their sockets, then their stored envelopes (durable-objects/forget.ts). */
  async forget(userId: string, wholeRoom: boolean): Promise<void> {
    // Sockets are tagged with their person's id (see fetch): a direct chat that goes whole closes both sides.
    const people = wholeRoom ? new Set(this.ctx.getWebSockets().flatMap((ws) => this.ctx.getTags(ws))) : new Set([userId]);
    for (const person of people) await this.expel(person);
    // Their messages not yet counted in D1 go with them; the account deletion removes what was counted.
    forgetPerson(this.sql, userId, wholeRoom);
    this.disappearing.reload();
    for (const shard of this.shards.others()) await shard.forget(userId, wholeRoom);
  }

  // ---------------------------------------------------------------- shards (durable-objects/shards.ts)

  /** A sibling shard's envelopes, relayed in its seq order: taken in whole or not at all (a retry starts over). */
  async relay(batch: RelayBatch): Promise<{ received: number; count: number }> {
    this.rememberRoom(batch.room);
    return this.ctx.storage.transactionSync(() => this.shards.receive(batch));
  }

  /** A shard's socket count, reported to the main room; answers the cell's shard count. */
  async shardLoad(report: LoadReport): Promise<{ count: number }> {
    return this.shards.load(report);
  }

  /** The main room added a shard: relay to it too from now on. */
  async shardCount(count: number): Promise<void> {
    this.shards.adoptCount(count);
  }

  /** Receipts of readers on a sibling shard for envelopes accepted here: kept, and told to their senders here. */
  async relayReceipts(receipts: ReceiptRelay[]): Promise<void> {
    for (const r of receipts) this.receipt({ userId: r.by }, r.status, r.ids);
  }

  /** A page of this shard's history after `cursor`, for a socket on a sibling that was here before. */
  async shardResume(cursor: number): Promise<AcrossPage> {
    await this.expire(Date.now());
    return this.shards.page(cursor);
  }

  /**
   * The person's own messages this room still keeps, for their data export: the room is the record of its
   * messages (docs/decisions/056-the-room-is-the-record-of-its-messages.md). Private rooms hold ciphertext only.
   */
  async sentBy(userId: string): Promise<{ roomId: string; seq: number; storedAt: number; envelope: Envelope }[]> {
    const roomId = this.roomId() ?? "";
    return this.sql
      .exec<{ seq: number; at: number; body: string }>(
        "SELECT seq, stored_at AS at, body FROM envelopes WHERE sender_id = ? AND body IS NOT NULL ORDER BY seq",
        userId,
      )
      .toArray()
      .map((r) => ({ roomId, seq: r.seq, storedAt: r.at, envelope: JSON.parse(r.body) as Envelope }));
  }

  /** Live figures for /mesh-network: sockets and people present, envelopes kept, deliveries made to sockets. */
  async stats(): Promise<{ nodes: number; people: number; present: PresenceMember[]; latestSeq: number; stored: number; relayed: number }> {
    const presence = this.present();
    const stored = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM envelopes WHERE body IS NOT NULL").one().n;
    const relayed = this.sql.exec<{ v: string }>("SELECT value AS v FROM meta WHERE key = 'relayed'").toArray()[0];
    // A sharded area's main room adds what its shards last reported: the figures are the cell's (durable-objects/shards.ts).
    const elsewhere = this.shards.elsewhere();
    return {
      nodes: presence.nodes + elsewhere.sockets,
      people: presence.members.length + elsewhere.people,
      present: presence.members.slice(0, PRESENCE_MEMBER_LIMIT),
      latestSeq: this.latestSeq(),
      stored,
      relayed: Number(relayed?.v ?? 0),
    };
  }

  // ---------------------------------------------------------------- frames

  private async handle(ws: WebSocket, me: Attachment, frame: ClientFrame): Promise<void> {
    switch (frame.type) {
      case "send": {
        const refused = refuseEnvelope(frame.envelope, me);
        if (refused) return this.error(ws, refused.code, refused.message, frame.envelope.id);
        const waiting = this.requests.refuseSend(me.userId, frame.envelope);
        if (waiting) return this.error(ws, waiting.code, waiting.message, frame.envelope.id);
        const envelope = stampMemberEnvelope(frame.envelope, me);
        let result: { seq: number; duplicate: boolean; expiresAt?: number };
        try {
          result = this.store(envelope, ws);
        } catch (err) {
          if (err instanceof TooLarge) return this.error(ws, "too_large", err.message, envelope.id);
          console.error("MeshRoom store failed", err);
          return this.error(ws, "internal", "The room could not store this message. It will be resent.", envelope.id);
        }
        this.send(ws, {
          type: "ack",
          id: envelope.id,
          status: "sent",
          seq: result.seq,
          ...(result.duplicate ? { duplicate: true } : {}),
          ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}),
        });
        if (!result.duplicate) this.pushDirectMessage(envelope, me);
        return;
      }
      case "resume":
        return this.resume(ws, me, frame.cursor, frame.shard ?? 0);
      case "receipt":
        if (this.requests.quiet()) return;
        return this.receipt(me, frame.status, frame.ids, true, frame.proof);
      case "ping":
        this.send(ws, { type: "pong", at: frame.at });
        if (frame.presence) this.send(ws, this.presencePage(frame.after));
        return;
      case "typing": {
        if (this.requests.quiet()) return;
        // A direct chat's typing frame carries its device's signature; the room passes it on as it came.
        const proof = frame.proof ? { proof: frame.proof } : {};
        const out = encodeFrame({ type: "typing", userId: me.userId, nickname: me.nickname, active: frame.active, ...proof });
        for (const other of this.sockets()) if (other !== ws) this.sendRaw(other, out);
        return;
      }
      default:
        return this.calls.handle(ws, me, frame);
    }
  }

  /**
   * Stores an envelope once (by id) and relays it to every socket but its origin. `relayed`: a sibling shard's
   * envelope (durable-objects/shards.ts), its metadata already recorded there; `quiet` ones go to no socket.
   */
  private store(
    envelope: Envelope,
    origin: WebSocket | null,
    relayed?: { quiet: boolean },
  ): { delivered: number; seq: number; duplicate: boolean; expiresAt?: number } {
    const now = Date.now();
    envelope = this.withExpiry(envelope, now);
    const body = JSON.stringify(envelope);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most bodies need no encoding to pass the size check.
    if (body.length * 3 > MAX_ENVELOPE_BYTES && utf8.encode(body).byteLength > MAX_ENVELOPE_BYTES) throw new TooLarge();
    // One statement both dedupes (by id) and stores; a resend finds its first seq.
    const inserted = this.sql
      .exec<{ seq: number }>(
        "INSERT INTO envelopes (id, sender_id, type, priority, stored_at, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING seq",
        envelope.id,
        envelope.senderId,
        envelope.type,
        envelope.priority,
        now,
        body,
      )
      .toArray()[0];
    if (!inserted) {
      const existing = this.sql.exec<{ seq: number }>("SELECT seq FROM envelopes WHERE id = ?", envelope.id).one();
      // A resend whose first ack was lost still learns its expiry.
      const expiresAt = this.disappearing.expiryOf(envelope.id);
      return { delivered: 0, seq: existing.seq, duplicate: true, ...(expiresAt ? { expiresAt } : {}) };
    }
    const { seq } = inserted;
    const frame = `{"type":"envelope","seq":${seq},"envelope":${body}}`;
    let delivered = 0;
    for (const ws of relayed?.quiet ? [] : this.sockets()) {
      if (ws === origin) continue;
      if (this.sendRaw(ws, frame)) delivered++;
    }
    // The envelope row is the D1 batch's pending record; the relayed figure and the flush alarm are written in the
    // same synchronous step, so the room's storage commits them together (docs/decisions/056-…).
    if (delivered > 0)
      this.sql.exec(
        "INSERT INTO meta (key, value) VALUES ('relayed', ?) ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value",
        delivered,
      );
    if (MESSAGE_TYPE_SET.has(envelope.type) && !relayed) this.flusher.schedule(now);
    if (!relayed) this.shards.scheduleRelay();
    if (envelope.expiresAt !== undefined) {
      this.disappearing.track(envelope.id, envelope.expiresAt);
      this.ctx.waitUntil(this.scheduleAlarm(envelope.expiresAt));
    }
    if (seq % PRUNE_EVERY === 0) {
      this.prune(seq, now);
      this.shards.prune();
    }
    return { delivered, seq, duplicate: false, ...(envelope.expiresAt ? { expiresAt: envelope.expiresAt } : {}) };
  }

  /**
   * The envelope as stored: chat messages of a private room sent while its timer is on carry the room's expiry;
   * anything else carries none. Key handouts never expire (later messages of the same chain need them), nor
   * does the line announcing a timer.
   */
  private withExpiry(envelope: Envelope, now: number): Envelope {
    const { expiresAt: _given, ...rest } = envelope;
    const announcement = envelope.meta?.event === "disappearing";
    if (!isPrivateRoom(envelope.room) || !MESSAGE_TYPE_SET.has(envelope.type) || announcement) return rest;
    const expiresAt = this.disappearing.expiryFor(now);
    return expiresAt === undefined ? rest : { ...rest, expiresAt };
  }

  /**
   * What was missed after the cursor (emergencies first), at most RESUME_MAX_BYTES of it, then resume-done with
   * the cursor to continue from (`more` when the client should resume again) and the user's receipts.
   */
  private async resume(ws: WebSocket, me: Attachment, cursor: number, cursorShard = 0): Promise<void> {
    // Expired messages go before anything is read, so a late alarm never lets one be resumed.
    await this.expire(Date.now());
    const urgent = "(type = 'emergency' OR priority = 'high')";
    const size = (r: { body: string }) => utf8.encode(r.body).byteLength + RESUME_ITEM_OVERHEAD;
    // A cursor of another shard of this area (durable-objects/shards.ts): that shard answers from it first.
    const shard = this.shards.index;
    const across: AcrossPage | null = roomKind(me.roomId) === "nearby" ? await this.shards.resumeAcross(cursorShard, cursor) : null;
    const sendBatches = (items: { seq: number; body: string }[]) => {
      for (const batch of batchBySize(items, RESUME_BATCH_SIZE, RESUME_BATCH_BYTES, size)) {
        // Stored bodies are already-validated envelope JSON: spliced in, not parsed and re-serialised.
        this.sendRaw(ws, `{"type":"resume-batch","items":[${batch.map((r) => `{"seq":${r.seq},"envelope":${r.body}}`).join(",")}]}`);
      }
    };
    if (across) {
      sendBatches(across.items);
      // Still counting that shard's seqs: the client resumes again with them.
      if (across.more) return this.send(ws, { type: "resume-done", cursor: across.cursor, receipts: [], more: true, shard: cursorShard });
    }
    const sentAcross = new Set(across?.items.map((i) => i.id));
    const rows = (where: string): Iterable<{ seq: number; body: string }> =>
      across
        ? unsent(this.shards.rowsBeyond(across.vector, where.replace(/\b(type|priority)\b/g, "e.$1")), sentAcross)
        : this.sql.exec<{ seq: number; body: string }>(
            `SELECT seq, body FROM envelopes WHERE seq > ? AND body IS NOT NULL AND ${where} ORDER BY seq`,
            cursor,
          );
    const acrossBytes = across ? across.items.reduce((sum, r) => sum + size(r), 0) : 0;
    // Rows stream from SQLite; only what fits in one answer is held.
    const plan = planResume(rows(urgent), rows("1"), size, Math.max(RESUME_MAX_BYTES - acrossBytes, 1));
    sendBatches(plan.items);
    const receiptRows = this.sql
      .exec<{ id: string; status: ReceiptStatus; by: string; device: string | null; signedAt: number | null; sig: string | null }>(
        `SELECT e.id AS id, r.status AS status, r.user_id AS by, p.device AS device, p.signed_at AS signedAt, p.sig AS sig
         FROM envelopes e
         JOIN receipts r ON r.envelope_id = e.id
         LEFT JOIN receipt_proofs p ON p.envelope_id = r.envelope_id AND p.user_id = r.user_id AND p.status = r.status
         WHERE e.sender_id = ? AND e.seq > ? - 1000 ORDER BY e.seq`,
        me.userId,
        this.latestSeq(),
      )
      .toArray();
    const best = new Map<string, { id: string; status: ReceiptStatus; by: string; proof?: ReceiptSignature }>();
    for (const { device, signedAt, sig, ...r } of receiptRows) {
      const current = best.get(r.id);
      const proof = device && sig && signedAt !== null ? { proof: { device, at: signedAt, sig } } : {};
      // The strongest status per envelope; of equal ones, a signed one (a group's device believes only those).
      const stronger = !current || mergeReceipt(current.status, r.status) !== current.status;
      if (stronger || (current.status === r.status && !current.proof && "proof" in proof)) best.set(r.id, { ...r, ...proof });
    }
    this.send(ws, {
      type: "resume-done",
      cursor: plan.more && plan.cursor !== null ? plan.cursor : this.latestSeq(),
      receipts: [...best.values()],
      ...(plan.more ? { more: true } : {}),
      ...(shard > 0 ? { shard } : {}),
    });
  }

  /** Records the reader's receipts and tells each sender's sockets. */
  private receipt(me: { userId: string }, status: ReceiptStatus, ids: string[], fromSocket = false, proof?: ReceiptProof): void {
    // One signature per id, in order; a proof that does not match its ids is not kept (the reader's own fault).
    const sigOf = new Map(proof && proof.sigs.length === ids.length ? ids.map((id, i) => [id, proof.sigs[i] as string]) : []);
    const rows = this.sql
      .exec<{ id: string; senderId: string }>(
        "SELECT id, sender_id AS senderId FROM envelopes WHERE id IN (SELECT value FROM json_each(?))",
        JSON.stringify(ids),
      )
      .toArray();
    const at = Date.now();
    for (const row of rows) {
      if (row.senderId === me.userId) continue;
      this.sql.exec(
        `INSERT INTO receipts (envelope_id, user_id, status, at) VALUES (?, ?, ?, ?)
         ON CONFLICT (envelope_id, user_id) DO UPDATE SET
           status = CASE WHEN receipts.status = 'read' THEN 'read' ELSE excluded.status END, at = excluded.at`,
        row.id,
        me.userId,
        status,
        at,
      );
      const sig = sigOf.get(row.id);
      if (proof && sig)
        this.sql.exec(
          `INSERT INTO receipt_proofs (envelope_id, user_id, status, device, signed_at, sig, at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (envelope_id, user_id) DO UPDATE SET status = excluded.status, device = excluded.device,
             signed_at = excluded.signed_at, sig = excluded.sig, at = excluded.at
           WHERE receipt_proofs.status <> 'read' OR excluded.status = 'read'`,
          row.id,
          me.userId,
          status,
          proof.device,
          proof.at,
          sig,
          at,
        );
    }
    for (const [senderId, senderIds] of receiptsBySender(rows, me.userId)) {
      const sigs = senderIds.map((id) => sigOf.get(id));
      const signed =
        proof && sigs.every((x) => x !== undefined) ? { proof: { device: proof.device, at: proof.at, sigs: sigs as string[] } } : {};
      const frame = encodeFrame({ type: "receipt", status, ids: senderIds, by: me.userId, at, ...signed });
      for (const ws of this.ctx.getWebSockets(senderId)) this.sendRaw(ws, frame);
    }
    // A reader on another shard than the envelope's: its receipts go there too (durable-objects/shards.ts).
    if (fromSocket) this.shards.forwardReceipts(me.userId, status, ids);
  }

  /**
   * A direct message for someone not in this chat: one push ('New message from …', never the text) until
   * they come back to it, and only when they have no LinkUp connection open at all (the notifications
   * module checks that and their preferences and quiet hours).
   */
  private pushDirectMessage(envelope: Envelope, me: Attachment): void {
    if (roomKind(envelope.room) !== "dm" || !MESSAGE_TYPE_SET.has(envelope.type)) return;
    const recipientId = dmPeer(envelope.room, me.userId);
    if (!recipientId || this.ctx.getWebSockets(recipientId).length > 0) return;
    // A message request notifies once, not once per absence (docs/decisions/050-consent-before-a-stranger-reaches-you.md).
    const key = this.requests.pendingFrom() ? REQUEST_PUSH_KEY : dmPushKey(recipientId);
    if (this.sql.exec("SELECT 1 FROM meta WHERE key = ?", key).toArray().length > 0) return;
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?)", key, String(Date.now()));
    const input = { recipientId, senderName: me.nickname || "Someone", roomId: envelope.room };
    this.ctx.waitUntil(
      this.d1(async (db) => {
        // A first message from someone new shows at once, not at the next reload; telling a screen counts as the
        // one notice of this absence (docs/decisions/061-…), so the mark is kept. The rooms they are open in hear first, naming the chat (never the text): a screen that heard it is told,
        // and nothing is pushed. Presence reaches D1 with the rooms' minute batches (docs/decisions/056-…), so a
        // person who opened LinkUp in the last minute is not there yet: their own area's room is asked too.
        const rooms = new Set((await presentRoomsOf(db, recipientId)).slice(0, 3));
        const area = (await findUserById(db, recipientId))?.geohash;
        if (area) rooms.add(nearbyRoomId(area));
        rooms.delete(envelope.room);
        let told = 0;
        for (const other of rooms) {
          told += await this.env.ROOMS.get(this.env.ROOMS.idFromName(other))
            .chatWaiting(recipientId, envelope.room, input.senderName)
            .catch(() => 0);
        }
        if (told > 0) return;
        // Online elsewhere by D1's presence: not pushed, so a later message while they are away still may be.
        if (!(await this.effects.notifyDirectMessageIfOffline(this.env, db, input))) this.sql.exec("DELETE FROM meta WHERE key = ?", key);
      }),
    );
  }

  // ---------------------------------------------------------------- presence and connections

  /** Everyone present, ordered by userId, and the room's sockets. */
  private present(): { nodes: number; members: PresenceMember[] } {
    const members = new Map<string, PresenceMember>();
    let nodes = 0;
    for (const ws of this.sockets()) {
      if (ws.readyState > 1) continue;
      const a = ws.deserializeAttachment() as Attachment | null;
      if (!a) continue;
      nodes++;
      const m = members.get(a.userId);
      if (m) m.nodes++;
      else members.set(a.userId, { userId: a.userId, nickname: a.nickname, nodes: 1 });
    }
    return { nodes, members: [...members.values()].sort((x, y) => (x.userId < y.userId ? -1 : 1)) };
  }

  /**
   * One page of the presence list (docs/decisions/052-presence-deltas-and-jittered-reconnects.md): sent once on
   * connect and on request, never to everyone on a change, so the list's size is paid only by who asks.
   */
  private presencePage(after?: string): ServerFrame {
    const { nodes, members } = this.present();
    const rest = after === undefined ? members : members.filter((m) => m.userId > after);
    const page = rest.slice(0, PRESENCE_PAGE_SIZE);
    const next = rest.length > page.length ? page.at(-1)?.userId : undefined;
    return {
      type: "presence",
      nodes,
      people: members.length,
      members: page,
      ...(after === undefined ? {} : { after }),
      ...(next ? { next } : {}),
    };
  }

  /** Joins and leaves of one window go out together as deltas: who came, who went, and the counts now. */
  private schedulePresence(userId?: string): void {
    if (userId) this.presenceChanged.add(userId);
    if (this.presenceTimer) return;
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      const { nodes, members } = this.present();
      const byId = new Map(members.map((m) => [m.userId, m]));
      const changed = [...this.presenceChanged];
      this.presenceChanged.clear();
      // A delta names at most a page of people; a busier window sends several (each still O(1) per change).
      for (let i = 0; i === 0 || i < changed.length; i += PRESENCE_PAGE_SIZE) {
        const ids = changed.slice(i, i + PRESENCE_PAGE_SIZE);
        const joined = ids.flatMap((id) => byId.get(id) ?? []);
        const left = ids.filter((id) => !byId.has(id));
        const frame = encodeFrame({ type: "presence-delta", nodes, people: members.length, joined, left });
        for (const ws of this.sockets()) if (ws.readyState === 1) this.sendRaw(ws, frame);
      }
    }, PRESENCE_DEBOUNCE_MS);
  }

  private sockets(): Set<WebSocket> {
    this.socketSet ??= new Set(this.ctx.getWebSockets());
    return this.socketSet;
  }

  private async leave(ws: WebSocket): Promise<void> {
    // Also for a socket already gone from the set (replaced or expelled, then its close event): the D1
    // update is idempotent, and after a wake-up the set may never have held it.
    this.sockets().delete(ws);
    this.shards.noteLoad();
    const a = ws.deserializeAttachment() as Attachment | null;
    this.schedulePresence(a?.userId);
    if (!a) return;
    await this.calls.left(a.connId);
    this.flusher.presenceChanged(a.userId);
    this.flusher.schedule();
  }

  /** Makes room for one more socket of this person: their oldest beyond MAX_SOCKETS_PER_PERSON are closed. */
  private async replaceOldestSockets(userId: string): Promise<void> {
    const open = this.ctx
      .getWebSockets(userId)
      .filter((ws) => ws.readyState <= 1)
      .map((ws) => ({ ws, openedAt: (ws.deserializeAttachment() as Attachment | null)?.openedAt ?? 0 }));
    for (const { ws } of socketsToReplace(open)) {
      try {
        ws.close(CLOSE_REPLACED, "Replaced by a newer connection");
      } catch {
        // Already closing.
      }
      await this.leave(ws);
    }
  }

  // ---------------------------------------------------------------- helpers

  /** Takes one token of the person's bucket; answers 0, or the milliseconds to wait when refused. */
  private takeToken(userId: string, kind: "frames" | "resumes"): number {
    const now = Date.now();
    const state = this.buckets.get(userId) ?? { frames: fullBucket(PERSON_RATE, now), resumes: fullBucket(RESUME_RATE, now) };
    const result = takeToken(state[kind], now, kind === "frames" ? PERSON_RATE : RESUME_RATE);
    state[kind] = result.bucket;
    this.buckets.set(userId, state);
    // A busy area room meets many people: buckets idle long enough to be full again are dropped.
    if (this.buckets.size > MAX_BUCKETS)
      for (const [id, b] of this.buckets)
        if (now - Math.max(b.frames.updatedAt, b.resumes.updatedAt) > BUCKET_REFILLED_MS) this.buckets.delete(id);
    return result.allowed ? 0 : result.retryAfterMs;
  }

  private latestSeq(): number {
    return this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM envelopes").one().seq ?? 0;
  }

  /**
   * The key of this object's rows in D1 (room_activity, room_presence): a shard counts only its own members'
   * messages and sockets, under its object name, so two shards never share one exactly-once guard
   * (docs/decisions/059-hot-areas-shard.md).
   */
  private d1RoomKey(): string | null {
    const roomId = this.roomId();
    return roomId === null ? null : shardObjectName(roomId, this.shards.index);
  }

  private roomId(): string | null {
    return this.sql.exec<{ v: string }>("SELECT value AS v FROM meta WHERE key = 'room'").toArray()[0]?.v ?? null;
  }

  /** Open sockets per person now, for the presence rows of the D1 batch. */
  private socketCounts(): Map<string, number> {
    return new Map(this.present().members.map((m) => [m.userId, m.nodes]));
  }

  private rememberRoom(roomId: string): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('room', ?) ON CONFLICT (key) DO NOTHING", roomId);
  }

  /** Keeps at least the last 1,000 envelopes or 7 days, whichever is more; ids live on for dedupe. */
  private prune(latestSeq: number, now: number): void {
    const { belowSeq, before } = pruneBounds(latestSeq, now);
    this.sql.exec("UPDATE envelopes SET body = NULL WHERE seq < ? AND stored_at < ? AND body IS NOT NULL", belowSeq, before);
    // Never one whose message D1 has not counted yet (a long D1 outage): it is the batch's pending record.
    this.sql.exec(
      "DELETE FROM envelopes WHERE seq < ? AND stored_at < ? AND seq <= ?",
      belowSeq,
      now - DEDUPE_MEMORY_MS,
      this.flusher.countedThrough(),
    );
    this.sql.exec("DELETE FROM receipts WHERE at < ?", now - DEDUPE_MEMORY_MS);
    this.sql.exec("DELETE FROM receipt_proofs WHERE at < ?", now - DEDUPE_MEMORY_MS);
  }

  /** D1 is metadata: a failure is logged and never breaks the chat. */
  private async d1(work: (db: ReturnType<typeof createDb>) => Promise<unknown>): Promise<void> {
    try {
      await work(createDb(this.env));
    } catch (err) {
      console.error("MeshRoom D1 write failed", err);
    }
  }

  private send(ws: WebSocket, frame: ServerFrame): void {
    this.sendRaw(ws, encodeFrame(frame));
  }

  private sendRaw(ws: WebSocket, frame: string): boolean {
    try {
      ws.send(frame);
      return true;
    } catch {
      return false;
    }
  }

  private error(ws: WebSocket, code: FrameErrorCode, message: string, id?: string, retryAfterMs?: number): void {
    this.send(ws, { type: "error", code, message, ...(id ? { id } : {}), ...(retryAfterMs ? { retryAfterMs } : {}) });
  }
}

/** Rows whose envelope a resume has not sent already (streamed: the rows stay a cursor). */
function* unsent<T extends { id: string }>(rows: Iterable<T>, sent: Set<string>): Generator<T> {
  for (const r of rows) if (!sent.has(r.id)) yield r;
}

const dmPushKey = (userId: string) => `dm-pushed:${userId}`;

class TooLarge extends Error {
  constructor() {
    super(`Messages may be at most ${MAX_ENVELOPE_BYTES} bytes`);
  }
}
