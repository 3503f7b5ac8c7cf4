// The local mesh between tabs on a stand-in BroadcastChannel: who is heard, and how a room is reached through a tab.
import { describe, expect, it, vi } from "vitest";
import type { LocalMeshMessage } from "../../../core/local-mesh";
import { type LocalChannel, LocalMesh, type LocalMeshEvents, PEER_EXPIRY_MS } from "./local-transport";

/** Channels of one browser: a message posted on one reaches every other (never its sender), like BroadcastChannel. */
function bus() {
  const channels: (LocalChannel & { posted: unknown[] })[] = [];
  return () => {
    const channel: LocalChannel & { posted: unknown[] } = {
      posted: [],
      onmessage: null,
      postMessage(message) {
        channel.posted.push(message);
        for (const c of channels) if (c !== channel) c.onmessage?.({ data: structuredClone(message) } as MessageEvent);
      },
      close() {},
    };
    channels.push(channel);
    return channel;
  };
}

function events() {
  return {
    peerHello: vi.fn<LocalMeshEvents["peerHello"]>(),
    peerGone: vi.fn<LocalMeshEvents["peerGone"]>(),
    relayRequest: vi.fn<LocalMeshEvents["relayRequest"]>(),
    serverFrame: vi.fn<LocalMeshEvents["serverFrame"]>(),
    changed: vi.fn<LocalMeshEvents["changed"]>(),
  };
}

const ROOM = "nearby:s1v0g";

describe("the local mesh", () => {
  it("reaches a room through the tab whose socket is open, addressing the frame to that tab only", () => {
    const open = bus();
    const aEvents = events();
    const bEvents = events();
    const cEvents = events();
    const a = new LocalMesh("tab-aaaa", "A · tab-aaaa", open(), aEvents, () => []);
    const b = new LocalMesh("tab-bbbb", "B · tab-bbbb", open(), bEvents, () => [ROOM]);
    new LocalMesh("tab-cccc", "C · tab-cccc", open(), cEvents, () => []);
    const viaB = a.transport(ROOM);
    expect(viaB.status).toBe("closed");
    expect(viaB.send({ type: "typing", active: true })).toBe(false);
    b.announce();
    expect(aEvents.peerHello).toHaveBeenCalledWith(true, [ROOM]);
    expect(viaB.status).toBe("open");
    expect(viaB.via).toBe("tab-bbbb");
    expect(viaB.send({ type: "typing", active: true })).toBe(true);
    expect(bEvents.relayRequest).toHaveBeenCalledWith(ROOM, { type: "typing", active: true });
    expect(cEvents.relayRequest).not.toHaveBeenCalled();
  });

  it("answers a new tab's hello with its own, and forgets a tab that says bye", () => {
    const open = bus();
    const aEvents = events();
    const a = new LocalMesh("tab-aaaa", "A", open(), aEvents, () => []);
    const b = new LocalMesh("tab-bbbb", "B", open(), events(), () => [ROOM]);
    a.announce();
    expect(b.peers.has("tab-aaaa")).toBe(true);
    expect(a.peers.has("tab-bbbb")).toBe(true);
    b.close();
    expect(a.peers.size).toBe(0);
    expect(aEvents.peerGone).toHaveBeenCalled();
  });

  it("forgets a tab not heard from for PEER_EXPIRY_MS", () => {
    const open = bus();
    let now = 0;
    const a = new LocalMesh(
      "tab-aaaa",
      "A",
      open(),
      events(),
      () => [],
      () => now,
    );
    new LocalMesh("tab-bbbb", "B", open(), events(), () => [ROOM]).announce();
    now = PEER_EXPIRY_MS;
    expect(a.expire()).toBe(false);
    now += 1;
    expect(a.expire()).toBe(true);
    expect(a.transport(ROOM).status).toBe("closed");
  });

  it("ignores messages that do not follow the local mesh protocol", () => {
    const open = bus();
    const aEvents = events();
    new LocalMesh("tab-aaaa", "A", open(), aEvents, () => []);
    const rogue = open();
    rogue.postMessage({ kind: "relay", from: "tab-x", to: "tab-aaaa", room: ROOM, frame: { type: "nonsense" } });
    rogue.postMessage({ kind: "changed", room: ROOM, ids: ["a"] } satisfies LocalMeshMessage);
    expect(aEvents.relayRequest).not.toHaveBeenCalled();
    expect(aEvents.changed).toHaveBeenCalledWith(ROOM, ["a"]);
  });

  it("stays silent when the local mesh is off", () => {
    const a = new LocalMesh("tab-aaaa", "A", null, events(), () => []);
    expect(a.active).toBe(false);
    a.announce();
    expect(a.transport(ROOM).send({ type: "typing", active: true })).toBe(false);
  });
});
