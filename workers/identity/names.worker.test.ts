// The names people see of each other (issue 27 findings 9 and 10, docs/decisions/049-abuse-bans-claims-and-names.md):
// reserved and look-alike nicknames are refused wherever a nickname is set; a name taken before the rule and a
// person in anonymous mode are shown to others by a generated name: in the area room, a direct chat opened by id,
// a call's ring, their SOS envelope and the nearby SOS list.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { nearbyRoomId } from "../../core/envelope";
import { encodeGeohash } from "../../core/geohash";
import { newId } from "../../core/ids";
import { anonymousName, RESERVED_NAME_MESSAGE } from "../../core/names";
import { anonymousSession, call, shareAnAreaRoom, verifiedSession } from "../../tests/workers/helpers";
import { mustOpen } from "../../tests/workers/room-socket";

const REFUSED = ["LinkUp Support", "LIA", "System", "SOS Alert 🚨", "Admin", "Moderator", "LinkUp", "L1nkUp", "Suppоrt", "Link\u200BUp"];
const ACCEPTED = ["Adébáyọ̀", "Ngozi", "Chukwuemeka O."];

const patchMe = (cookie: string, json: Record<string, unknown>) => call("/api/me", { method: "PATCH", cookie, json });
const nicknameOf = async (cookie: string) =>
  (await (await call("/api/me", { cookie })).json<{ user: { nickname: string } }>()).user.nickname;

describe("reserved nicknames", () => {
  it.each(REFUSED)("the profile refuses %j with a clear message and keeps the old name", async (name) => {
    const { cookie, user } = await anonymousSession();
    const res = await patchMe(cookie, { nickname: name });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: RESERVED_NAME_MESSAGE, code: "reserved_name" });
    expect(await nicknameOf(cookie)).toBe(user.nickname);
  });

  it("registration (the sign-up and onboarding forms) refuses a reserved nickname before any code is sent", async () => {
    for (const nickname of ["LinkUp Support", "Moderatоr"]) {
      const { cookie, user } = await anonymousSession();
      const phoneNumber = `0816${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
      const res = await call("/api/auth/register", { method: "POST", cookie, json: { phoneNumber, nickname } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: RESERVED_NAME_MESSAGE, code: "reserved_name" });
      expect(await nicknameOf(cookie)).toBe(user.nickname);
      const sent = await env.DB.prepare('select count(*) as n from outbound_messages where "to" = ?')
        .bind(`+234${phoneNumber.slice(1)}`)
        .first<{ n: number }>();
      expect(sent?.n).toBe(0);
    }
  });

  it.each(ACCEPTED)("accepts an ordinary name with its accents: %s", async (name) => {
    const { cookie } = await anonymousSession();
    const res = await patchMe(cookie, { nickname: name.normalize("NFD") });
    expect(res.status).toBe(200);
    expect(await nicknameOf(cookie)).toBe(name.normalize("NFC"));
  });

  it("a reserved name taken before the rule is not shown to others: a direct chat and a call's ring show a generated name", async () => {
    const old = await verifiedSession("0817", "Old Name");
    const other = await verifiedSession("0817", "Bisi");
    await env.DB.prepare("update users set nickname = 'LinkUp Support' where id = ?").bind(old.id).run();
    // Neighbours in one area room: no message request stands between them (decision 050).
    await shareAnAreaRoom(old, other);
    const dm = await call("/api/rooms/dm", { method: "POST", cookie: other.cookie, json: { userId: old.id } });
    const { room: opened } = await dm.json<{ room: { id: string; name: string } }>();
    expect(opened.name).toBe(anonymousName(old.id));
    const callee = await mustOpen(opened.id, other.cookie);
    const caller = await mustOpen(opened.id, old.cookie);
    caller.send({ type: "ring", callId: newId() });
    const ring = await callee.waitForType("ring");
    expect(ring.fromName).toBe(anonymousName(old.id));
    caller.close();
    callee.close();
  });
});

describe("anonymous mode", () => {
  async function anonymousNeighbour(lat: number, lon: number) {
    const hidden = await verifiedSession("0818", "Real Name Tunde");
    expect((await patchMe(hidden.cookie, { anonymousMode: true })).status).toBe(200);
    expect((await call("/api/me/location", { method: "PUT", cookie: hidden.cookie, json: { latitude: lat, longitude: lon } })).status).toBe(
      200,
    );
    const viewer = await verifiedSession("0818", "Viewer");
    await call("/api/me/location", { method: "PUT", cookie: viewer.cookie, json: { latitude: lat, longitude: lon } });
    return { hidden, viewer, room: nearbyRoomId(encodeGeohash(lat, lon).slice(0, 5)) };
  }

  it("a direct chat opened with the member's id is named with the anonymous name, for the opener and in the rooms list", async () => {
    const { hidden, viewer } = await anonymousNeighbour(9.0765, 7.3986);
    const res = await call("/api/rooms/dm", { method: "POST", cookie: viewer.cookie, json: { userId: hidden.id } });
    expect(res.status).toBeLessThan(300);
    const body = await res.text();
    expect(body).not.toContain("Tunde");
    const { room } = JSON.parse(body) as { room: { id: string; name: string } };
    expect(room.name).toBe(anonymousName(hidden.id));
    const list = await (await call("/api/rooms", { cookie: viewer.cookie })).json<{ rooms: { id: string; name: string }[] }>();
    expect(list.rooms.find((r) => r.id === room.id)?.name).toBe(anonymousName(hidden.id));
  });

  it("their SOS envelope in the area room and the nearby SOS list carry the anonymous name, never the nickname", async () => {
    const { hidden, viewer, room } = await anonymousNeighbour(9.0579, 7.4951);
    const socket = await mustOpen(room, viewer.cookie);
    const sent = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: hidden.cookie,
      json: { message: "Flood entering the house", emergencyType: "flood", clientRequestId: newId() },
    });
    expect(sent.status).toBe(201);
    const frame = await socket.waitForType("envelope", (f) => f.envelope.type === "emergency");
    expect(frame.envelope.senderName).toBe(anonymousName(hidden.id));
    socket.close();

    const nearby = await call("/api/emergency/nearby", { cookie: viewer.cookie });
    const text = await nearby.text();
    expect(text).not.toContain("Tunde");
    const { items } = JSON.parse(text) as { items: { userId: string; senderName: string }[] };
    expect(items.find((i) => i.userId === hidden.id)?.senderName).toBe(anonymousName(hidden.id));
  });
});
