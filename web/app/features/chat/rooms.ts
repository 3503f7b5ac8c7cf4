// The room list on the client: GET /api/rooms, joining the area room from the browser's position, direct
// chats and groups. The last answer is kept in IndexedDB so /chat lists rooms with no network at all.
import { apiRequest } from "../../../../core/http";
import type { RoomSummary, RoomsAnswer } from "../../../../core/rooms";
import { kvGet, kvSet } from "../../mesh/db";

export async function cachedRooms(): Promise<RoomsAnswer | null> {
  return (await kvGet<RoomsAnswer>("rooms")) ?? null;
}

export async function fetchRooms(): Promise<RoomsAnswer> {
  const answer = await apiRequest<RoomsAnswer>("GET", "/api/rooms");
  await kvSet("rooms", answer);
  return answer;
}

/** The browser's position, or null when refused, unavailable or slow. */
export function currentPosition(timeoutMs = 8000): Promise<GeolocationPosition | null> {
  return new Promise((resolve) => {
    if (!("geolocation" in navigator)) return resolve(null);
    navigator.geolocation.getCurrentPosition(resolve, () => resolve(null), { timeout: timeoutMs, maximumAge: 60_000 });
  });
}

/** Reports the position (PUT /api/me/location) when given, then joins the area room for it. */
export async function joinNearby(position: GeolocationPosition | null): Promise<RoomsAnswer> {
  if (position) {
    await apiRequest("PUT", "/api/me/location", { latitude: position.coords.latitude, longitude: position.coords.longitude });
  }
  await apiRequest("POST", "/api/rooms/nearby/join");
  return fetchRooms();
}

export async function openDirectChat(userId: string): Promise<string> {
  const answer = await apiRequest<{ room?: RoomSummary; id?: string; roomId?: string }>("POST", "/api/rooms/dm", { userId });
  return answer.room?.id ?? answer.roomId ?? answer.id ?? "";
}

export async function createGroup(name: string, memberIds: string[] = []): Promise<string> {
  const answer = await apiRequest<{ room?: RoomSummary; id?: string; roomId?: string }>("POST", "/api/rooms/groups", { name, memberIds });
  return answer.room?.id ?? answer.roomId ?? answer.id ?? "";
}
