// Message requests (docs/decisions/050-consent-before-a-stranger-reaches-you.md): a direct chat with someone who shares
// no area room or group with the opener, and with whom no direct chat was accepted, waits for that person's consent.
// The opener may send a few first messages (the room counts them, durable-objects/requests.ts) and cannot call; the
// recipient accepts, declines or blocks. A declined sender waits before asking again.
import { DIRECT_REQUEST_LIMITS, type DirectRequestInfo, REQUEST_TEXTS, type RoomSummary } from "../../core/rooms";
import { dmPeer } from "../../core/room-ids";
import { DomainError } from "../../core/domain-error";
import type { Db } from "../../db";
import { takeCount } from "../../db/queries/address-counters";
import {
  clearRequest,
  declineRequest,
  type DirectRequestRow,
  findRequest,
  openRequest,
  removeDmMembers,
  shareARoom,
  takePendingRequest,
} from "../../db/queries/direct-requests";
import { findRoom, findUsersByIds } from "../../db/queries/rooms";
import type { User } from "../../db/schema";
import { roomStub } from "./stub";

const DAY_MS = 86_400_000;

function info(row: DirectRequestRow, userId: string): DirectRequestInfo {
  return { direction: row.fromUserId === userId ? "outgoing" : "incoming", since: row.createdAt.getTime() };
}

/** What opening the direct chat means for consent: nothing (known people), a request standing, or a new one. */
export type OpenConsent = { request?: DirectRequestInfo; start?: true };

/**
 * Decides, before the direct chat `roomId` is opened by `userId` with `otherId`, whether it needs consent. Known
 * people (an area room or group in common, or a direct chat already accepted: a room with no request row) open it
 * at once; so does the person who declined, should they open it themselves. A decline stands for
 * DIRECT_REQUEST_LIMITS.declineWaitDays. Otherwise it is a request, limited to DIRECT_REQUEST_LIMITS.perDay new requests per person.
 */
export async function consentToOpen(db: Db, userId: string, otherId: string, roomId: string, now = new Date()): Promise<OpenConsent> {
  const row = await findRequest(db, roomId);
  if (row?.status === "pending") return { request: info(row, userId) };
  if (row && row.fromUserId !== userId) {
    // They declined this person earlier and now open the chat themselves: that is consent.
    await clearRequest(db, roomId);
    return {};
  }
  // A recent decline stands even if they meet in a room later (joining someone's area room does not undo it).
  const askAgainAt = row?.decidedAt ? row.decidedAt.getTime() + DIRECT_REQUEST_LIMITS.declineWaitDays * DAY_MS : 0;
  if (askAgainAt > now.getTime()) throw declined(askAgainAt);
  const known = (!row && (await findRoom(db, roomId)) !== undefined) || (await shareARoom(db, userId, otherId));
  if (known) {
    if (row) await clearRequest(db, roomId);
    return {};
  }
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const counted = await takeCount(
    db,
    { key: `dm-requests:${userId}`, window: new Date(day).toISOString(), expiresAt: new Date(day + DAY_MS) },
    DIRECT_REQUEST_LIMITS.perDay,
    now,
  );
  if (!counted)
    throw new DomainError("request_limit", REQUEST_TEXTS.tooMany, { retryAfterSeconds: Math.ceil((day + DAY_MS - now.getTime()) / 1000) });
  return { request: { direction: "outgoing", since: now.getTime() }, start: true };
}

/** Writes the new request once the room exists; a request that stands meanwhile (a parallel open) is kept. */
export async function startRequest(env: Pick<Env, "ROOMS">, db: Db, roomId: string, userId: string, now = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - DIRECT_REQUEST_LIMITS.declineWaitDays * DAY_MS);
  if (!(await openRequest(db, roomId, userId, cutoff))) {
    const row = await findRequest(db, roomId);
    if (row?.status === "declined" && row.decidedAt)
      throw declined(row.decidedAt.getTime() + DIRECT_REQUEST_LIMITS.declineWaitDays * DAY_MS);
    return;
  }
  await tellRoom(env, roomId, userId);
}

/** The rooms, each direct chat with its pending request (rows of requestsAmong or db/queries/chat-lists.ts). */
export function markRequests(userId: string, rooms: RoomSummary[], rows: DirectRequestRow[]): RoomSummary[] {
  const pending = new Map(rows.filter((r) => r.status === "pending").map((r) => [r.roomId, r]));
  return rooms.map((r) => {
    const row = pending.get(r.id);
    return row ? { ...r, request: info(row, userId) } : r;
  });
}

/** Only the person asked may answer a request. */
async function requestFor(db: Db, user: Pick<User, "id">, roomId: string): Promise<DirectRequestRow> {
  const row = await findRequest(db, roomId);
  if (row?.status !== "pending" || row.fromUserId === user.id || !dmPeer(roomId, user.id))
    throw new DomainError("request_not_found", REQUEST_TEXTS.notFound);
  return row;
}

/** Accepting: an ordinary direct chat from now on (messages both ways, receipts, typing, calls). */
export async function acceptRequest(env: Pick<Env, "ROOMS">, db: Db, user: Pick<User, "id">, roomId: string): Promise<RoomSummary> {
  const row = await requestFor(db, user, roomId);
  if (!(await takePendingRequest(db, roomId))) throw new DomainError("request_not_found", REQUEST_TEXTS.notFound);
  await tellRoom(env, roomId, null);
  const [other] = await findUsersByIds(db, [row.fromUserId]);
  return {
    id: roomId,
    kind: "dm",
    name: other?.nickname ?? "Direct chat",
    encrypted: true,
    joined: true,
    memberCount: 2,
    lastMessageAt: null,
    peerId: row.fromUserId,
  };
}

/**
 * Declining: the chat leaves both lists and both people's sockets close; the sender may ask again only after
 * DIRECT_REQUEST_LIMITS.declineWaitDays.
 */
export async function declineDirectRequest(env: Pick<Env, "ROOMS">, db: Db, user: Pick<User, "id">, roomId: string): Promise<void> {
  const row = await requestFor(db, user, roomId);
  if (!(await declineRequest(db, roomId, new Date()))) throw new DomainError("request_not_found", REQUEST_TEXTS.notFound);
  await removeDmMembers(db, roomId);
  try {
    const stub = roomStub(env, roomId);
    await stub.expel(row.fromUserId, "Message request declined");
    await stub.expel(user.id, "Message request declined");
  } catch (e) {
    // D1 already says no: every new socket is refused; live ones close on their next reconnect at the latest.
    console.error("rooms: closing a declined request", e);
  }
}

function declined(askAgainAt: number): DomainError {
  const until = new Date(askAgainAt).toISOString().slice(0, 10);
  return new DomainError("request_declined", REQUEST_TEXTS.declined(until), { askAgainAt, values: { until } });
}

async function tellRoom(env: Pick<Env, "ROOMS">, roomId: string, from: string | null): Promise<void> {
  try {
    await roomStub(env, roomId).setRequest(from);
  } catch (e) {
    // The room also learns the state from D1 at every socket upgrade.
    console.error("rooms: telling the room about a request", e);
  }
}
