// /community's rooms: near ones by distance from the viewer's area, the largest nationwide, and joining one.
import { describe, expect, it } from "vitest";
import type { CommunityAnswer } from "../../core/rooms";
import { anonymousSession, call } from "../../tests/workers/helpers";

async function personIn(town: string) {
  const s = await anonymousSession();
  expect((await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { locationText: town } })).status).toBe(200);
  const joined = await call("/api/rooms/nearby/join", { method: "POST", cookie: s.cookie });
  expect(joined.status).toBe(200);
  return { ...s, roomId: ((await joined.json()) as { room: { id: string } }).room.id };
}

async function community(cookie?: string) {
  const res = await call("/api/community", cookie ? { cookie } : {});
  expect(res.status).toBe(200);
  return (await res.json()) as CommunityAnswer;
}

describe("community rooms", () => {
  it("lists area rooms near the viewer by distance, the largest nationwide, and joins one", async () => {
    const ikeja = await personIn("Ikeja");
    await personIn("Ikeja");
    const kano = await personIn("Kano");
    const lagos = await personIn("Lagos");

    const seen = await community(lagos.cookie);
    expect(seen.area?.roomId).toBe(lagos.roomId);
    expect(seen.near[0]).toMatchObject({ id: lagos.roomId, joined: true, memberCount: 1 });
    const ikejaRoom = seen.near.find((r) => r.id === ikeja.roomId);
    expect(ikejaRoom).toMatchObject({ name: "Ikeja area", memberCount: 2, joined: false });
    expect(ikejaRoom?.distanceKm).toBeGreaterThan(5);
    expect(ikejaRoom?.distanceKm).toBeLessThan(20);
    // Kano is hundreds of kilometres away: among the largest, not near.
    expect(seen.near.some((r) => r.id === kano.roomId)).toBe(false);
    expect(seen.largest[0]).toMatchObject({ id: ikeja.roomId, memberCount: 2 });
    expect(seen.largest.some((r) => r.id === kano.roomId)).toBe(true);

    const join = await call(`/api/rooms/${encodeURIComponent(ikeja.roomId)}/join`, { method: "POST", cookie: lagos.cookie });
    expect(join.status).toBe(200);
    expect((await community(lagos.cookie)).near.find((r) => r.id === ikeja.roomId)).toMatchObject({ joined: true, memberCount: 3 });
  });

  it("shows visitors the largest rooms only, and joins nothing without a session", async () => {
    const ikeja = await personIn("Ikeja");
    const seen = await community();
    expect(seen).toMatchObject({ signedIn: false, area: null, near: [] });
    expect(seen.largest.some((r) => r.id === ikeja.roomId)).toBe(true);
    expect((await call(`/api/rooms/${encodeURIComponent(ikeja.roomId)}/join`, { method: "POST" })).status).toBe(401);
  });

  it("opens only area rooms that exist: never a private group, never an invented cell", async () => {
    const owner = await anonymousSession();
    const group = await call("/api/rooms/groups", { method: "POST", cookie: owner.cookie, json: { name: "Family", memberIds: [] } });
    const groupId = ((await group.json()) as { room: { id: string } }).room.id;
    const stranger = await anonymousSession();
    const res = await call(`/api/rooms/${encodeURIComponent(groupId)}/join`, { method: "POST", cookie: stranger.cookie });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Only area rooms are open to everyone; groups join by invitation", code: "area_rooms_only" });
    expect((await call("/api/rooms/nearby%3As0000/join", { method: "POST", cookie: stranger.cookie })).status).toBe(404);
  });
});
