// Kept apart from core/rooms.ts (zod schemas) so the browser's chat can import it on its own.

/** Direct chats and groups: end-to-end encrypted, so nothing readable of theirs goes to the server. */
export function isPrivateRoomId(room: string): boolean {
  return room.startsWith("dm:") || room.startsWith("group:");
}
