import { describe, expect, it } from "vitest";
import type { Envelope } from "./envelope";
import { MAX_FRAME_BYTES, encodeFrame, parseClientFrame, parseServerFrame } from "./frames";

const envelope: Envelope = {
  id: "env-0000001",
  room: "nearby:s1v0g",
  senderId: "u1",
  timestamp: 1_700_000_000_000,
  type: "text",
  ttl: 8,
  meshRoute: [],
  isEncrypted: false,
  priority: "normal",
  content: { text: "Hello" },
};

describe("frame protocol", () => {
  it("reads each client frame", () => {
    for (const frame of [
      { type: "send", envelope },
      { type: "resume", cursor: 0 },
      { type: "receipt", status: "read", ids: ["env-0000001"] },
      { type: "ping", at: 1 },
      { type: "typing", active: true },
    ]) {
      const parsed = parseClientFrame(JSON.stringify(frame));
      expect(parsed.ok, JSON.stringify(frame)).toBe(true);
    }
  });

  it("answers not-JSON and wrong shapes as malformed, with a reason", () => {
    expect(parseClientFrame("{nope")).toMatchObject({ ok: false, code: "malformed", message: "Frame is not valid JSON" });
    const bad = parseClientFrame(JSON.stringify({ type: "send", envelope: { ...envelope, ttl: 99 } }));
    expect(bad).toMatchObject({ ok: false, code: "malformed" });
    if (!bad.ok) expect(bad.message).toContain("envelope.ttl");
    expect(parseClientFrame(JSON.stringify({ type: "explode" }))).toMatchObject({ ok: false, code: "malformed" });
    expect(parseClientFrame(JSON.stringify({ type: "resume", cursor: -1 }))).toMatchObject({ ok: false });
    expect(parseClientFrame(JSON.stringify({ type: "receipt", status: "read", ids: [] }))).toMatchObject({ ok: false });
  });

  it("refuses frames over 64 KiB, counting UTF-8 bytes", () => {
    const big = JSON.stringify({ type: "typing", active: true, pad: "x".repeat(MAX_FRAME_BYTES) });
    expect(parseClientFrame(big)).toMatchObject({ ok: false, code: "too_large" });
    // 30,000 three-byte characters: 30k UTF-16 units but 90k bytes.
    const wide = JSON.stringify({ type: "typing", active: true, pad: "₦".repeat(30_000) });
    expect(wide.length).toBeLessThan(MAX_FRAME_BYTES);
    expect(parseClientFrame(wide)).toMatchObject({ ok: false, code: "too_large" });
    expect(parseClientFrame(new TextEncoder().encode(JSON.stringify({ type: "ping" })).buffer)).toMatchObject({ ok: true });
  });

  it("round-trips server frames", () => {
    const frames = [
      { type: "hello", room: "nearby:s1v0g", userId: "u1", latestSeq: 3, encrypted: false },
      { type: "ack", id: envelope.id, status: "sent", seq: 4 },
      { type: "envelope", seq: 4, envelope },
      { type: "resume-batch", items: [{ seq: 4, envelope }] },
      { type: "resume-done", cursor: 4, receipts: [{ id: envelope.id, status: "delivered", by: "u2" }] },
      { type: "receipt", status: "read", ids: [envelope.id], by: "u2", at: 5 },
      { type: "presence", nodes: 2, members: [{ userId: "u1", nickname: "Ada", nodes: 2 }] },
      { type: "presence", nodes: 90, people: 80, members: [{ userId: "u1", nickname: "Ada", nodes: 2 }], after: "u0", next: "u1" },
      { type: "presence-delta", nodes: 3, people: 2, joined: [{ userId: "u3", nickname: "Bo", nodes: 1 }], left: ["u2"] },
      { type: "error", code: "rate_limited", message: "Slow down", retryAfterMs: 500 },
    ] as const;
    for (const frame of frames) {
      const parsed = parseServerFrame(encodeFrame(frame as never));
      expect(parsed).toEqual({ ok: true, frame });
    }
  });
});
