// MeshRoom: one Durable Object per room (docs/architecture.md §5), WebSocket hibernation API, frame protocol in
// core/frames.ts. The room keeps its recent envelopes in its own SQLite storage for store-and-forward and
// resume, acknowledges each envelope once stored, relays receipts to senders and tracks presence. Message
// metadata goes to D1 `messages`; each socket is a row in `mesh_connections`.
import { DurableObject } from "cloudflare:workers";
import { type Envelope, EnvelopeSchema } from "../core/envelope";
import { dmPeer, roomKind } from "../core/room-ids";
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
  type ReceiptStatus,
  type ServerFrame,
} from "../core/frames";
import { newId } from "../core/ids";
import { forgetPerson } from "./forget";
import { Disappearing } from "./disappearing";
import type { DisappearTimer, DisappearingMeta } from "../core/disappearing";
import { CallSwitch } from "./calls";
import { REQUEST_PUSH_KEY, RequestGate } from "./requests";
import { createDb } from "../db";
import { awardMessagePoints } from "../workers/rewards";
import { recordMessageEvents } from "../workers/analytics";
import {
  closeConnection,
  closeRoomConnections,
  dropMessageContent,
  type MessageRow,
  openConnection,
  openConnectionRooms,
  recordMessages,
} from "../db/queries/rooms";
import { notifyDirectMessageIfOffline } from "../workers/notifications";
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
  /** mesh_connections row id. */
  connId: string;
  /** When the socket joined (ms), so the oldest of a person's sockets is the one replaced. */
  openedAt: number;
}

/** Envelope types that are chat messages (recorded in D1 `messages`); `key` envelopes stay in the room only. */
const MESSAGE_TYPES = new Set(["text", "emergency", "system", "ai"]);
const PRUNE_EVERY = 100;
/** People whose rate buckets the room keeps before dropping idle ones. */
const MAX_BUCKETS = 5000;
/** Idle this long, a person's buckets are full again (RESUME_RATE refills slowest: 8 at 0.25/s). */
const BUCKET_REFILLED_MS = (RESUME_RATE.burst / RESUME_RATE.perSecond) * 1000;
const utf8 = new TextEncoder();
/** Joins and leaves within this window share one presence delta (a room of N joining is not N² frames). */
const PRESENCE_DEBOUNCE_MS = 100;
/**
 * Members' messages reach D1 `messages` (and analytics, points) at most once per this window, in one batch, off
 * the send path (docs/decisions/043-room-speed-and-shards.md): D1 is metadata, the room's SQLite is the record.
 */
export const METADATA_FLUSH_MS = 250;

export class MeshRoom extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /**
   * Rate buckets per person (all their sockets share them), in memory: after hibernation everyone has been
   * idle, so a full bucket is right. Kept after a person leaves, so reconnecting never refills them.
   */
  private readonly buckets = new Map<string, { frames: Bucket; resumes: Bucket }>();
  private pendingRows: MessageRow[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Socket deliveries not yet added to the stored 'relayed' figure (written with the metadata batch). */
  private relayedPending = 0;
  private presenceTimer: ReturnType<typeof setTimeout> | null = null;
  /** People who joined or left since the last presence delta. */
  private readonly presenceChanged = new Set<string>();
  /** The room's sockets, read once per wake-up from the runtime and kept current on join/leave. */
  private socketSet: Set<WebSocket> | null = null;
  private staleRowsClosed: Promise<void> | null = null;
  private readonly calls: CallSwitch;
  private readonly disappearing: Disappearing;
  private readonly requests: RequestGate;

  constructor(ctx: DurableObjectState, env: Env) {
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
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.requests = new RequestGate(this.sql);
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
        await this.flush();
      },
      db: () => createDb(env),
      scheduleAlarm: (at) => this.scheduleAlarm(at),
    });
    this.disappearing = new Disappearing(this.sql, env as Env & { ENVIRONMENT?: string; DISAPPEARING_TEST_HOUR_MS?: string });
  }

  /**
   * One alarm serves two sections: the calls section's ring timeout (docs/decisions/024-calls-through-the-room.md)
   * and the expiry of disappearing messages (docs/decisions/040-disappearing-messages.md). Each asks for a time
   * through scheduleAlarm, which keeps the earliest; here both do their due work and ask again.
   */
  async alarm(): Promise<void> {
    await this.calls.alarm();
    await this.expire(Date.now());
    const next = this.disappearing.next();
    if (next !== null) await this.scheduleAlarm(next);
  }

  /** Sets the alarm to `at` unless one is already due earlier (inside alarm() none is set until asked again). */
  private async scheduleAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  /** Drops expired messages from the room's storage and their content from D1 `messages`. */
  private async expire(now: number): Promise<void> {
    const dropped = this.disappearing.sweep(now);
    if (dropped.length === 0) return;
    // Rows still waiting for the batched metadata write go first, or it would store their content after the drop.
    await this.flush();
    await this.d1((db) => dropMessageContent(db, dropped));
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
      await this.flush();
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

    // Woken with no sockets, the room may have been torn down with them (no close events): no older row can be
    // active. Done once per instance, and every upgrade waits for it, so it never closes a row opened after it.
    this.staleRowsClosed ??= this.sockets().size === 0 ? this.d1((db) => closeRoomConnections(db, roomId)) : Promise.resolve();
    await this.staleRowsClosed;
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
    this.send(server, {
      type: "hello",
      room: roomId,
      userId,
      latestSeq: this.latestSeq(),
      encrypted: isPrivateRoom(roomId),
    });
    this.send(server, this.presencePage());
    this.schedulePresence(userId);
    await this.d1((db) => openConnection(db, { id: attachment.connId, userId, roomId }));
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
    const result = this.store(envelope, null);
    await this.flush();
    return result;
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
    return open.length;
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
    // Rows still waiting for D1 are written first, so the account deletion that follows removes them too.
    await this.flush();
    forgetPerson(this.sql, userId, wholeRoom);
    this.disappearing.reload();
  }

  /** Live figures for /mesh-network: sockets and people present, envelopes kept, deliveries made to sockets. */
  async stats(): Promise<{ nodes: number; people: number; present: PresenceMember[]; latestSeq: number; stored: number; relayed: number }> {
    const presence = this.present();
    const stored = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM envelopes WHERE body IS NOT NULL").one().n;
    const relayed = this.sql.exec<{ v: string }>("SELECT value AS v FROM meta WHERE key = 'relayed'").toArray()[0];
    return {
      nodes: presence.nodes,
      people: presence.members.length,
      present: presence.members.slice(0, PRESENCE_MEMBER_LIMIT),
      latestSeq: this.latestSeq(),
      stored,
      relayed: Number(relayed?.v ?? 0) + this.relayedPending,
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
        this.scheduleFlush();
        if (!result.duplicate) this.pushDirectMessage(envelope, me);
        return;
      }
      case "resume":
        return this.resume(ws, me, frame.cursor);
      case "receipt":
        if (this.requests.quiet()) return;
        return this.receipt(me, frame.status, frame.ids);
      case "ping":
        this.send(ws, { type: "pong", at: frame.at });
        if (frame.presence) this.send(ws, this.presencePage(frame.after));
        return;
      case "typing": {
        if (this.requests.quiet()) return;
        const out = encodeFrame({ type: "typing", userId: me.userId, nickname: me.nickname, active: frame.active });
        for (const other of this.sockets()) if (other !== ws) this.sendRaw(other, out);
        return;
      }
      default:
        return this.calls.handle(ws, me, frame);
    }
  }

  /** Stores an envelope once (by id) and relays it to every socket but its origin. */
  private store(envelope: Envelope, origin: WebSocket | null): { delivered: number; seq: number; duplicate: boolean; expiresAt?: number } {
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
    for (const ws of this.sockets()) {
      if (ws === origin) continue;
      if (this.sendRaw(ws, frame)) delivered++;
    }
    this.relayedPending += delivered;
    if (MESSAGE_TYPES.has(envelope.type)) this.pendingRows.push(toMessageRow(envelope, now));
    if (envelope.expiresAt !== undefined) {
      this.disappearing.track(envelope.id, envelope.expiresAt);
      this.ctx.waitUntil(this.scheduleAlarm(envelope.expiresAt));
    }
    if (seq % PRUNE_EVERY === 0) this.prune(seq, now);
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
    if (!isPrivateRoom(envelope.room) || !MESSAGE_TYPES.has(envelope.type) || announcement) return rest;
    const expiresAt = this.disappearing.expiryFor(now);
    return expiresAt === undefined ? rest : { ...rest, expiresAt };
  }

  /**
   * What was missed after the cursor (emergencies first), at most RESUME_MAX_BYTES of it, then resume-done with
   * the cursor to continue from (`more` when the client should resume again) and the user's receipts.
   */
  private async resume(ws: WebSocket, me: Attachment, cursor: number): Promise<void> {
    // Expired messages go before anything is read, so a late alarm never lets one be resumed.
    await this.expire(Date.now());
    const urgent = "(type = 'emergency' OR priority = 'high')";
    const rows = (where: string) =>
      this.sql.exec<{ seq: number; body: string }>(
        `SELECT seq, body FROM envelopes WHERE seq > ? AND body IS NOT NULL AND ${where} ORDER BY seq`,
        cursor,
      );
    const size = (r: { body: string }) => utf8.encode(r.body).byteLength + RESUME_ITEM_OVERHEAD;
    // Rows stream from SQLite; only what fits in one answer is held.
    const plan = planResume(rows(urgent), rows("1"), size);
    for (const batch of batchBySize(plan.items, RESUME_BATCH_SIZE, RESUME_BATCH_BYTES, size)) {
      // Stored bodies are already-validated envelope JSON: spliced in, not parsed and re-serialised.
      this.sendRaw(ws, `{"type":"resume-batch","items":[${batch.map((r) => `{"seq":${r.seq},"envelope":${r.body}}`).join(",")}]}`);
    }
    const receiptRows = this.sql
      .exec<{ id: string; status: ReceiptStatus; by: string }>(
        `SELECT e.id AS id, r.status AS status, r.user_id AS by FROM envelopes e
         JOIN receipts r ON r.envelope_id = e.id
         WHERE e.sender_id = ? AND e.seq > ? - 1000 ORDER BY e.seq`,
        me.userId,
        this.latestSeq(),
      )
      .toArray();
    const best = new Map<string, { id: string; status: ReceiptStatus; by: string }>();
    for (const r of receiptRows) {
      const current = best.get(r.id);
      if (!current || mergeReceipt(current.status, r.status) !== current.status) best.set(r.id, { ...r });
    }
    this.send(ws, {
      type: "resume-done",
      cursor: plan.more && plan.cursor !== null ? plan.cursor : this.latestSeq(),
      receipts: [...best.values()],
      ...(plan.more ? { more: true } : {}),
    });
  }

  /** Records the reader's receipts and tells each sender's sockets. */
  private receipt(me: Attachment, status: ReceiptStatus, ids: string[]): void {
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
    }
    for (const [senderId, senderIds] of receiptsBySender(rows, me.userId)) {
      const frame = encodeFrame({ type: "receipt", status, ids: senderIds, by: me.userId, at });
      for (const ws of this.ctx.getWebSockets(senderId)) this.sendRaw(ws, frame);
    }
  }

  /**
   * A direct message for someone not in this chat: one push ('New message from …', never the text) until
   * they come back to it, and only when they have no LinkUp connection open at all (the notifications
   * module checks that and their preferences and quiet hours).
   */
  private pushDirectMessage(envelope: Envelope, me: Attachment): void {
    if (roomKind(envelope.room) !== "dm" || !MESSAGE_TYPES.has(envelope.type)) return;
    const recipientId = dmPeer(envelope.room, me.userId);
    if (!recipientId || this.ctx.getWebSockets(recipientId).length > 0) return;
    // A message request notifies once, not once per absence (docs/decisions/050-consent-before-a-stranger-reaches-you.md).
    const key = this.requests.pendingFrom() ? REQUEST_PUSH_KEY : dmPushKey(recipientId);
    if (this.sql.exec("SELECT 1 FROM meta WHERE key = ?", key).toArray().length > 0) return;
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?)", key, String(Date.now()));
    const input = { recipientId, senderName: me.nickname || "Someone", roomId: envelope.room };
    this.ctx.waitUntil(
      this.d1(async (db) => {
        // Online elsewhere: not pushed, so a later message while they are away still may be. Their open rooms
        // tell their screen instead, so a first message from someone new shows at once, not at the next reload.
        // Telling them counts as the one notice of this absence (docs/decisions/061-…); the mark is kept then.
        if (!(await notifyDirectMessageIfOffline(this.env, db, input))) {
          let told = 0;
          for (const other of await openConnectionRooms(db, recipientId)) {
            if (other === envelope.room) continue;
            told += await this.env.ROOMS.get(this.env.ROOMS.idFromName(other))
              .chatWaiting(recipientId, envelope.room, input.senderName)
              .catch(() => 0);
          }
          if (told === 0) this.sql.exec("DELETE FROM meta WHERE key = ?", key);
        }
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
    const a = ws.deserializeAttachment() as Attachment | null;
    this.schedulePresence(a?.userId);
    if (!a) return;
    await this.calls.left(a.connId);
    await this.d1((db) => closeConnection(db, a.connId));
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

  private rememberRoom(roomId: string): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('room', ?) ON CONFLICT (key) DO NOTHING", roomId);
  }

  /** Keeps at least the last 1,000 envelopes or 7 days, whichever is more; ids live on for dedupe. */
  private prune(latestSeq: number, now: number): void {
    const { belowSeq, before } = pruneBounds(latestSeq, now);
    this.sql.exec("UPDATE envelopes SET body = NULL WHERE seq < ? AND stored_at < ? AND body IS NOT NULL", belowSeq, before);
    this.sql.exec("DELETE FROM envelopes WHERE seq < ? AND stored_at < ?", belowSeq, now - DEDUPE_MEMORY_MS);
    this.sql.exec("DELETE FROM receipts WHERE at < ?", now - DEDUPE_MEMORY_MS);
  }

  /** One metadata flush per METADATA_FLUSH_MS at most, whatever the number of messages in between. */
  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, METADATA_FLUSH_MS);
  }

  /** Writes pending `messages` rows to D1 and the relayed figure; concurrent callers share one running flush. */
  private flush(): Promise<void> {
    if (this.relayedPending > 0) {
      this.sql.exec(
        "INSERT INTO meta (key, value) VALUES ('relayed', ?) ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value",
        this.relayedPending,
      );
      this.relayedPending = 0;
    }
    if (this.flushing) return this.flushing;
    if (this.pendingRows.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      try {
        while (this.pendingRows.length > 0) {
          const rows = this.pendingRows.splice(0, this.pendingRows.length);
          await this.d1(async (db) => recordMessageEvents(db, await recordMessages(db, rows)));
          // Points for the people's messages just recorded (workers/rewards: each once, capped per day); notices,
          // assistant answers and SOS earn nothing here.
          const said = rows.filter((r) => r.type === "text");
          if (said.length > 0) await this.d1((db) => awardMessagePoints(db, said));
        }
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
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

const dmPushKey = (userId: string) => `dm-pushed:${userId}`;

class TooLarge extends Error {
  constructor() {
    super(`Messages may be at most ${MAX_ENVELOPE_BYTES} bytes`);
  }
}

/** The D1 `messages` row of an envelope: plain text only for public rooms, ciphertext only for private ones. */
export function toMessageRow(envelope: Envelope, storedAt: number): MessageRow {
  const sealed = "ciphertext" in envelope.content ? envelope.content : null;
  return {
    id: envelope.id,
    roomId: envelope.room,
    senderId: envelope.senderId,
    type: envelope.type,
    isEncrypted: envelope.isEncrypted,
    body: sealed || isPrivateRoom(envelope.room) ? null : "text" in envelope.content ? envelope.content.text : null,
    ciphertext: sealed?.ciphertext ?? null,
    iv: sealed?.iv ?? null,
    hopCount: envelope.meshRoute.length,
    priority: envelope.priority,
    sentAt: new Date(storedAt),
  };
}
