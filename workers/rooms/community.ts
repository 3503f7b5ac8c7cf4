// /community (issue 18): public area rooms near the viewer and the largest ones, and joining one of them.
// Area rooms are public to every signed-in person (rooms.ts `requireRoomAccess`); groups and chats never show here.
import { roomKind } from "../../core/envelope";
import { decodeGeohash, distanceMetres, regionPrefixes } from "../../core/geohash";
import { COMMUNITY_RADIUS_KM, type CommunityAnswer, type CommunityRoom, type RoomSummary } from "../../core/rooms";
import type { Db } from "../../db";
import { addMembers, ensureRoom, findRoom, listAreaRooms, listMembers, listUserRooms } from "../../db/queries/rooms";
import type { User } from "../../db/schema";
import { DomainError } from "../../core/domain-error";
import { nearbyFor } from "./rooms";

const LISTED = 10;

const cellOf = (roomId: string) => roomId.slice("nearby:".length);

export async function communityFor(db: Db, user: User | null): Promise<CommunityAnswer> {
  const nearby = user ? nearbyFor(user) : null;
  const joined = new Set(user ? (await listUserRooms(db, user.id)).map((r) => r.id) : []);
  const centre = nearby ? decodeGeohash(cellOf(nearby.roomId)) : null;
  const km = (roomId: string) => (centre ? Math.round(distanceMetres(centre, decodeGeohash(cellOf(roomId))) / 100) / 10 : null);
  const shape = (r: { id: string; name: string; memberCount: number }): CommunityRoom => ({
    id: r.id,
    name: r.name,
    memberCount: Number(r.memberCount),
    distanceKm: km(r.id),
    joined: joined.has(r.id),
  });

  let near: CommunityRoom[] = [];
  if (nearby && centre) {
    const rows = await listAreaRooms(db, { prefixes: regionPrefixes(centre.latitude, centre.longitude), limit: 500 });
    near = rows
      .map(shape)
      .filter((r) => (r.distanceKm ?? 0) <= COMMUNITY_RADIUS_KM)
      .sort((a, b) => (a.distanceKm ?? 0) - (b.distanceKm ?? 0));
    // The viewer's own area room comes first, even before anyone has joined it.
    if (!near.some((r) => r.id === nearby.roomId)) near.unshift(shape({ id: nearby.roomId, name: nearby.name, memberCount: 0 }));
    near = near.slice(0, LISTED);
  }
  const largest = (await listAreaRooms(db, { limit: LISTED })).filter((r) => Number(r.memberCount) > 0).map(shape);
  return { signedIn: user !== null, area: nearby ? { name: nearby.name, roomId: nearby.roomId } : null, near, largest };
}

/** POST /api/rooms/:id/join: joins a public area room (the viewer's own, or one that exists already). */
export async function joinAreaRoom(db: Db, user: User, roomId: string): Promise<RoomSummary> {
  if (roomKind(roomId) !== "nearby")
    throw new DomainError("area_rooms_only", "Only area rooms are open to everyone; groups join by invitation");
  const own = nearbyFor(user);
  const row = own?.roomId === roomId ? await ensureRoom(db, { id: roomId, kind: "nearby", name: own.name }) : await findRoom(db, roomId);
  if (!row) throw new DomainError("room_not_found", "Room not found");
  await addMembers(db, row.id, [{ userId: user.id }]);
  return {
    id: row.id,
    kind: "nearby",
    name: row.name,
    encrypted: false,
    joined: true,
    memberCount: (await listMembers(db, row.id)).length,
    lastMessageAt: null,
  };
}
