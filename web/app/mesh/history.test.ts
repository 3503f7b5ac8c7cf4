// The mesh node's history on an in-memory store: what a reload shows, what forgetting keeps away, what other
// tabs are told.
import { describe, expect, it, vi } from "vitest";
import { HISTORY_KEPT, History } from "./history";
import { memoryStore, message } from "./memory-store.test-support";

function history() {
  const store = memoryStore();
  const events = { changed: vi.fn(), tell: vi.fn() };
  return { h: new History(events, store), store, events };
}

describe("the mesh node's history", () => {
  it("loads a room's kept messages oldest first, counts them as seen, and keeps at most HISTORY_KEPT", async () => {
    const { h, store } = history();
    for (let i = 0; i < HISTORY_KEPT + 3; i++) await store.putMessage(message("dm:a:b", `m${i}`, { timestamp: 10_000 - i }));
    await h.load("dm:a:b");
    const list = h.list("dm:a:b");
    expect(list).toHaveLength(HISTORY_KEPT);
    expect(list[0]?.timestamp).toBeLessThan(list[1]?.timestamp ?? 0);
    expect(h.seen.has("m0")).toBe(true);
    expect(store.messages.has(`m${HISTORY_KEPT + 2}`)).toBe(false);
  });

  it("counts unread messages from others and my messages still waiting", async () => {
    const { h } = history();
    await h.add(message("r", "a"));
    await h.add(message("r", "b", { receipt: "read" }));
    await h.add(message("r", "c", { mine: true, status: "sending" }));
    await h.add(message("r2", "d", { senderId: "system" }));
    expect(h.unread("r")).toBe(1);
    expect(h.unreadTotal()).toBe(1);
    expect(h.pending()).toBe(1);
    expect(h.status("r", "c")).toBe("sending");
  });

  it("forgets messages on this device for good: gone from memory and storage, kept away after a reload, other tabs told", async () => {
    const { h, store, events } = history();
    await h.add(message("r", "a"));
    await h.forget("r", ["a"]);
    expect(h.get("r", "a")).toBeUndefined();
    expect(store.messages.has("a")).toBe(false);
    expect(events.tell).toHaveBeenCalledWith("r", ["a"]);
    const again = new History({ changed() {}, tell() {} }, store);
    await again.load("r");
    expect(again.isForgotten("a")).toBe(true);
  });

  it("re-reads what another tab changed, and drops what it deleted", async () => {
    const { h, store } = history();
    await h.load("r");
    await h.add(message("r", "a"));
    await store.putMessage(message("r", "b", { text: "from the other tab" }));
    store.messages.delete("a");
    await h.reload("r", ["a", "b"]);
    expect(h.list("r").map((m) => m.text)).toEqual(["from the other tab"]);
  });

  it("shows a refusal on the message once, telling other tabs", async () => {
    const { h, events } = history();
    await h.add(message("r", "a", { mine: true, status: "sending" }));
    await h.setError("r", "a", "Not allowed");
    await h.setError("r", "a", "Not allowed");
    expect(h.get("r", "a")?.error).toBe("Not allowed");
    expect(events.tell).toHaveBeenCalledTimes(1);
  });

  it("deletes disappearing messages when due: those that expired while closed on load, the others at their moment", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const { h, store } = history();
      await store.putMessage(message("dm:a:b", "old", { expiresAt: 999_000 }));
      await store.putMessage(message("dm:a:b", "kept"));
      await h.load("dm:a:b");
      await vi.advanceTimersByTimeAsync(0);
      expect(store.messages.has("old")).toBe(false);
      expect(h.list("dm:a:b").map((m) => m.id)).toEqual(["kept"]);

      await h.add(message("dm:a:b", "soon", { expiresAt: 1_060_000 }));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(h.get("dm:a:b", "soon")).toBeDefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(h.get("dm:a:b", "soon")).toBeUndefined();
      expect(store.messages.has("soon")).toBe(false);
      // Gone for good: the room's resume (or another tab) does not bring it back.
      expect(h.isForgotten("soon")).toBe(true);
      expect(store.messages.has("kept")).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
