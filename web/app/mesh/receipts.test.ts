// Receipts: batched, chunked to the protocol's limit, kept while no transport carries them, never moving back.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ClientFrame, MAX_RECEIPT_IDS } from "../../../core/frames";
import { History } from "./history";
import { memoryStore, message } from "./memory-store.test-support";
import { RECEIPT_BATCH_MS, Receipts } from "./receipts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup(up = true) {
  const history = new History({ changed() {}, tell() {} }, memoryStore());
  const sent: ClientFrame[] = [];
  const link = { up };
  const receipts = new Receipts(history, (_room, frame) => {
    if (!link.up) return false;
    sent.push(frame);
    return true;
  });
  return { history, receipts, sent, link };
}

describe("receipts", () => {
  it("sends the delivered receipts of a burst in one frame and marks the messages", async () => {
    const { history, receipts, sent } = setup();
    for (const id of ["a", "b", "c"]) {
      await history.add(message("r", id));
      receipts.queue("r", id, "delivered");
    }
    await vi.advanceTimersByTimeAsync(RECEIPT_BATCH_MS);
    expect(sent).toEqual([{ type: "receipt", status: "delivered", ids: ["a", "b", "c"] }]);
    expect(history.get("r", "b")?.receipt).toBe("delivered");
  });

  it("splits receipts into frames of at most MAX_RECEIPT_IDS ids", async () => {
    const { receipts, sent } = setup();
    for (let i = 0; i < MAX_RECEIPT_IDS + 1; i++) receipts.queue("r", `m${i}`, "read");
    await vi.advanceTimersByTimeAsync(RECEIPT_BATCH_MS);
    expect(sent.map((f) => (f.type === "receipt" ? f.ids.length : 0))).toEqual([MAX_RECEIPT_IDS, 1]);
  });

  it("keeps receipts owed while no transport is up and sends them at the next chance", async () => {
    const { history, receipts, sent, link } = setup(false);
    await history.add(message("r", "a"));
    await history.add(message("r", "mine", { mine: true }));
    receipts.queueOwed("r");
    await vi.advanceTimersByTimeAsync(RECEIPT_BATCH_MS);
    expect(sent).toEqual([]);
    link.up = true;
    receipts.queueOwed("r");
    await vi.advanceTimersByTimeAsync(RECEIPT_BATCH_MS);
    expect(sent).toEqual([{ type: "receipt", status: "delivered", ids: ["a"] }]);
  });

  it("moves my message's status forward only: a late 'delivered' never undoes 'read'", async () => {
    const { history, receipts } = setup();
    await history.add(message("r", "m", { mine: true, status: "sent" }));
    await history.add(message("r", "theirs"));
    await receipts.received("r", ["m", "theirs"], "read");
    await receipts.received("r", ["m"], "delivered");
    expect(history.get("r", "m")?.status).toBe("read");
    expect(history.get("r", "theirs")?.status).toBeUndefined();
  });
});
