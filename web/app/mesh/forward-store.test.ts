import { describe, expect, it } from "vitest";
import type { Envelope } from "../../../core/envelope";
import { FORWARD_KEEP_MS, FORWARD_KEEP_SOS_MS, FORWARD_MAX, ForwardStore } from "./forward-store";

let n = 0;
function envelope(over: Partial<Envelope> = {}): Envelope {
  n++;
  return {
    id: `env-${String(n).padStart(6, "0")}`,
    room: "nearby:s14wk",
    senderId: "u_ada",
    timestamp: 1_700_000_000_000 + n,
    type: "text",
    ttl: 15,
    meshRoute: ["Ada · tab-1"],
    isEncrypted: false,
    priority: "normal",
    content: { text: `message ${n}` },
    ...over,
  };
}

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe("store and forward", () => {
  it("keeps at most FORWARD_MAX envelopes, dropping the oldest first", () => {
    const store = new ForwardStore();
    const all = Array.from({ length: FORWARD_MAX + 20 }, () => envelope());
    for (const e of all) store.keep(e);
    expect(store.size).toBe(FORWARD_MAX);
    expect(store.has(all[0]!.id)).toBe(false);
    expect(store.has(all[19]!.id)).toBe(false);
    expect(store.has(all[20]!.id)).toBe(true);
    expect(store.has(all.at(-1)!.id)).toBe(true);
  });

  it("keeps an SOS over ordinary messages when it is full", () => {
    const c = clock();
    const store = new ForwardStore({ max: 3, now: c.now });
    const sos = envelope({ type: "emergency", priority: "high" });
    store.keep(sos);
    for (let i = 0; i < 5; i++) {
      c.t++;
      store.keep(envelope());
    }
    expect(store.size).toBe(3);
    expect(store.has(sos.id)).toBe(true);
  });

  it("holds no more bytes than its bound, and refuses an envelope larger than the whole store", () => {
    const store = new ForwardStore({ maxBytes: 4096 });
    for (let i = 0; i < 20; i++) store.keep(envelope({ content: { text: "x".repeat(900) } }));
    expect(store.bytes).toBeLessThanOrEqual(4096);
    expect(store.size).toBeGreaterThan(0);
    expect(store.keep(envelope({ content: { text: "y".repeat(5000) } }))).toBe(false);
  });

  it("forgets a message after a day and an SOS after three", () => {
    const c = clock();
    const store = new ForwardStore({ now: c.now });
    const text = envelope();
    const sos = envelope({ type: "emergency", priority: "high" });
    store.keep(text);
    store.keep(sos);
    c.t += FORWARD_KEEP_MS - 1;
    expect(store.takeFor("phone-b").map((e) => e.id)).toEqual([sos.id, text.id]);
    c.t += 1;
    expect(store.has(text.id)).toBe(false);
    expect(store.takeFor("phone-c").map((e) => e.id)).toEqual([sos.id]);
    c.t += FORWARD_KEEP_SOS_MS;
    expect(store.size).toBe(0);
  });

  it("never carries a disappearing message past its expiry", () => {
    const c = clock();
    const store = new ForwardStore({ now: c.now });
    expect(store.keep(envelope({ expiresAt: c.t }))).toBe(false);
    const soon = envelope({ expiresAt: c.t + 1000 });
    expect(store.keep(soon)).toBe(true);
    c.t += 1000;
    expect(store.forRelay()).toEqual([]);
  });

  it("hands each envelope once to each phone, never back to the phone it came from", () => {
    const store = new ForwardStore();
    const e = envelope();
    store.keep(e, "phone-a");
    expect(store.takeFor("phone-a")).toEqual([]);
    expect(store.takeFor("phone-c")).toEqual([e]);
    expect(store.takeFor("phone-c")).toEqual([]);
    // A second copy heard from another phone marks that phone as holding it.
    expect(store.keep(e, "phone-d")).toBe(false);
    expect(store.takeFor("phone-d")).toEqual([]);
  });

  it("hands an envelope to the relay once, SOS first, and still to phones met later", () => {
    const store = new ForwardStore();
    const text = envelope();
    const sos = envelope({ type: "emergency", priority: "high" });
    store.keep(text);
    store.keep(sos);
    expect(store.forRelay().map((e) => e.id)).toEqual([sos.id, text.id]);
    store.relayed(sos.id);
    store.relayed(text.id);
    expect(store.forRelay()).toEqual([]);
    expect(store.takeFor("phone-e")).toHaveLength(2);
  });
});
