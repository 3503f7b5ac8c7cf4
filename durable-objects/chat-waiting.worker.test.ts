// A first private message reaches a screen already open elsewhere (docs/decisions/061-a-first-message-reaches-an-open-screen.md):
// the direct chat's room tells the recipient's open rooms, naming the chat and the sender, never the text.
import { describe, expect, it } from "vitest";
import { dmRoomId } from "../core/envelope";
import type { RoomsAnswer } from "../core/rooms";
import { anonymousSession, call, shareAnAreaRoom } from "../tests/workers/helpers";
import { mustOpen, textEnvelope } from "../tests/workers/room-socket";

const sealed = (roomId: string, senderId: string) =>
  textEnvelope(roomId, senderId, "", { isEncrypted: true, content: { ciphertext: "c2VhbGVk", iv: "aXZpdml2aXZpdml2" } });

describe("chat-waiting", () => {
  it("tells the recipient's open area room that a direct chat got a message, and pushes nothing", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    await shareAnAreaRoom(a, b);
    const rooms = await (await call("/api/rooms", { cookie: b.cookie })).json<RoomsAnswer>();
    const areaRoom = rooms.nearby?.roomId;
    expect(areaRoom).toBeTruthy();
    // B has LinkUp open, in the area room only.
    const sb = await mustOpen(areaRoom as string, b.cookie);

    const dm = dmRoomId(a.user.id, b.user.id);
    expect((await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.user.id } })).status).toBe(201);
    const sa = await mustOpen(dm, a.cookie);
    const envelope = sealed(dm, a.user.id);
    sa.send({ type: "send", envelope });
    await sa.waitForType("ack", (f) => f.id === envelope.id);

    const told = await sb.waitForType("chat-waiting");
    expect(told).toEqual({ type: "chat-waiting", room: dm, fromName: a.user.nickname });
    // Online: the screen was told, so no push or notification was made.
    const list = await (await call("/api/notifications", { cookie: b.cookie })).json<{ notifications: unknown[] }>();
    expect(list.notifications).toEqual([]);
    sa.close();
    sb.close();
  });
});
