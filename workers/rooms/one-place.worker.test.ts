// One place, one room (docs/decisions/009-one-place-one-room.md): a town named on the web, typed on USSD,
// written in a WhatsApp SOS or kept in a profile without GPS lands in the same area room on every channel.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { anonymousSession, call, ORIGIN } from "../../tests/workers/helpers";
import { mustOpen } from "../../tests/workers/room-socket";
import { until } from "../../tests/workers/until";
import { whatsappMessage } from "../../tests/workers/whatsapp";

let n = 0;
// 0903 is a real Nigerian mobile prefix; the time only fills the subscriber digits (0900… is not a valid number).
const newPhone = () => `+234903${String(Date.now() % 1e5).padStart(5, "0")}${String(n++).padStart(2, "0")}`;

async function townsperson(town: string) {
  const s = await anonymousSession();
  expect((await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { locationText: town } })).status).toBe(200);
  const rooms = (await (await call("/api/rooms", { cookie: s.cookie })).json()) as { nearby: { roomId: string; name: string } | null };
  return { ...s, nearby: rooms.nearby };
}

async function listen(cookie: string, room: string) {
  const res = await SELF.fetch(`${ORIGIN}/ws/rooms/${encodeURIComponent(room)}`, { headers: { upgrade: "websocket", cookie } });
  expect(res.status).toBe(101);
  const ws = res.webSocket as WebSocket;
  const sos: { senderId: string; content: { text?: string } }[] = [];
  ws.accept();
  ws.addEventListener("message", (e) => {
    const frame = JSON.parse(String(e.data));
    if (frame.type === "envelope" && frame.envelope.type === "emergency") sos.push(frame.envelope);
  });
  return { ws, sos };
}

describe("one town, one area room on every channel", () => {
  it("web profile, USSD, WhatsApp and a web SOS without GPS all meet in the Lagos room", async () => {
    const listener = await townsperson("Lagos");
    expect(listener.nearby?.name).toBe("Lagos area");
    const room = listener.nearby?.roomId as string;
    // Another spelling of the same town on the web gives the same room.
    expect((await townsperson("Lagos Island")).nearby?.roomId).toBe(room);
    const { ws, sos } = await listen(listener.cookie, room);

    // USSD: the caller types the town at the 'Where are you?' step.
    const ussdPhone = newPhone();
    const sessionId = `ATUid_${newId(8)}`;
    for (const text of ["1", "1*1", "1*1*Lagos", "1*1*Lagos*1"]) {
      const res = await SELF.fetch(`${ORIGIN}/ussd`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ sessionId, serviceCode: "*384*1234#", phoneNumber: ussdPhone, networkCode: "62130", text }),
      });
      expect(res.status).toBe(200);
    }
    await until(() => sos.length >= 1);
    expect(sos).toHaveLength(1);

    // WhatsApp: an SOS naming the town, with no location shared.
    const wa = await whatsappMessage(newPhone(), { Body: "SOS fire near Lagos market" });
    expect(wa.status).toBe(200);
    await until(() => sos.length >= 2);
    expect(sos).toHaveLength(2);

    // The web: a person whose profile says Lagos sends an SOS with no GPS.
    const sender = await townsperson("Lagos");
    const web = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: { message: "Help, flood in my street", emergencyType: "flood", clientRequestId: newId() },
    });
    expect(web.status).toBeLessThan(300);
    expect(((await web.json()) as { room: string | null }).room).toBe(room);
    await until(() => sos.length >= 3);
    expect(sos.map((e) => e.senderId)).toContain(sender.user.id);
    ws.close();
  });
});

describe("anonymous mode", () => {
  it("shows a generated name instead of the nickname in area rooms", async () => {
    const hidden = await townsperson("Kano");
    const room = hidden.nearby?.roomId as string;
    await call("/api/me", { method: "PATCH", cookie: hidden.cookie, json: { nickname: "Hauwa Real Name", anonymousMode: true } });
    const other = await townsperson("Kano");
    const seen = await mustOpen(room, other.cookie);
    const own = await mustOpen(room, hidden.cookie);
    const presence = await seen.waitForPresence((f) => f.members.some((m) => m.userId === hidden.user.id));
    const shown = presence.members.find((m) => m.userId === hidden.user.id)?.nickname;
    expect(shown).toMatch(/^Anonymous [0-9A-Z]{1,4}$/);
    await call("/api/rooms/nearby/join", { method: "POST", cookie: hidden.cookie });
    const members = (await (await call(`/api/rooms/${encodeURIComponent(room)}/members`, { cookie: other.cookie })).json()) as {
      members: { userId: string; nickname: string }[];
    };
    expect(JSON.stringify(members)).not.toContain("Hauwa Real Name");

    seen.close();
    own.close();
  });
});
