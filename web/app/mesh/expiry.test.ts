// The device side of disappearing messages: what is reported when, with a clock the test moves.
import { describe, expect, it } from "vitest";
import { type Clock, ExpiryWatch, MAX_TIMEOUT_MS, timerLine } from "./expiry";

function fakeClock(start: number) {
  let now = start;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (h) => {
      timers.delete(h as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) return;
      timers.delete(due[0]);
      due[1].fn();
    }
  };
  return { clock, advance, timers };
}

describe("ExpiryWatch", () => {
  it("reports what expired while the app was closed at once, and the rest when each is due", () => {
    const { clock, advance } = fakeClock(1_000_000);
    const seen: [string, string[]][] = [];
    const watch = new ExpiryWatch((room, ids) => seen.push([room, ids]), clock);
    watch.watch([
      { id: "old", room: "dm:a:b", expiresAt: 999_000 },
      { id: "soon", room: "dm:a:b", expiresAt: 1_005_000 },
      { id: "later", room: "group:g", expiresAt: 1_060_000 },
      { id: "kept", room: "dm:a:b" },
    ]);
    expect(seen).toEqual([["dm:a:b", ["old"]]]);
    advance(4_999);
    expect(seen).toHaveLength(1);
    advance(1);
    expect(seen).toEqual([
      ["dm:a:b", ["old"]],
      ["dm:a:b", ["soon"]],
    ]);
    advance(60_000);
    expect(seen.at(-1)).toEqual(["group:g", ["later"]]);
    advance(10 * 365 * 24 * 3600 * 1000);
    // A message without an expiry is never reported.
    expect(seen.flatMap(([, ids]) => ids)).toEqual(["old", "soon", "later"]);
  });

  it("waits for a 30-day timer in steps setTimeout can take, without firing early", () => {
    const start = 5_000;
    const { clock, advance, timers } = fakeClock(start);
    const seen: string[] = [];
    const month = 30 * 24 * 3600 * 1000;
    new ExpiryWatch((_room, ids) => seen.push(...ids), clock).watch([{ id: "m", room: "dm:a:b", expiresAt: start + month }]);
    expect(Math.max(...[...timers.values()].map((t) => t.at - start))).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
    advance(MAX_TIMEOUT_MS);
    expect(seen).toEqual([]);
    advance(month - MAX_TIMEOUT_MS);
    expect(seen).toEqual(["m"]);
  });

  it("a message watched again is reported once; stop forgets everything", () => {
    const { clock, advance } = fakeClock(0);
    const seen: string[] = [];
    const watch = new ExpiryWatch((_room, ids) => seen.push(...ids), clock);
    watch.watch([{ id: "m", room: "dm:a:b", expiresAt: 100 }]);
    watch.watch([{ id: "m", room: "dm:a:b", expiresAt: 100 }]);
    advance(100);
    expect(seen).toEqual(["m"]);
    watch.watch([{ id: "n", room: "dm:a:b", expiresAt: 200 }]);
    watch.stop();
    advance(1000);
    expect(seen).toEqual(["m"]);
  });
});

describe("timerLine", () => {
  it("takes the room's own announcement, with its meta, and nothing a member could send", () => {
    const meta = { event: "disappearing", by: "u1", byName: "Ada", timer: "1day" };
    expect(timerLine({ senderId: "system", type: "system", meta })).toEqual({ text: "", meta });
    expect(timerLine({ senderId: "u1", type: "text", meta })).toBeNull();
    expect(timerLine({ senderId: "system", type: "system", meta: { ...meta, timer: "5minutes" } })).toBeNull();
    expect(timerLine({ senderId: "system", type: "system", meta: { event: "missed-call" } })).toBeNull();
  });
});
