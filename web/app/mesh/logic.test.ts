import { describe, expect, it } from "vitest";
import type { Envelope } from "../../../core/envelope";
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  chunk,
  dmPeer,
  forwardEnvelope,
  isPrivateRoom,
  packContent,
  SeenIds,
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
  it("backs off exponentially, capped at 30 s", () => {
    const top = () => 1;
    expect(backoffDelay(0, top)).toBe(500);
    expect(backoffDelay(1, top)).toBe(1000);
    expect(backoffDelay(4, top)).toBe(8000);
    expect(backoffDelay(20, top)).toBe(BACKOFF_CAP_MS);
    // Jitter only shortens, by at most a fifth.
    expect(backoffDelay(3, () => 0)).toBe(3200);
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

  it("knows rooms and peers", () => {
    expect(dmPeer("dm:alice:bob", "bob")).toBe("alice");
    expect(dmPeer("dm:alice:bob", "alice")).toBe("bob");
    expect(dmPeer("dm:alice:bob", "carol")).toBeNull();
    expect(dmPeer("nearby:s1v0g", "bob")).toBeNull();
    expect(isPrivateRoom("group:abcdefgh")).toBe(true);
    expect(isPrivateRoom("nearby:s1v0g")).toBe(false);
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
