// The relay transport's reconnect behaviour, with a stand-in WebSocket and fake timers (no browser needed).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLOSE_NOT_MEMBER, CLOSE_REPLACED } from "../../../core/frames";
import { BACKOFF_FLOOR_MS, SERVER_CLOSE_SPREAD_MS } from "./logic";
import { RelayTransport, type TransportStatus } from "./transports";

class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  fail(code = 1006) {
    this.readyState = 3;
    this.onerror?.();
    this.onclose?.({ code });
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.fail();
  }
}

const listeners = new Map<string, () => void>();

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  listeners.clear();
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.stubGlobal("location", { protocol: "https:", host: "linkup.example" });
  vi.stubGlobal("window", {
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A relay whose jitter draws come from `random` (1: always the longest wait of the range). */
function relay(random: () => number = () => 1) {
  const statuses: TransportStatus[] = [];
  const frames: unknown[] = [];
  const t = new RelayTransport("nearby:s1v0g", { onFrame: (f) => frames.push(f), onStatus: (s) => statuses.push(s) }, random);
  return { t, statuses, frames };
}

/** Milliseconds until the relay opens its next socket (in 100 ms steps). */
function waitForNextSocket(): number {
  const before = FakeSocket.all.length;
  let waited = 0;
  while (FakeSocket.all.length === before) {
    vi.advanceTimersByTime(100);
    waited += 100;
  }
  return waited;
}

describe("the relay transport", () => {
  it("connects to the room's socket and passes valid frames on, never invalid ones", () => {
    const { t, frames, statuses } = relay();
    const ws = FakeSocket.all[0]!;
    expect(ws.url).toBe("wss://linkup.example/ws/rooms/nearby%3As1v0g");
    ws.open();
    expect(t.status).toBe("open");
    expect(statuses).toEqual(["connecting", "open"]);
    ws.onmessage?.({ data: JSON.stringify({ type: "pong" }) });
    ws.onmessage?.({ data: JSON.stringify({ type: "pong", at: "soon" }) });
    ws.onmessage?.({ data: "{oops" });
    expect(frames).toEqual([{ type: "pong" }]);
    expect(t.send({ type: "resume", cursor: 4 })).toBe(true);
    expect(ws.sent).toEqual(['{"type":"resume","cursor":4}']);
    t.close();
  });

  it("retries with doubling delays capped at 30 s at most, and starts over once a connection opens", () => {
    const { t } = relay();
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      FakeSocket.all.at(-1)!.fail();
      delays.push(waitForNextSocket());
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(t.send({ type: "ping" })).toBe(false);
    FakeSocket.all.at(-1)!.open();
    FakeSocket.all.at(-1)!.close();
    expect(waitForNextSocket()).toBe(SERVER_CLOSE_SPREAD_MS);
    FakeSocket.all.at(-1)!.fail();
    expect(waitForNextSocket()).toBe(1000);
    t.close();
  });

  it("draws each wait anywhere from a short floor up to the doubling ceiling (full jitter)", () => {
    const { t } = relay(() => 0);
    const quick: number[] = [];
    for (let i = 0; i < 8; i++) {
      FakeSocket.all.at(-1)!.fail();
      quick.push(waitForNextSocket());
    }
    // A healthy network that drew low is back within the floor, however many attempts failed before.
    expect(quick).toEqual(Array(8).fill(BACKOFF_FLOOR_MS));
    t.close();
  });

  it("spreads the clients a deploy disconnected over a few seconds instead of bringing them back together", () => {
    // Forty clients with open sockets, all closed by the room at the same moment; their draws cover [0, 1).
    const clients = Array.from({ length: 40 }, (_, i) => {
      const { t } = relay(() => i / 40);
      const ws = FakeSocket.all.at(-1)!;
      ws.open();
      return { t, ws };
    });
    const opened = FakeSocket.all.length;
    for (const c of clients) c.ws.close();
    const perSecond: number[] = [];
    for (let s = 0; s < 5; s++) {
      const before = FakeSocket.all.length;
      vi.advanceTimersByTime(1000);
      perSecond.push(FakeSocket.all.length - before);
    }
    expect(FakeSocket.all.length - opened).toBe(40);
    // About a fifth per second (8 of 40), where a fixed delay would bring all 40 back in the same instant.
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(9);
    for (const c of clients) c.t.close();
  });

  it("waits the longest backoff after the room replaced it with a newer socket of the same person", () => {
    const { t } = relay();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.fail(CLOSE_REPLACED);
    vi.advanceTimersByTime(29_900);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(2);
    t.close();
  });

  it("stops trying once the room says the person is no longer let in", () => {
    const { t } = relay();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.fail(CLOSE_NOT_MEMBER);
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(t.status).toBe("closed");
  });

  it("drops the socket when the browser goes offline and reconnects at once when it is back", () => {
    const { t } = relay();
    FakeSocket.all[0]!.open();
    listeners.get("offline")?.();
    expect(t.status).toBe("closed");
    // Offline: attempts keep failing and the backoff grows...
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(30_000);
      FakeSocket.all.at(-1)!.fail();
    }
    const before = FakeSocket.all.length;
    // ...but the 'online' event does not wait it out.
    listeners.get("online")?.();
    expect(FakeSocket.all.length).toBe(before + 1);
    FakeSocket.all.at(-1)!.open();
    expect(t.status).toBe("open");
    t.close();
    expect(t.status).toBe("closed");
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all.at(-1)!.readyState).toBe(3);
  });
});
