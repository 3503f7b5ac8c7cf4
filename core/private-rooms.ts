// Kept apart from core/rooms.ts (zod schemas) so the browser's chat can import it on its own.

export { isPrivateRoomId } from "./room-ids";
