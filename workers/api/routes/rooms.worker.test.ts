// Room API through the real Worker and D1.
import { describe, expect, it } from "vitest";
import { exportPublicKey, generateDeviceKeyPair } from "../../../core/crypto";
import { createDevice, signDeviceRecord } from "../../../core/e2e";
import { dmRoomId } from "../../../core/envelope";
import { encodeGeohash } from "../../../core/geohash";
import { MAX_DEVICE_KEYS, type RoomMemberInfo, type RoomsAnswer, type RoomSummary } from "../../../core/rooms";
import { CLOSE_NOT_MEMBER } from "../../../core/frames";
import { anonymousSession, call } from "../../../tests/workers/helpers";
import { mustOpen, openRoom } from "../../../tests/workers/room-socket";

async function rooms(cookie: string): Promise<RoomsAnswer> {
  const res = await call("/api/rooms", { cookie });
  expect(res.status).toBe(200);
  return res.json();
}

const path = (roomId: string, rest: string) => `/api/rooms/${encodeURIComponent(roomId)}/${rest}`;
const accept = async (cookie: string, roomId: string) =>
  (await call(`/api/rooms/invitations/${encodeURIComponent(roomId)}/accept`, { method: "POST", cookie })).status;

async function newGroup(owner: { cookie: string }, memberIds: string[], name = "Yam growers"): Promise<string> {
  const res = await call("/api/rooms/groups", { method: "POST", cookie: owner.cookie, json: { name, memberIds } });
  expect(res.status).toBe(201);
  return (await res.json<{ room: RoomSummary }>()).room.id;
}

describe("room API access", () => {
  it("needs a session", async () => {
    for (const [method, path] of [
      ["GET", "/api/rooms"],
      ["POST", "/api/rooms/nearby/join"],
      ["POST", "/api/rooms/groups"],
      ["POST", "/api/rooms/dm"],
      ["PUT", "/api/keys"],
      ["GET", "/api/keys/someone"],
      ["GET", "/api/rooms/invitations"],
      ["POST", "/api/rooms/invitations/group:abcdefgh12/accept"],
      ["POST", "/api/rooms/group:abcdefgh12/leave"],
      ["POST", "/api/blocks"],
      ["DELETE", "/api/blocks/someone"],
    ]) {
      const res = await call(path, { method, json: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toEqual({ error: "Sign in required", code: "sign_in_required" });
    }
  });
});

describe("area room", () => {
  it("comes from the browser's position and can be joined", async () => {
    const a = await anonymousSession();
    expect(
      (await call("/api/me/location", { method: "PUT", cookie: a.cookie, json: { latitude: 6.6018, longitude: 3.3515 } })).status,
    ).toBe(200);
    const before = await rooms(a.cookie);
    const roomId = `nearby:${encodeGeohash(6.6018, 3.3515, 5)}`;
    expect(before.nearby).toEqual({ roomId, name: "Ikeja area", source: "position" });
    expect(before.rooms[0]).toMatchObject({ id: roomId, kind: "nearby", encrypted: false, joined: false });

    const join = await call("/api/rooms/nearby/join", { method: "POST", cookie: a.cookie });
    expect(join.status).toBe(200);
    expect((await join.json<{ room: RoomSummary }>()).room).toMatchObject({ id: roomId, joined: true, memberCount: 1 });
    const after = await rooms(a.cookie);
    expect(after.rooms.filter((r) => r.kind === "nearby")).toEqual([expect.objectContaining({ id: roomId, joined: true })]);
  });

  it("comes from the profile's location text when there is no position, else asks for one", async () => {
    const a = await anonymousSession();
    expect((await rooms(a.cookie)).nearby).toBeNull();
    const refused = await call("/api/rooms/nearby/join", { method: "POST", cookie: a.cookie });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "Share your location or set your town in Settings to join your area room.",
      code: "no_area",
    });

    await call("/api/me", { method: "PATCH", cookie: a.cookie, json: { locationText: "Surulere, Lagos" } });
    const { nearby } = await rooms(a.cookie);
    expect(nearby).toMatchObject({ name: "Surulere area", source: "location-text" });
    expect(nearby?.roomId).toMatch(/^nearby:[0-9b-hjkmnp-z]{5}$/);
  });
});

describe("groups and direct chats", () => {
  it("creates a private group that its members see and outsiders cannot inspect", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const c = await anonymousSession();
    const res = await call("/api/rooms/groups", {
      method: "POST",
      cookie: a.cookie,
      json: { name: "Tomato sellers", memberIds: [b.user.id] },
    });
    expect(res.status).toBe(201);
    const { room } = await res.json<{ room: RoomSummary }>();
    // The people named are invited: the creator alone is a member until they accept.
    expect(room).toMatchObject({ kind: "group", name: "Tomato sellers", encrypted: true, memberCount: 1 });
    expect(room.id).toMatch(/^group:/);
    expect(await accept(b.cookie, room.id)).toBe(200);

    expect((await rooms(b.cookie)).rooms.map((r) => r.id)).toContain(room.id);
    expect((await rooms(c.cookie)).rooms.map((r) => r.id)).not.toContain(room.id);

    const members = await call(`/api/rooms/${encodeURIComponent(room.id)}/members`, { cookie: b.cookie });
    expect(members.status).toBe(200);
    const list = (await members.json<{ members: RoomMemberInfo[] }>()).members;
    expect(list.map((m) => [m.userId, m.role])).toEqual([
      [a.user.id, "owner"],
      [b.user.id, "member"],
    ]);
    const outsider = await call(`/api/rooms/${encodeURIComponent(room.id)}/members`, { cookie: c.cookie });
    expect(outsider.status).toBe(403);
    expect(await outsider.json()).toEqual({ error: "You are not a member of this room", code: "not_member" });
  });

  it("refuses a group with unknown members or no name", async () => {
    const a = await anonymousSession();
    const unknown = await call("/api/rooms/groups", { method: "POST", cookie: a.cookie, json: { name: "X", memberIds: ["nobody-here"] } });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "Some members do not exist" });
    expect((await call("/api/rooms/groups", { method: "POST", cookie: a.cookie, json: { name: " " } })).status).toBe(400);
  });

  it("opens one direct chat per pair, from either side", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const first = await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } });
    expect(first.status).toBe(201);
    const { room } = await first.json<{ room: RoomSummary }>();
    expect(room).toMatchObject({
      id: dmRoomId(a.user.id, b.user.id),
      kind: "dm",
      encrypted: true,
      name: b.user.nickname,
      peerId: b.user.id,
    });
    const back = await call("/api/rooms/dm", { method: "POST", cookie: b.cookie, json: { userId: a.user.id } });
    expect(back.status).toBe(200);
    expect((await back.json<{ room: RoomSummary }>()).room).toMatchObject({ id: room.id, name: a.user.nickname });
    const listed = (await rooms(b.cookie)).rooms.find((r) => r.id === room.id);
    expect(listed).toMatchObject({ kind: "dm", name: a.user.nickname, peerId: a.user.id });

    const self = await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: a.user.id } });
    expect(self.status).toBe(400);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: "ghost" } })).status).toBe(404);
  });
});

describe("group invitations", () => {
  it("lets nobody into a group without accepting: until then no room, no members, no socket", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const groupId = await newGroup(a, [b.user.id]);
    const invited = await rooms(b.cookie);
    expect(invited.rooms.map((r) => r.id)).not.toContain(groupId);
    expect(invited.invitations).toEqual([
      { roomId: groupId, name: "Yam growers", invitedBy: a.user.id, invitedByName: a.user.nickname, createdAt: expect.any(Number) },
    ]);
    expect((await call(path(groupId, "members"), { cookie: b.cookie })).status).toBe(403);
    const members = await (await call(path(groupId, "members"), { cookie: a.cookie })).json<{ members: RoomMemberInfo[] }>();
    expect(members.members.map((m) => m.userId)).toEqual([a.user.id]);
    expect((await openRoom(groupId, b.cookie)).status).toBe(403);

    const accepted = await call(`/api/rooms/invitations/${encodeURIComponent(groupId)}/accept`, { method: "POST", cookie: b.cookie });
    expect(accepted.status).toBe(200);
    expect((await accepted.json<{ room: RoomSummary }>()).room).toMatchObject({ id: groupId, kind: "group", memberCount: 2 });
    const after = await rooms(b.cookie);
    expect(after.rooms.map((r) => r.id)).toContain(groupId);
    expect(after.invitations).toEqual([]);
    const socket = await openRoom(groupId, b.cookie);
    expect(socket.status).toBe(101);
    socket.socket?.close();
    // Accepted once: there is nothing left to accept.
    expect(await accept(b.cookie, groupId)).toBe(404);
  });

  it("declining leaves the person outside; only members invite; members and self are not invited again", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const c = await anonymousSession();
    const groupId = await newGroup(a, [b.user.id, c.user.id]);
    const declined = await call(`/api/rooms/invitations/${encodeURIComponent(groupId)}/decline`, { method: "POST", cookie: b.cookie });
    expect(declined.status).toBe(200);
    expect((await rooms(b.cookie)).invitations).toEqual([]);
    expect(await accept(b.cookie, groupId)).toBe(404);
    expect((await openRoom(groupId, b.cookie)).status).toBe(403);

    // c has not answered: not a member, so c cannot invite anyone.
    const byOutsider = await call(path(groupId, "invitations"), { method: "POST", cookie: c.cookie, json: { userIds: [b.user.id] } });
    expect(byOutsider.status).toBe(403);
    expect(await byOutsider.json()).toEqual({ error: "You are not a member of this room", code: "not_member" });
    const again = await call(path(groupId, "invitations"), { method: "POST", cookie: a.cookie, json: { userIds: [b.user.id, a.user.id] } });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ invited: 1 });
    expect(await accept(b.cookie, groupId)).toBe(200);
    const member = await call(path(groupId, "invitations"), { method: "POST", cookie: b.cookie, json: { userIds: [a.user.id] } });
    expect(await member.json()).toEqual({ invited: 0 });
    const bad = await call(path(groupId, "invitations"), { method: "POST", cookie: a.cookie, json: { userIds: [] } });
    expect(bad.status).toBe(400);
  });
});

describe("leaving a group", () => {
  it("removes the member, closes their socket, hands ownership on, and only groups can be left", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const groupId = await newGroup(a, [b.user.id]);
    expect(await accept(b.cookie, groupId)).toBe(200);
    const socket = await mustOpen(groupId, a.cookie);
    const left = await call(path(groupId, "leave"), { method: "POST", cookie: a.cookie });
    expect(left.status).toBe(200);
    await socket.waitFor(() => socket.closed);
    expect(socket.closed?.code).toBe(CLOSE_NOT_MEMBER);
    expect((await rooms(a.cookie)).rooms.map((r) => r.id)).not.toContain(groupId);
    expect((await openRoom(groupId, a.cookie)).status).toBe(403);
    const members = await (await call(path(groupId, "members"), { cookie: b.cookie })).json<{ members: RoomMemberInfo[] }>();
    expect(members.members.map((m) => [m.userId, m.role])).toEqual([[b.user.id, "owner"]]);
    expect((await call(path(groupId, "leave"), { method: "POST", cookie: a.cookie })).status).toBe(404);

    const dm = dmRoomId(a.user.id, b.user.id);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } })).status).toBe(201);
    const notGroup = await call(path(dm, "leave"), { method: "POST", cookie: a.cookie });
    expect(notGroup.status).toBe(400);
    expect(await notGroup.json()).toEqual({ error: "Only groups can be left", code: "groups_only_leave" });
  });
});

describe("blocking a person", () => {
  it("stops a blocked person opening a direct chat, sending into it, or inviting the blocker; unblocking undoes it", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const dm = dmRoomId(a.user.id, b.user.id);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: b.cookie, json: { userId: a.user.id } })).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    const sb = await mustOpen(dm, b.cookie);

    const blocked = await call("/api/blocks", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } });
    expect(blocked.status).toBe(201);
    expect(await blocked.json()).toEqual({ blocked: { userId: b.user.id, nickname: b.user.nickname } });
    expect((await rooms(a.cookie)).blocked).toEqual([{ userId: b.user.id, nickname: b.user.nickname }]);
    // b's socket in the direct chat is closed and cannot come back: a receives nothing more from b there.
    await sb.waitFor(() => sb.closed);
    expect(sb.closed?.code).toBe(CLOSE_NOT_MEMBER);
    const reopen = await openRoom(dm, b.cookie);
    expect(reopen.status).toBe(403);
    expect(reopen.body).toEqual({ error: "You cannot message this person", code: "blocked" });
    const open = await call("/api/rooms/dm", { method: "POST", cookie: b.cookie, json: { userId: a.user.id } });
    expect(open.status).toBe(403);
    expect(await open.json()).toEqual({ error: "You cannot message this person", code: "blocked" });
    expect(sa.of("envelope")).toHaveLength(0);

    // Nor can b ask a into a group (silently: the block is not announced).
    const groupId = await newGroup(b, [a.user.id]);
    expect((await rooms(a.cookie)).invitations?.map((i) => i.roomId)).not.toContain(groupId);

    const unblocked = await call(`/api/blocks/${b.user.id}`, { method: "DELETE", cookie: a.cookie });
    expect(unblocked.status).toBe(200);
    expect((await rooms(a.cookie)).blocked).toEqual([]);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: b.cookie, json: { userId: a.user.id } })).status).toBe(200);
    const back = await openRoom(dm, b.cookie);
    expect(back.status).toBe(101);
    back.socket?.close();
    sa.close();

    const self = await call("/api/blocks", { method: "POST", cookie: a.cookie, json: { userId: a.user.id } });
    expect(self.status).toBe(400);
    expect((await call("/api/blocks", { method: "POST", cookie: a.cookie, json: { userId: "ghost" } })).status).toBe(404);
  });
});

describe("device keys", () => {
  it("publishes a device's public key for others to fetch, and lists it with room members", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const publicKey = await exportPublicKey((await generateDeviceKeyPair()).publicKey);
    const put = await call("/api/keys", { method: "PUT", cookie: a.cookie, json: { deviceId: "phone-1", publicKey } });
    expect(put.status).toBe(200);
    const got = await call(`/api/keys/${a.user.id}`, { cookie: b.cookie });
    expect(await got.json()).toEqual({ userId: a.user.id, keys: [{ deviceId: "phone-1", publicKey }], list: null });

    // Replacing the key of the same device keeps one entry.
    const next = await exportPublicKey((await generateDeviceKeyPair()).publicKey);
    await call("/api/keys", { method: "PUT", cookie: a.cookie, json: { deviceId: "phone-1", publicKey: next } });
    expect((await (await call(`/api/keys/${a.user.id}`, { cookie: b.cookie })).json<{ keys: unknown[] }>()).keys).toEqual([
      { deviceId: "phone-1", publicKey: next },
    ]);

    const dm = await (await call("/api/rooms/dm", { method: "POST", cookie: b.cookie, json: { userId: a.user.id } })).json<{
      room: RoomSummary;
    }>();
    const members = await (await call(`/api/rooms/${encodeURIComponent(dm.room.id)}/members`, { cookie: b.cookie })).json<{
      members: RoomMemberInfo[];
    }>();
    expect(members.members.find((m) => m.userId === a.user.id)?.keys).toEqual([{ deviceId: "phone-1", publicKey: next }]);
  });

  it("keeps at most 10 device keys per person: a new device replaces the longest unseen", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const published: string[] = [];
    for (let i = 0; i < MAX_DEVICE_KEYS + 2; i++) {
      const publicKey = await exportPublicKey((await generateDeviceKeyPair()).publicKey);
      published.push(publicKey);
      expect((await call("/api/keys", { method: "PUT", cookie: a.cookie, json: { deviceId: `phone-${i}`, publicKey } })).status).toBe(200);
    }
    const keys = (await (await call(`/api/keys/${a.user.id}`, { cookie: b.cookie })).json<{ keys: { publicKey: string }[] }>()).keys;
    expect(keys).toHaveLength(MAX_DEVICE_KEYS);
    expect(keys.map((k) => k.publicKey)).toContain(published.at(-1));
  });

  it("refuses a key that is not a 32-byte X25519 key, and answers 404 for an unknown user", async () => {
    const a = await anonymousSession();
    const bad = await call("/api/keys", { method: "PUT", cookie: a.cookie, json: { deviceId: "phone-1", publicKey: "not-a-key" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: "invalid_request",
      error: "Invalid request: publicKey: Expected a 32-byte X25519 public key in base64url",
    });
    expect((await call("/api/keys/nobody", { cookie: a.cookie })).status).toBe(404);
  });

  it("keeps a device's signed record as published, refuses a signature that does not match, and revokes a device", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const device = await createDevice(a.user.id, "phone-2");
    const { userId: _, ...record } = device.record;
    expect((await call("/api/keys", { method: "PUT", cookie: a.cookie, json: record })).status).toBe(200);
    const got = await (await call(`/api/keys/${a.user.id}`, { cookie: b.cookie })).json<{ keys: unknown[] }>();
    expect(got.keys).toEqual([record]);

    // A record signed for someone else (or with its keys swapped) is refused.
    const forB = await signDeviceRecord(device.signing, { ...device.record, userId: b.user.id, deviceId: "phone-3" });
    const { userId: __, ...foreign } = forB;
    const refused = await call("/api/keys", { method: "PUT", cookie: a.cookie, json: foreign });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: "The device record's signature does not match its keys and user",
      code: "device_signature",
    });
    const halfSigned = await call("/api/keys", { method: "PUT", cookie: a.cookie, json: { ...record, signature: undefined } });
    expect(halfSigned.status).toBe(400);

    // Signing out withdraws the device: others no longer see it; someone else cannot withdraw it.
    expect((await call("/api/keys/phone-2", { method: "DELETE", cookie: b.cookie })).status).toBe(404);
    expect((await call("/api/keys/phone-2", { method: "DELETE", cookie: a.cookie })).status).toBe(200);
    expect((await (await call(`/api/keys/${a.user.id}`, { cookie: b.cookie })).json<{ keys: unknown[] }>()).keys).toEqual([]);
  });
});
