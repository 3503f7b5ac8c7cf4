// Loader and action of /community: the rooms and the area's SOS board come from the API in-process.
import { data, redirect } from "react-router";
import { type CommunityAnswer, JoinRoomFormSchema } from "../../../../core/rooms";
import type { NearbySos } from "../../../../core/sos";
import { apiGet, apiSend } from "../../lib/api.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export async function loadCommunity(context: Ctx) {
  const [community, sos] = await Promise.all([
    apiGet<CommunityAnswer>(context, "/api/community"),
    apiGet<{ items: NearbySos[] }>(context, "/api/emergency/nearby"),
  ]);
  return { community: community as CommunityAnswer, sos: sos ? sos.items.filter((s) => s.status === "active") : null };
}

export async function joinRoom(request: Request, context: Ctx) {
  const parsed = JoinRoomFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown room" }, { status: 400 });
  const { roomId } = parsed.data;
  const res = await apiSend(context, "POST", `/api/rooms/${encodeURIComponent(roomId)}/join`);
  if (res.status === 401) throw redirect("/signup");
  if (!res.ok) return data({ error: refusalOr(res.json, "error.somethingWrong") }, { status: res.status });
  throw redirect(`/chat?room=${encodeURIComponent(roomId)}`);
}
