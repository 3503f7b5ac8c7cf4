// The phone mesh's routing over data channels (docs/decisions/066-phones-paired-by-code.md), with stand-in channels:
// managed flooding across hops, TTL, dedupe, and store and forward to a phone paired later.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Envelope } from "../../../core/envelope";
import type { MeshPerson } from "../../../core/peer-mesh";
import { PeerMesh } from "./peer-transport";

type Heard = { phone: string; envelope: Envelope };

class FakeChannel {
  readyState: RTCDataChannelState = "connecting";
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  other: FakeChannel | null = null;
  send(data: string) {
    const to = this.other;
    queueMicrotask(() => to?.onmessage?.({ data }));
  }
}

function person(name: string): MeshPerson {
  return { userId: `u_${name}`, nickname: name, deviceId: `dev_${name}`, publicKey: "A".repeat(43), signingKey: "B".repeat(43) };
}

function phone(name: string, heard: Heard[]) {
  return new PeerMesh(
    person(name),
    `${name} · tab-1`,
    { envelope: (envelope) => heard.push({ phone: name, envelope }), changed: () => {} },
    () => false,
  );
}

/** Links two phones as a paired data channel would, and opens it. */
function link(a: PeerMesh, b: PeerMesh) {
  const ab = new FakeChannel();
  const ba = new FakeChannel();
  ab.other = ba;
  ba.other = ab;
  const pc = { close() {}, connectionState: "connected", onconnectionstatechange: null };
  a.add(pc as unknown as RTCPeerConnection, ab as unknown as RTCDataChannel, b.me);
  b.add(pc as unknown as RTCPeerConnection, ba as unknown as RTCDataChannel, a.me);
  for (const c of [ab, ba]) {
    c.readyState = "open";
    c.onopen?.();
  }
}

function envelope(over: Partial<Envelope> = {}): Envelope {
  return {
    id: `env-${Math.random().toString(36).slice(2, 12)}`,
    room: "nearby:s14wk",
    senderId: "u_A",
    timestamp: 1_700_000_000_000,
    type: "text",
    ttl: 16,
    meshRoute: ["A · tab-1"],
    isEncrypted: false,
    priority: "normal",
    content: { text: "Water at the north gate" },
    ...over,
  };
}

const settle = async () => {
  for (let i = 0; i < 6; i++) await vi.advanceTimersByTimeAsync(400);
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the phone mesh over data channels", () => {
  it("carries an envelope two hops along a chain, once to each phone, one hop and one TTL more each time", async () => {
    const heard: Heard[] = [];
    const [a, b, c] = ["A", "B", "C"].map((n) => phone(n, heard)) as [PeerMesh, PeerMesh, PeerMesh];
    link(a, b);
    link(b, c);
    await settle();
    const e = envelope();
    a.originate(e);
    await settle();
    expect(heard.map((h) => h.phone)).toEqual(["B", "C"]);
    const atC = heard.find((h) => h.phone === "C")?.envelope;
    expect(atC?.meshRoute).toEqual(["A · tab-1", "B · tab-1"]);
    expect(atC?.ttl).toBe(15);
    expect(b.stats.relayed).toBe(1);
    // C has no one else to tell; A already has it.
    expect(c.stats.relayed).toBe(0);
  });

  it("stays quiet where every neighbour already has the envelope (a triangle: nobody relays)", async () => {
    const heard: Heard[] = [];
    const [a, b, c] = ["A", "B", "C"].map((n) => phone(n, heard)) as [PeerMesh, PeerMesh, PeerMesh];
    link(a, b);
    link(b, c);
    link(a, c);
    await settle();
    a.originate(envelope());
    await settle();
    expect(heard.map((h) => h.phone).sort()).toEqual(["B", "C"]);
    expect(b.stats.relayed + c.stats.relayed).toBe(0);
  });

  it("does not pass on an envelope with no hops left", async () => {
    const heard: Heard[] = [];
    const [a, b, c] = ["A", "B", "C"].map((n) => phone(n, heard)) as [PeerMesh, PeerMesh, PeerMesh];
    link(a, b);
    link(b, c);
    await settle();
    a.originate(envelope({ ttl: 0 }));
    await settle();
    expect(heard.map((h) => h.phone)).toEqual(["B"]);
  });

  it("sends an SOS on without the listening wait", async () => {
    const heard: Heard[] = [];
    const [a, b, c] = ["A", "B", "C"].map((n) => phone(n, heard)) as [PeerMesh, PeerMesh, PeerMesh];
    link(a, b);
    link(b, c);
    await settle();
    a.originate(envelope({ type: "emergency", priority: "high" }));
    // Only the channels' own turns, no timer: the SOS is at C already.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(heard.map((h) => h.phone)).toEqual(["B", "C"]);
  });

  it("hands what it carried to a phone paired later, and not twice", async () => {
    const heard: Heard[] = [];
    const [a, b, d] = ["A", "B", "D"].map((n) => phone(n, heard)) as [PeerMesh, PeerMesh, PeerMesh];
    link(a, b);
    await settle();
    const e = envelope();
    a.originate(e);
    await settle();
    expect(heard.map((h) => h.phone)).toEqual(["B"]);
    link(b, d);
    await settle();
    expect(heard.filter((h) => h.phone === "D").map((h) => h.envelope.id)).toEqual([e.id]);
    expect(b.stats.handedOn).toBe(1);
  });
});
