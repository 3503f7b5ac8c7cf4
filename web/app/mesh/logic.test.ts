import { describe, expect, it } from "vitest";
import { MAX_TTL as PROTOCOL_MAX_TTL, type Envelope } from "../../../core/envelope";
import {
  advanceCursor,
  BACKOFF_CAP_MS,
  BACKOFF_FLOOR_MS,
  backoffDelay,
  chunk,
  firstHearing,
  FEW_UNCOVERED,
  forwardEnvelope,
  hearCopy,
  listenAgain,
  MAX_TTL,
  packContent,
  readCursor,
  storedCursor,
  RELAY_WAIT_MS,
  SERVER_CLOSE_SPREAD_MS,
  relayToTabs,
  relayWait,
  SeenIds,
  shouldRelay,
  sosKey,
  unpackContent,
  upgradeStatus,
} from "./logic";

const envelope: Envelope = {
  id: "env-12345678",
  room: "nearby:s1v0g",
  senderId: "u1",
  timestamp: 1,
  type: "text",
  ttl: 2,
  meshRoute: ["a"],
  isEncrypted: false,
  priority: "normal",
  content: { text: "hi" },
};

describe("mesh node decisions", () => {
  it("backs off with full jitter: anywhere from a short floor up to a ceiling doubling to 30 s", () => {
    const top = () => 1;
    expect(backoffDelay(0, top)).toBe(500);
    expect(backoffDelay(1, top)).toBe(1000);
    expect(backoffDelay(4, top)).toBe(8000);
    expect(backoffDelay(20, top)).toBe(BACKOFF_CAP_MS);
    // The whole range, not a fifth of it: a low draw waits only the floor, whatever the attempt.
    expect(backoffDelay(0, () => 0)).toBe(BACKOFF_FLOOR_MS);
    expect(backoffDelay(20, () => 0)).toBe(BACKOFF_FLOOR_MS);
    expect(backoffDelay(4, () => 0.5)).toBe(Math.round(BACKOFF_FLOOR_MS + 0.5 * (8000 - BACKOFF_FLOOR_MS)));
    // After the room closed the socket (a deploy), the first retry spreads over a few seconds.
    expect(backoffDelay(0, top, SERVER_CLOSE_SPREAD_MS)).toBe(SERVER_CLOSE_SPREAD_MS);
    expect(backoffDelay(0, () => 0.5, SERVER_CLOSE_SPREAD_MS)).toBe(2550);
  });

  it("moves statuses forward only", () => {
    expect(upgradeStatus("sending", "sent")).toBe("sent");
    expect(upgradeStatus("read", "delivered")).toBe("read");
    expect(upgradeStatus("delivered", "sent")).toBe("delivered");
    expect(upgradeStatus(undefined, "delivered")).toBe("delivered");
  });

  it("appends a hop and spends ttl when forwarding; stops at ttl 0 and on loops", () => {
    const once = forwardEnvelope(envelope, "b");
    expect(once).toMatchObject({ ttl: 1, meshRoute: ["a", "b"] });
    const twice = forwardEnvelope(once!, "c");
    expect(twice).toMatchObject({ ttl: 0, meshRoute: ["a", "b", "c"] });
    expect(forwardEnvelope(twice!, "d")).toBeNull();
    expect(forwardEnvelope(envelope, "a")).toBeNull();
    expect(envelope.meshRoute).toEqual(["a"]);
  });

  it("dedupes envelope ids, forgetting the oldest past its bound", () => {
    const seen = new SeenIds(2);
    expect(seen.add("x")).toBe(true);
    expect(seen.add("x")).toBe(false);
    seen.add("y");
    seen.add("z");
    expect(seen.has("x")).toBe(false);
    expect(seen.has("z")).toBe(true);
  });

  it("splits receipt ids into frames", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("seals meta inside the private payload and opens it again", () => {
    const meta = { location: { latitude: 6.5, longitude: 3.4 } };
    const packed = packContent("📍 here", meta);
    expect(unpackContent(packed)).toEqual({ text: "📍 here", meta });
    expect(unpackContent(packContent("just text", undefined))).toEqual({ text: "just text" });
    // Someone typing the marker cannot make their text read as packed meta.
    expect(unpackContent(packContent('\u0001{"text":"x"}', undefined))).toEqual({ text: '{"text":"x"}' });
  });
});

describe("managed flooding", () => {
  // A line a - b - c - d, plus b - d: who reaches whom, as hellos announce it.
  const neighbours: Record<string, string[]> = { a: ["b"], b: ["a", "c", "d"], c: ["b", "d"], d: ["b", "c"] };

  it("relays while a neighbour has not been covered, and stays quiet once every neighbour has", () => {
    // c hears b: b reaches a, c and d, so everyone around c already has the envelope.
    expect(shouldRelay(firstHearing("c", envelope, "b", neighbours.b!), neighbours.c!)).toBe(false);
    // b hears a: a reaches only b, so c and d still need b's relay.
    const atB = firstHearing("b", envelope, "a", neighbours.a!);
    expect(shouldRelay(atB, neighbours.b!)).toBe(true);
    // … until c's copy shows that c's neighbours (b, d) have it.
    hearCopy(atB, envelope, "c", neighbours.c!);
    expect(shouldRelay(atB, neighbours.b!)).toBe(false);
  });

  it("keeps the copy with the most hops left", () => {
    const far = { ...envelope, ttl: 1, meshRoute: ["x", "y"] };
    const near = { ...envelope, ttl: 5, meshRoute: ["x"] };
    const hearing = firstHearing("d", far, "c", neighbours.c!);
    hearCopy(hearing, near, "b", neighbours.b!);
    expect(hearing.envelope).toBe(near);
    hearCopy(hearing, far, "c", neighbours.c!);
    expect(hearing.envelope).toBe(near);
  });

  it("lets the node with most uncovered neighbours go first", () => {
    const half = () => 0.5;
    // b heard from a: two of b's three neighbours are uncovered. c heard from b: none are.
    const edge = relayWait(firstHearing("b", envelope, "a", neighbours.a!), neighbours.b!, half);
    const inner = relayWait(firstHearing("c", envelope, "b", neighbours.b!), neighbours.c!, half);
    expect(edge).toBeLessThan(inner);
    expect(inner).toBeLessThanOrEqual(RELAY_WAIT_MS);
  });

  it("listens one round more when only one or two neighbours are uncovered, once", () => {
    const full = () => 1;
    // x reaches a, b, c and d; it hears a, which reaches x, b and c: only d is uncovered.
    const atX = firstHearing("x", envelope, "a", ["x", "b", "c"]);
    const around = ["a", "b", "c", "d"];
    const more = listenAgain(atX, around, full);
    expect(more).toBe(RELAY_WAIT_MS);
    expect(listenAgain(atX, around, () => 0)).toBe(0); // a second round is granted once
    // During that round e's copy arrives, and e reaches d: x stays quiet instead of relaying for d alone.
    hearCopy(atX, envelope, "e", ["x", "d"]);
    expect(shouldRelay(atX, around)).toBe(false);
    // The least it listens again is half a wait.
    expect(listenAgain(firstHearing("x", envelope, "a", ["x", "b", "c"]), around, () => 0)).toBe(RELAY_WAIT_MS / 2);
  });

  it("decides at once with nothing or more than two neighbours uncovered, and a bridge still relays after its round", () => {
    // y hears a, which reaches only y: b, c and d are uncovered, more than FEW_UNCOVERED.
    const atY = firstHearing("y", envelope, "a", ["y"]);
    expect(FEW_UNCOVERED).toBe(2);
    expect(listenAgain(atY, ["a", "b", "c", "d"])).toBe(0);
    expect(shouldRelay(atY, ["a", "b", "c", "d"])).toBe(true);
    // c heard b, which covers all of c's neighbours: no round, no relay.
    const atC = firstHearing("c", envelope, "b", neighbours.b!);
    expect(listenAgain(atC, neighbours.c!)).toBe(0);
    expect(shouldRelay(atC, neighbours.c!)).toBe(false);
    // A bridge: the next phone on is reached by nobody else, so the bridge relays after listening again.
    const bridge = firstHearing("b1", envelope, "g", ["b1", "g2", "g3"]);
    expect(listenAgain(bridge, ["g", "g2", "g3", "b2"], () => 0.5)).toBeGreaterThan(0);
    expect(listenAgain(bridge, ["g", "g2", "g3", "b2"], () => 0.5)).toBe(0);
    expect(shouldRelay(bridge, ["g", "g2", "g3", "b2"])).toBe(true);
  });

  it("passes a room's envelope to the other tabs only while one of them has no socket to that room", () => {
    const room = envelope.room;
    const withSocket = { tab: "tab-b", relays: new Set([room]) };
    const offline = { tab: "tab-c", relays: new Set<string>() };
    const elsewhere = { tab: "tab-d", relays: new Set(["nearby:s1v0h"]) };
    // Every other tab hears the room itself: no copy over the local mesh.
    expect(relayToTabs("tab-a", room, envelope, "hop-a", [withSocket])).toBeNull();
    expect(relayToTabs("tab-a", room, envelope, "hop-a", [])).toBeNull();
    // A tab without its own socket to this room gets it, one hop further along.
    expect(relayToTabs("tab-a", room, envelope, "hop-a", [withSocket, offline])).toEqual({
      ...envelope,
      ttl: 1,
      meshRoute: ["a", "hop-a"],
    });
    expect(relayToTabs("tab-a", room, envelope, "hop-a", [elsewhere])).not.toBeNull();
    // Still no relay once the envelope has no hops left.
    expect(relayToTabs("tab-a", room, { ...envelope, ttl: 0 }, "hop-a", [offline])).toBeNull();
  });

  it("stops relaying at the protocol's own hop limit", () => {
    expect(MAX_TTL).toBe(PROTOCOL_MAX_TTL);
  });
});

describe("room cursors across a busy area's shards", () => {
  it("reads the cursors stored before shards as shard 0, and stores shard 0 the old way", () => {
    expect(readCursor(41)).toEqual({ seq: 41, shard: 0 });
    expect(readCursor(undefined)).toEqual({ seq: 0, shard: 0 });
    expect(readCursor({ seq: 7, shard: 2 })).toEqual({ seq: 7, shard: 2 });
    expect(storedCursor({ seq: 41, shard: 0 })).toBe(41);
    expect(readCursor(storedCursor({ seq: 7, shard: 2 }))).toEqual({ seq: 7, shard: 2 });
  });

  it("moves forward within a shard, and only a resume-done moves it to another shard's numbers", () => {
    const onMain = { seq: 900, shard: 0 };
    expect(advanceCursor(onMain, 901, 0, false)).toEqual({ seq: 901, shard: 0 });
    expect(advanceCursor(onMain, 12, 0, true)).toBeNull();
    // A live envelope of another shard never relabels the cursor (its seq counts something else)...
    expect(advanceCursor(onMain, 12, 1, false)).toBeNull();
    // ...a resume-done from that shard does, even to a smaller number.
    expect(advanceCursor(onMain, 12, 1, true)).toEqual({ seq: 12, shard: 1 });
  });
});

describe("one SOS from the phone mesh and from the relay", () => {
  const mesh = { type: "emergency" as const, senderId: "ada", id: "sos-req-1", meta: { mesh: { device: "d1", sig: "x" } } };
  const relay = { type: "emergency" as const, senderId: "ada", id: "sos-row-9", meta: { sosId: "row-9", clientRequestId: "sos-req-1" } };

  it("gives the mesh copy and the relay's alert for it one key", () => {
    expect(sosKey(mesh)).toEqual({ key: "ada|sos-req-1", fromRelay: false });
    expect(sosKey(relay)).toEqual({ key: "ada|sos-req-1", fromRelay: true });
  });

  it("does not let another person's SOS with the same request id stand for it, and ignores other envelopes", () => {
    expect(sosKey({ ...relay, senderId: "bola" })?.key).not.toBe(sosKey(mesh)?.key);
    expect(sosKey({ ...mesh, type: "text" })).toBeNull();
    expect(sosKey({ ...relay, meta: { sosId: "row-9" } })).toBeNull();
  });
});
