// The room list on the client: GET /api/rooms, joining the area room from the browser's position, direct
// chats and groups. The last answer is kept in IndexedDB so /chat lists rooms with no network at all.
import { useEffect, useRef, useState } from "react";
import { apiRequest, HttpError } from "../../../../core/http";
import type { RoomSummary, RoomsAnswer } from "../../../../core/rooms";
import { currentDbUser, kvGet, kvSet, selectDbUser } from "../../mesh/db";
import { type Refusal, refusalOf } from "../../i18n/refusal";

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

/**
 * Reports the position (PUT /api/me/location) when given, then joins the area room for it. When LinkUp knows no
 * area for the person the answer's `nearby` is null and nothing is joined (no request the server would refuse).
 */
export async function joinNearby(position: GeolocationPosition | null): Promise<RoomsAnswer> {
  if (position) {
    await apiRequest("PUT", "/api/me/location", { latitude: position.coords.latitude, longitude: position.coords.longitude });
  }
  const answer = await fetchRooms();
  if (!answer.nearby || answer.rooms.some((r) => r.id === answer.nearby?.roomId && r.joined)) return answer;
  await apiRequest("POST", "/api/rooms/nearby/join");
  return fetchRooms();
}

export async function openDirectChat(userId: string): Promise<string> {
  const answer = await apiRequest<{ room?: RoomSummary; id?: string; roomId?: string }>("POST", "/api/rooms/dm", { userId });
  return answer.room?.id ?? answer.roomId ?? answer.id ?? "";
}

export async function createGroup(name: string, memberIds: string[] = []): Promise<string> {
  // The people are invited after the group's signed membership starts, so their invitations can be signed by
  // this device against it (docs/decisions/081-no-silent-join.md).
  const answer = await apiRequest<{ room?: RoomSummary; id?: string; roomId?: string }>("POST", "/api/rooms/groups", {
    name,
    memberIds: [],
  });
  const id = answer.room?.id ?? answer.roomId ?? answer.id ?? "";
  // The group's signed membership starts at once with its creator alone (docs/protocol.md §6a): invited people
  // join it as they accept. Offline or failed, the first message started it instead.
  if (id)
    await import("../../mesh/keys")
      .then(async (keys) => {
        // Only a device of its person's signed list signs (decision 063): make sure this one is, first.
        const user = currentDbUser();
        if (user) await keys.publishDeviceKey(user).catch(() => {});
        await (await keys.groupMembership()).create(id);
      })
      .catch((e) => console.warn("groups: starting the signed membership", e));
  if (id && memberIds.length) await inviteToGroup(id, memberIds);
  return id;
}

/**
 * Invites people into a group with a statement this device signs for each (core/group-invitations.ts): an owner's
 * or admin's device then signs them in once they accept. Unsigned (no keys here yet), they wait for "Let in".
 */
export async function inviteToGroup(room: string, userIds: string[]): Promise<void> {
  const signed = await import("../../mesh/keys")
    .then(async (keys) => (await keys.groupMembership()).signInvitations(room, userIds))
    .catch((e) => {
      console.warn("groups: signing invitations", e);
      return [];
    });
  await apiRequest("POST", `/api/rooms/${encodeURIComponent(room)}/invitations`, { userIds, signed });
}

/**
 * The user's rooms on a screen: the cached list at once (offline), then the area room for where the browser
 * is (position reported, area room joined). `areaProblem` says why there is no area room, in the server's words.
 */
export function useAreaRooms(userId: string | null, initialRooms: RoomsAnswer | null) {
  const [rooms, setRooms] = useState<RoomsAnswer | null>(initialRooms);
  const [areaProblem, setAreaProblem] = useState<Refusal | null>(null);
  // A fresh list from the loader (after a navigation) replaces ours.
  useEffect(() => {
    if (initialRooms) setRooms(initialRooms);
  }, [initialRooms]);
  // Once per screen: find the area room for where the browser is now.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !userId) return;
    started.current = true;
    selectDbUser(userId);
    let cancelled = false;
    (async () => {
      const cached = await cachedRooms();
      if (cached && !cancelled) setRooms((r) => r ?? cached);
      if (!navigator.onLine) return;
      try {
        const answer = await joinNearby(await currentPosition());
        if (!cancelled) {
          setRooms(answer);
          setAreaProblem(answer.nearby ? null : { key: "errors.no_area" });
        }
      } catch (e) {
        if (!cancelled) setAreaProblem((e instanceof HttpError && refusalOf(e.json)) || { key: "area.unreachable" });
        fetchRooms()
          .then((a) => !cancelled && setRooms(a))
          .catch(() => {});
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [userId]);
  return { rooms, setRooms, areaProblem };
}
