// The outbox's pacing and its sealing once per private envelope.
import { describe, expect, it, vi } from "vitest";
import type { Envelope } from "../../../core/envelope";
import type { OutboxItem } from "./db";
import { memoryStore } from "./memory-store.test-support";
import { Outbox, RESEND_AFTER_MS } from "./outbox";

function item(room: string, id = "e1"): OutboxItem {
  const envelope = { id, room, content: { text: "hi" } } as unknown as Envelope;
  return { id, room, envelope, createdAt: 1 };
}

describe("the outbox", () => {
  it("does not try an envelope again until RESEND_AFTER_MS have passed", () => {
    let now = 1_000;
    const box = new Outbox(memoryStore(), () => now);
    expect(box.tooSoon("e1")).toBe(false);
    box.tried("e1");
    now += RESEND_AFTER_MS - 1;
    expect(box.tooSoon("e1")).toBe(true);
    now += 1;
    expect(box.tooSoon("e1")).toBe(false);
  });

  it("seals a private envelope once and sends the same bytes on every try, until the room acknowledges it", async () => {
    const store = memoryStore();
    const box = new Outbox(store);
    let n = 0;
    const seal = vi.fn(async (e: Envelope) => ({ ...e, content: { ciphertext: `c${++n}` } }) as unknown as Envelope);
    const dm = item("dm:a:b");
    await box.put(dm);
    const first = await box.wire(dm, seal);
    expect(await box.wire(dm, seal)).toBe(first);
    expect(seal).toHaveBeenCalledTimes(1);
    await box.acknowledged(dm.id);
    expect(store.outbox.has(dm.id)).toBe(false);
    expect(await box.wire(dm, seal)).not.toEqual(first);
  });

  it("keeps nothing for a public room (its envelopes are not sealed)", async () => {
    const box = new Outbox(memoryStore());
    const seal = vi.fn(async (e: Envelope) => e);
    const open = item("nearby:s1v0g");
    await box.wire(open, seal);
    await box.wire(open, seal);
    expect(seal).toHaveBeenCalledTimes(2);
  });

  it("lets a refused envelope go from the outbox", async () => {
    const store = memoryStore();
    const box = new Outbox(store);
    await box.put(item("r"));
    await box.refused("e1");
    expect(await box.items("r")).toEqual([]);
  });
});
