// Room ids, parsed in one place (docs/architecture.md §5): `nearby:<geohash-5>` for an area, `group:<id>`,
// and `dm:<a>:<b>` with the two user ids sorted. No zod here: the browser's shell imports it too.

export type RoomKind = "nearby" | "group" | "dm";

export function dmRoomId(a: string, b: string): string {
  return `dm:${[a, b].sort().join(":")}`;
}
export function nearbyRoomId(geohash5: string): string {
  return `nearby:${geohash5.slice(0, 5)}`;
}
export function roomKind(roomId: string): RoomKind | null {
  const kind = roomId.split(":")[0];
  return kind === "nearby" || kind === "group" || kind === "dm" ? kind : null;
}
/** Direct chats and groups: end-to-end encrypted, so nothing readable of theirs goes to the server. */
export function isPrivateRoomId(roomId: string): boolean {
  const kind = roomKind(roomId);
  return kind === "dm" || kind === "group";
}
/** The two people of a `dm:<a>:<b>` room, or null for any other room. */
export function dmMembers(roomId: string): [string, string] | null {
  const parts = roomId.split(":");
  if (parts[0] !== "dm" || parts.length !== 3 || !parts[1] || !parts[2]) return null;
  return [parts[1], parts[2]];
}
/** The other person of a direct chat, or null when the room is not a direct chat of `userId`. */
export function dmPeer(roomId: string, userId: string): string | null {
  const members = dmMembers(roomId);
  if (!members?.includes(userId)) return null;
  return members[0] === userId ? members[1] : members[0];
}
/**
 * The Durable Object name of shard `n` of a room (docs/decisions/043-room-speed-and-shards.md): shard 0 is the room
 * itself, so a room that never shards keeps its one object; a busy area's further shards are `<room>#<n>`.
 */
export function shardObjectName(roomId: string, shard: number): string {
  return shard === 0 ? roomId : `${roomId}#${shard}`;
}
