// The calls section of MeshRoom (docs/decisions/024-calls-through-the-room.md): signalling for one-to-one voice calls relayed
// between the two people of a direct chat. SDP and ICE candidates pass through and are never stored (the media
// is DTLS-SRTP end to end); the room keeps only who calls whom and since when, to ring, time out and end calls.
import type { ApiErrorCode } from "../core/api-errors";
import { CALL_TEXTS, type MissedCallMeta, RING_TIMEOUT_MS } from "../core/calls";
import { dmPeer } from "../core/room-ids";
import type { Envelope } from "../core/envelope";
import { dmRoomId, roomKind } from "../core/envelope";
import { type CallEndReason, type ClientFrame, encodeFrame, type FrameErrorCode, type ServerFrame } from "../core/frames";
import type { createDb } from "../db";
import { findUserById } from "../db/queries/users";
import { giveBackCount, takeCount } from "../db/queries/address-counters";
import { findRequest } from "../db/queries/direct-requests";
import type { RoomEffects } from "./room-effects";
import { type Bucket, fullBucket, type RateLimit, systemLine, takeToken } from "./mesh-logic";

type CallFrame = Extract<ClientFrame, { type: "ring" | "accept" | "decline" | "hangup" | "call-offer" | "call-answer" | "ice" }>;

/** Calls a person may start in a room: a few retries at once, then one every 15 s. */
export const RING_RATE: RateLimit = { burst: 3, perSecond: 1 / 15 };

/**
 * Missed-call notices (push and notification) a caller may cause in an hour, across everyone they call and per
 * person called (docs/decisions/050-consent-before-a-stranger-reaches-you.md): ringing many people and hanging up
 * leaves entries in the chats, not a notification storm. Counted in D1 (address_counters), one conditional write each.
 */
export const MISSED_CALL_NOTICES = { perCallerPerHour: 10, perCalleePerHour: 3 } as const;
/** Calls a person may start in an hour across all their direct chats (RING_RATE is per room, in memory). */
export const RINGS_PER_CALLER_PER_HOUR = 30;
const HOUR_MS = 3600_000;

function hourOf(now: Date) {
  const start = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { window: new Date(start).toISOString(), expiresAt: new Date(start + HOUR_MS) };
}

/** Takes one of the caller's rings of the hour (one conditional write); false when the hour's are spent. */
export async function takeRing(db: ReturnType<typeof createDb>, callerId: string, now = new Date()): Promise<boolean> {
  return takeCount(db, { key: `rings:${callerId}`, ...hourOf(now) }, RINGS_PER_CALLER_PER_HOUR, now);
}

/** Takes one missed-call notice for the caller and this callee; false when either budget of the hour is spent. */
export async function takeMissedCallNotice(db: ReturnType<typeof createDb>, callerId: string, calleeId: string, now = new Date()) {
  const { window, expiresAt } = hourOf(now);
  const pair = { key: `missed-call:${callerId}:${calleeId}`, window, expiresAt };
  if (!(await takeCount(db, pair, MISSED_CALL_NOTICES.perCalleePerHour, now))) return false;
  if (await takeCount(db, { key: `missed-call:${callerId}`, window, expiresAt }, MISSED_CALL_NOTICES.perCallerPerHour, now)) return true;
  // The caller's budget is spent: this callee's use is given back, so it is not spent on a notice never sent.
  await giveBackCount(db, pair.key, window);
  return false;
}

const msToNextHour = (now: number) => HOUR_MS - (now % HOUR_MS);

/** What the room lends the calls section. */
/** A refused call frame: the frame's code, and the refusal's own code for the screen's words (core/api-errors.ts). */
function refuse(
  host: CallHost,
  ws: WebSocket,
  code: FrameErrorCode,
  reason: ApiErrorCode,
  message: string,
  id: string,
  retryAfterMs?: number,
) {
  host.send(ws, { type: "error", code, reason, message, id, ...(retryAfterMs ? { retryAfterMs } : {}) });
}

export interface CallHost {
  sql: SqlStorage;
  env: Env;
  ctx: DurableObjectState;
  sockets(): Iterable<WebSocket>;
  send(ws: WebSocket, frame: ServerFrame): void;
  error(ws: WebSocket, code: FrameErrorCode, message: string, id?: string, retryAfterMs?: number): void;
  /** Stores and relays a server envelope (the missed-call entry). */
  storeSystem(envelope: Envelope): Promise<void>;
  db(): ReturnType<typeof createDb>;
  /** Wakes the room by this time at the latest (the room shares its one alarm between sections). */
  scheduleAlarm(at: number): Promise<void>;
  effects: Pick<RoomEffects, "notify">;
}

export interface CallSocket {
  userId: string;
  nickname: string;
  roomId: string;
  connId: string;
}

interface CallRow {
  id: string;
  caller_id: string;
  caller_name: string;
  callee_id: string;
  caller_conn: string;
  callee_conn: string | null;
  state: "ringing" | "active";
  ring_until: number;
}

export class CallSwitch {
  private readonly rings = new Map<string, Bucket>();

  constructor(private readonly host: CallHost) {
    host.sql.exec(`CREATE TABLE IF NOT EXISTS calls (
      id TEXT PRIMARY KEY,
      caller_id TEXT NOT NULL,
      caller_name TEXT NOT NULL,
      callee_id TEXT NOT NULL,
      caller_conn TEXT NOT NULL,
      callee_conn TEXT,
      state TEXT NOT NULL,
      ring_until INTEGER NOT NULL
    )`);
  }

  /** One call frame from a member's socket. */
  async handle(ws: WebSocket, me: CallSocket, frame: CallFrame): Promise<void> {
    const peerId = roomKind(me.roomId) === "dm" ? dmPeer(me.roomId, me.userId) : null;
    if (!peerId) return refuse(this.host, ws, "forbidden", "call_direct_only", CALL_TEXTS.directOnly, frame.callId);
    if (frame.type === "ring") return this.ring(ws, me, peerId, frame.callId);
    const call = this.current();
    if (!call || call.id !== frame.callId) return refuse(this.host, ws, "busy", "call_not_ringing", CALL_TEXTS.notRinging, frame.callId);
    const isCaller = me.userId === call.caller_id;
    switch (frame.type) {
      case "accept":
        if (isCaller || call.state !== "ringing") return refuse(this.host, ws, "busy", "call_not_ringing", CALL_TEXTS.notRinging, call.id);
        this.host.sql.exec("UPDATE calls SET state = 'active', callee_conn = ? WHERE id = ?", me.connId, call.id);
        // The caller learns who took it; the callee's other devices stop ringing.
        for (const other of this.socketsOf(call.caller_id, call.callee_id))
          if (other !== ws) this.host.send(other, { type: "accept", callId: call.id, from: me.userId });
        return;
      case "decline":
        if (isCaller) return refuse(this.host, ws, "busy", "call_not_ringing", CALL_TEXTS.notRinging, call.id);
        return this.end(call, me.userId, call.state === "ringing" ? "declined" : "hangup");
      case "hangup":
        return this.end(call, me.userId, call.state === "ringing" ? (isCaller ? "missed" : "declined") : "hangup");
      default: {
        // Offer, answer and candidates travel only between the two devices in the call.
        if (call.state !== "active" || (me.connId !== call.caller_conn && me.connId !== call.callee_conn))
          return refuse(this.host, ws, "busy", "call_not_ringing", CALL_TEXTS.notRinging, call.id);
        const to = me.connId === call.caller_conn ? call.callee_conn : call.caller_conn;
        const target = this.socketByConn(to);
        if (target) this.host.send(target, { ...frame, from: me.userId });
        return;
      }
    }
  }

  /** A socket closed: a call it was in ends (a ringing caller's becomes a missed call). */
  async left(connId: string): Promise<void> {
    const call = this.current();
    if (!call) return;
    if (connId === call.caller_conn) await this.end(call, call.caller_id, call.state === "ringing" ? "missed" : "hangup");
    else if (connId === call.callee_conn) await this.end(call, call.callee_id, "hangup");
  }

  /** The room's alarm: a call still ringing after RING_TIMEOUT_MS is missed. */
  async alarm(now = Date.now()): Promise<void> {
    const call = this.current();
    if (call?.state !== "ringing") return;
    if (call.ring_until <= now) await this.end(call, call.callee_id, "missed");
    else await this.host.scheduleAlarm(call.ring_until);
  }

  private async ring(ws: WebSocket, me: CallSocket, peerId: string, callId: string): Promise<void> {
    const now = Date.now();
    const taken = takeToken(this.rings.get(me.userId) ?? fullBucket(RING_RATE, now), now, RING_RATE);
    this.rings.set(me.userId, taken.bucket);
    if (!taken.allowed)
      return refuse(this.host, ws, "rate_limited", "call_rate_limited", "Too many calls. Wait a moment.", callId, taken.retryAfterMs);
    if (this.current()) return refuse(this.host, ws, "busy", "call_busy", CALL_TEXTS.busy, callId);
    // Verification is read from the database at each call, so a phone verified a minute ago counts.
    let verified: [boolean, boolean];
    let requestFrom: string | null;
    let db: ReturnType<typeof createDb>;
    try {
      db = this.host.db();
      const [mine, theirs, request] = await Promise.all([
        findUserById(db, me.userId),
        findUserById(db, peerId),
        findRequest(db, me.roomId),
      ]);
      verified = [mine?.authMode === "verified", theirs?.authMode === "verified"];
      // No ringing before consent (docs/decisions/050-consent-before-a-stranger-reaches-you.md): D1 is the record.
      requestFrom = request?.fromUserId ?? null;
    } catch (err) {
      console.error("MeshRoom call check failed", err);
      return refuse(this.host, ws, "internal", "call_not_started", "The call could not be started. Try again.", callId);
    }
    if (!verified[0]) return refuse(this.host, ws, "verification_required", "call_verify", CALL_TEXTS.verifyToCall, callId);
    if (!verified[1]) return refuse(this.host, ws, "verification_required", "call_peer_not_verified", CALL_TEXTS.peerNotVerified, callId);
    if (requestFrom)
      return requestFrom === me.userId
        ? refuse(this.host, ws, "forbidden", "call_not_accepted", CALL_TEXTS.notAccepted, callId)
        : refuse(this.host, ws, "forbidden", "call_accept_request", CALL_TEXTS.acceptToCall, callId);
    // Across rooms too: ringing one chat after another is bounded per hour (docs/decisions/050-…).
    let allowed: boolean;
    try {
      allowed = await takeRing(db, me.userId);
    } catch (err) {
      console.error("MeshRoom ring count failed", err);
      return refuse(this.host, ws, "internal", "call_not_started", "The call could not be started. Try again.", callId);
    }
    if (!allowed) return refuse(this.host, ws, "rate_limited", "call_too_many", CALL_TEXTS.tooManyCalls, callId, msToNextHour(now));
    // Checked again after the await: a second ring may have started a call meanwhile.
    if (this.current()) return refuse(this.host, ws, "busy", "call_busy", CALL_TEXTS.busy, callId);
    const ringUntil = now + RING_TIMEOUT_MS;
    this.host.sql.exec(
      "INSERT INTO calls (id, caller_id, caller_name, callee_id, caller_conn, state, ring_until) VALUES (?, ?, ?, ?, ?, 'ringing', ?)",
      callId,
      me.userId,
      me.nickname.slice(0, 60) || "Someone",
      peerId,
      me.connId,
      ringUntil,
    );
    await this.host.scheduleAlarm(ringUntil);
    let devices = 0;
    const ring = encodeFrame({ type: "ring", callId, from: me.userId, fromName: me.nickname.slice(0, 60) || "Someone" });
    for (const other of this.socketsOf(peerId)) {
      try {
        other.send(ring);
        devices++;
      } catch {
        // Closing socket.
      }
    }
    this.host.send(ws, { type: "ringing", callId, devices });
  }

  private async end(call: CallRow, by: string, reason: CallEndReason): Promise<void> {
    this.host.sql.exec("DELETE FROM calls WHERE id = ?", call.id);
    const frame = encodeFrame({ type: "call-ended", callId: call.id, from: by, reason });
    for (const ws of this.socketsOf(call.caller_id, call.callee_id)) {
      try {
        ws.send(frame);
      } catch {
        // Closing socket.
      }
    }
    if (reason !== "missed" && reason !== "declined") return;
    const room = dmRoomId(call.caller_id, call.callee_id);
    const meta: MissedCallMeta = {
      event: "missed-call",
      callId: call.id,
      callerId: call.caller_id,
      callerName: call.caller_name,
      calleeId: call.callee_id,
      reason,
    };
    // A server entry with no content: private rooms never carry the server's plain text (docs/decisions/024-calls-through-the-room.md).
    await this.host.storeSystem(systemLine(room, meta));
    if (reason !== "missed") return;
    const input = {
      type: "message" as const,
      title: CALL_TEXTS.missedTitle(call.caller_name),
      content: CALL_TEXTS.missedBody,
      priority: "medium" as const,
      url: `/chat?room=${encodeURIComponent(room)}`,
      source: "calls",
    };
    const db = this.host.db();
    this.host.ctx.waitUntil(
      (async () => {
        if (await takeMissedCallNotice(db, call.caller_id, call.callee_id))
          await this.host.effects.notify(this.host.env, db, call.callee_id, input);
      })().catch((e) => console.error("missed-call push failed", e)),
    );
  }

  private current(): CallRow | undefined {
    return this.host.sql.exec("SELECT * FROM calls LIMIT 1").toArray()[0] as unknown as CallRow | undefined;
  }

  private *socketsOf(...userIds: string[]): Generator<WebSocket> {
    for (const userId of userIds) yield* this.host.ctx.getWebSockets(userId);
  }

  private socketByConn(connId: string | null): WebSocket | undefined {
    if (!connId) return undefined;
    for (const ws of this.host.sockets()) if ((ws.deserializeAttachment() as { connId?: string } | null)?.connId === connId) return ws;
    return undefined;
  }
}
