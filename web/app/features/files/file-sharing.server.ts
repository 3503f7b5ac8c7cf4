// Loader of /file-sharing: the person, the files of their rooms (as the server knows them: no names) and their rooms.
import type { Me } from "../../../../core/api-types";
import type { FileInfo } from "../../../../core/files";
import type { RoomsAnswer, RoomSummary } from "../../../../core/rooms";
import { apiGet } from "../../lib/api.server";

type Ctx = Parameters<typeof apiGet>[0];

export async function loadFileSharing(context: Ctx) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, files: [] as FileInfo[], rooms: [] as RoomSummary[] };
  const [files, rooms] = await Promise.all([
    apiGet<{ files: FileInfo[] }>(context, "/api/files"),
    apiGet<RoomsAnswer>(context, "/api/rooms"),
  ]);
  return {
    user: { id: me.user.id, nickname: me.user.nickname, verified: me.user.authMode === "verified", tier: me.user.tier },
    files: files?.files ?? [],
    rooms: (rooms?.rooms ?? []).filter((r) => r.joined),
  };
}
