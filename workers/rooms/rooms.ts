// Room domain (docs/architecture.md §5): which rooms a user has, joining the area room, creating groups, opening direct
// chats, and who may enter a room. The API routes and the socket upgrade call these; access is decided here.
import { dmPeer, dmRoomId, nearbyRoomId, roomKind } from "../../core/room-ids";
import { newId } from "../../core/ids";
import { nameForOthers } from "../../core/names";
import { NO_AREA_MESSAGE, resolveArea } from "../../core/places";
import type { NearbyInfo, RoomMemberInfo, RoomStats, RoomSummary, RoomsAnswer } from "../../core/rooms";
import type { Db } from "../../db";
import { addMembers, ensureRoom, findRoom, findUsersByIds, listMembers, type RoomRow } from "../../db/queries/rooms";
import type { User } from "../../db/schema";
import { DomainError } from "../../core/domain-error";
import { blockedInfos, invitationInfos, inviteToGroup, requireNotBlockedBy } from "./membership";
import { type ChatLists, chatListsOf } from "../../db/queries/chat-lists";
// A team room admits only its organisation's members (docs/decisions/067-enterprise-teams.md).
import { groupAccess } from "../../db/queries/teams";
import { dmMembership } from "../../db/queries/direct-requests";
import { consentToOpen, markRequests, startRequest } from "./requests";
import { roomStub } from "./stub";

/** The user's area room, by the one precedence every channel uses (core/places.ts `resolveArea`). */
export function nearbyFor(user: Pick<User, "latitude" | "longitude" | "geohash" | "locationText">): NearbyInfo | null {
  const area = resolveArea(user);
  return area ? { roomId: nearbyRoomId(area.geohash), name: area.name, source: area.source } : null;
}

/**
 * A town typed in the profile places a person without a shared position in that town's area (users.geohash),
 * so area SOS alerts and counts reach them as they reach people who shared a position.
 */
export function withTownArea<P extends { locationText?: string | null }>(
  user: Pick<User, "latitude" | "longitude">,
  patch: P,
): P & { geohash?: string | null } {
  if (patch.locationText === undefined || user.latitude !== null) return patch;
  return { ...patch, geohash: resolveArea({ locationText: patch.locationText })?.geohash ?? null };
}

/**
 * The name others see in a room: the nickname, or in anonymous mode a generated name everywhere but the groups the
 * person joined (core/names.ts `nameForOthers`, docs/decisions/049-abuse-bans-claims-and-names.md).
 */
export function shownName(user: Pick<User, "id" | "nickname" | "anonymousMode">, roomId: string): string {
  return nameForOthers(user, roomId);
}

function summary(row: Pick<RoomRow, "id" | "kind" | "name">, extra: Partial<RoomSummary> = {}): RoomSummary {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    encrypted: row.kind !== "nearby",
    joined: true,
    memberCount: 0,
    lastMessageAt: null,
    ...extra,
  };
}

/**
 * GET /api/rooms: the area room (joined or not), then groups and direct chats, latest activity first. One
 * statement: the rooms and what the screen lists beside them (db/queries/chat-lists.ts, docs/decisions/057, 065).
 */
export async function roomsFor(db: Db, user: User, read?: ChatLists): Promise<RoomsAnswer> {
  const nearby = nearbyFor(user);
  // A /chat page load read them with the session already (docs/decisions/065-the-session-off-d1.md).
  const lists = read ?? (await chatListsOf(db, user.id));
  const rows = lists.rooms;
  const names = new Map(lists.directs.flatMap((d) => (d.peer ? [[d.peer.id, nameForOthers(d.peer)] as const] : [])));
  const verifiedPeers = new Set(lists.directs.flatMap((d) => (d.peer?.verified ? [d.peer.id] : [])));
  const rooms: RoomSummary[] = rows.map((r) => {
    const peerId = r.kind === "dm" ? (dmPeer(r.id, user.id) ?? undefined) : undefined;
    return summary(r, {
      name: peerId ? (names.get(peerId) ?? r.name) : r.name,
      memberCount: Number(r.memberCount),
      lastMessageAt: r.lastMessageAt === null ? null : Number(r.lastMessageAt),
      ...(r.team ? { team: true } : {}),
      ...(peerId ? { peerId, peerVerified: verifiedPeers.has(peerId) } : {}),
    });
  });
  // Only the current area room is listed among nearby rooms; areas the user has left behind drop out.
  const list = rooms.filter((r) => r.kind !== "nearby" || r.id === nearby?.roomId);
  if (nearby && !list.some((r) => r.id === nearby.roomId)) {
    list.unshift(summary({ id: nearby.roomId, kind: "nearby", name: nearby.name }, { joined: false }));
  }
  list.sort((a, b) => (a.kind === "nearby" ? -1 : b.kind === "nearby" ? 1 : 0));
  const requests = lists.directs.flatMap((d) => (d.request ? [d.request] : []));
  return {
    nearby,
    rooms: markRequests(user.id, list, requests),
    invitations: invitationInfos(lists.invitations),
    blocked: blockedInfos(lists.blocked),
  };
}

/** POST /api/rooms/nearby/join: joins the user's current area room. */
export async function joinNearby(db: Db, user: User): Promise<RoomSummary> {
  const nearby = nearbyFor(user);
  if (!nearby) throw new DomainError("no_area", NO_AREA_MESSAGE);
  const row = await ensureRoom(db, { id: nearby.roomId, kind: "nearby", name: nearby.name });
  await addMembers(db, row.id, [{ userId: user.id }]);
  return summary(row, { memberCount: (await listMembers(db, row.id)).length });
}

/**
 * POST /api/rooms/groups: a private group owned by its creator. The people named are invited, not added:
 * they become members only when they accept (membership.ts).
 */
export async function createGroup(db: Db, user: User, input: { name: string; memberIds: string[] }): Promise<RoomSummary> {
  const ids = [...new Set(input.memberIds.filter((id) => id !== user.id))];
  const found = await findUsersByIds(db, ids);
  if (found.length !== ids.length) throw new DomainError("unknown_member", "Some members do not exist");
  const row = await ensureRoom(db, { id: `group:${newId()}`, kind: "group", name: input.name, createdBy: user.id });
  await addMembers(db, row.id, [{ userId: user.id, role: "owner" }]);
  await inviteToGroup(db, user, row.id, ids);
  return summary(row, { memberCount: 1 });
}

/**
 * POST /api/rooms/dm: the direct chat between the user and another person (the same room every time). With someone
 * who shares no room with the user it is a message request until they accept (workers/rooms/requests.ts).
 */
export async function openDm(
  env: Pick<Env, "ROOMS">,
  db: Db,
  user: User,
  otherId: string,
): Promise<{ room: RoomSummary; created: boolean }> {
  if (otherId === user.id) throw new DomainError("cannot_chat_self", "You cannot open a direct chat with yourself");
  const [other] = await findUsersByIds(db, [otherId]);
  if (!other) throw new DomainError("user_not_found", "User not found");
  await requireNotBlockedBy(db, user.id, other.id);
  const id = dmRoomId(user.id, other.id);
  const consent = await consentToOpen(db, user.id, other.id, id);
  const existing = await findRoom(db, id);
  const row = existing ?? (await ensureRoom(db, { id, kind: "dm", name: "Direct chat", createdBy: user.id }));
  if (consent.start) await startRequest(env, db, id, user.id);
  await addMembers(db, id, [{ userId: user.id }, { userId: other.id }]);
  const request = consent.request ? { request: consent.request } : {};
  // The peer as strangers see them: an anonymous member of an area room stays anonymous here (issue 27 finding 9).
  return {
    room: summary(row, {
      name: nameForOthers(other, id),
      memberCount: 2,
      peerId: other.id,
      peerVerified: other.authMode === "verified",
      ...request,
    }),
    created: !existing,
  };
}

/**
 * Who may enter a room (socket upgrade, member list): area rooms are public to every signed-in user; groups
 * and direct chats only to their members. Throws 404 for an unknown private room, 403 for a non-member.
 */
/**
 * Who may enter a room; for a direct chat waiting for consent, answers who asked (read with the membership, so the
 * socket upgrade needs no other query: docs/decisions/050-consent-before-a-stranger-reaches-you.md).
 */
export async function requireRoomAccess(db: Db, user: User, roomId: string): Promise<{ requester: string | null }> {
  const kind = roomKind(roomId);
  if (kind === "nearby") return { requester: null };
  if (kind === "dm") {
    const peerId = dmPeer(roomId, user.id);
    if (!peerId) throw new DomainError("not_member", "You are not a member of this room");
    await requireNotBlockedBy(db, user.id, peerId);
    const { member, requester } = await dmMembership(db, roomId, user.id);
    if (member) return { requester };
  } else if (await groupAccess(db, roomId, user.id)) return { requester: null };
  if (!(await findRoom(db, roomId))) throw new DomainError("room_not_found", "Room not found");
  throw new DomainError("not_member", "You are not a member of this room");
}

/** GET /api/rooms/:id/members: members with their device public keys (what senders encrypt to). */
export async function membersOf(db: Db, user: User, roomId: string): Promise<RoomMemberInfo[]> {
  await requireRoomAccess(db, user, roomId);
  return (await listMembers(db, roomId)).map((m) => ({
    userId: m.userId,
    nickname: shownName({ id: m.userId, nickname: m.nickname, anonymousMode: m.anonymousMode }, roomId),
    role: m.role,
    keys: m.keys,
    // Served as stored: each client checks it (core/group-invitations.ts); the server's word counts for nothing.
    ...(m.invitation ? { invitation: JSON.parse(m.invitation) as unknown } : {}),
  }));
}

/** GET /api/rooms/:id/stats: the room's own live figures (its sockets are its active connections). */
export async function roomStats(env: Pick<Env, "ROOMS">, db: Db, user: User, roomId: string): Promise<RoomStats> {
  await requireRoomAccess(db, user, roomId);
  const live = await roomStub(env, roomId).stats();
  return {
    roomId,
    nodes: live.nodes,
    people: live.people,
    present: live.present,
    activeConnections: live.nodes,
    messagesStored: live.stored,
    messagesRelayed: live.relayed,
  };
}
