import { describe, expect, it } from "vitest";
import { type Envelope, MAX_META_BYTES } from "../core/envelope";
import {
  batchBySize,
  EMERGENCY_RATE,
  fullBucket,
  mergeReceipt,
  normaliseEnvelope,
  pruneBounds,
  RETAIN_MIN_COUNT,
  RETAIN_MIN_MS,
  receiptsBySender,
  refuseEnvelope,
  refuseServerEnvelope,
  SOCKET_RATE,
  stampMemberEnvelope,
  takeToken,
} from "./mesh-logic";

const base: Envelope = {
  id: "env-00000001",
  room: "group:abcdefgh12",
  senderId: "u1",
  timestamp: 1,
  type: "text",
  ttl: 8,
  meshRoute: [],
  isEncrypted: true,
  priority: "normal",
  content: { ciphertext: "xx", iv: "yy" },
};

describe("rate limit (token bucket)", () => {
  it("allows a burst, then refuses with the wait until the next token", () => {
    let bucket = fullBucket(SOCKET_RATE, 0);
    for (let i = 0; i < SOCKET_RATE.burst; i++) {
      const r = takeToken(bucket, 0, SOCKET_RATE);
      expect(r.allowed).toBe(true);
      bucket = r.bucket;
    }
    const refused = takeToken(bucket, 0, SOCKET_RATE);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBe(1000 / SOCKET_RATE.perSecond);
    // Half the wait is not enough; the full wait is.
    expect(takeToken(refused.bucket, 25, SOCKET_RATE).allowed).toBe(false);
    expect(takeToken(refused.bucket, 50, SOCKET_RATE).allowed).toBe(true);
  });

  it("refills at the sustained rate and never above the burst", () => {
    const empty = { tokens: 0, updatedAt: 0 };
    expect(takeToken(empty, 10_000_000, SOCKET_RATE).bucket.tokens).toBe(SOCKET_RATE.burst - 1);
    let bucket = empty;
    let allowed = 0;
    for (let t = 0; t <= 1000; t += 10) {
      const r = takeToken(bucket, t, SOCKET_RATE);
      bucket = r.bucket;
      if (r.allowed) allowed++;
    }
    expect(allowed).toBe(SOCKET_RATE.perSecond);
  });

  it("gives emergencies a small separate budget", () => {
    let bucket = fullBucket(EMERGENCY_RATE, 0);
    const results = Array.from({ length: 7 }, () => {
      const r = takeToken(bucket, 0, EMERGENCY_RATE);
      bucket = r.bucket;
      return r.allowed;
    });
    expect(results.filter(Boolean)).toHaveLength(EMERGENCY_RATE.burst);
  });
});

describe("what a room accepts", () => {
  const socket = { roomId: "group:abcdefgh12", userId: "u1" };

  it("takes ciphertext from the sender in its own private room", () => {
    expect(refuseEnvelope(base, socket)).toBeNull();
  });

  it("refuses plain text in private rooms and ciphertext in public rooms", () => {
    expect(refuseEnvelope({ ...base, isEncrypted: false, content: { text: "hi" } }, socket)?.code).toBe("plaintext_refused");
    expect(refuseEnvelope({ ...base, isEncrypted: false }, socket)?.code).toBe("plaintext_refused");
    const dm = { roomId: "dm:u1:u2", userId: "u1" };
    expect(refuseEnvelope({ ...base, room: "dm:u1:u2", isEncrypted: false, content: { text: "hi" } }, dm)?.code).toBe("plaintext_refused");
    const area = { roomId: "nearby:s1v0g", userId: "u1" };
    expect(refuseEnvelope({ ...base, room: "nearby:s1v0g" }, area)?.code).toBe("plaintext_refused");
    expect(refuseEnvelope({ ...base, room: "nearby:s1v0g", isEncrypted: false, content: { text: "hi" } }, area)).toBeNull();
  });

  it("refuses another room's envelope and sending as someone else", () => {
    expect(refuseEnvelope({ ...base, room: "group:other00000" }, socket)?.code).toBe("forbidden");
    expect(refuseEnvelope({ ...base, senderId: "u2" }, socket)?.code).toBe("forbidden");
  });

  it("takes only person-to-person kinds from members; the server's own envelopes may be of any kind", () => {
    for (const type of ["ai", "system", "emergency"] as const) {
      expect(refuseEnvelope({ ...base, type }, socket)?.code).toBe("forbidden");
      expect(refuseServerEnvelope({ ...base, type })).toBeNull();
    }
    for (const type of ["text", "key"] as const) expect(refuseEnvelope({ ...base, type }, socket)).toBeNull();
  });

  it("refuses meta over MAX_META_BYTES (counted in UTF-8) with too_large", () => {
    const meta = (n: number, ch = "x") => ({ p: ch.repeat(n) });
    const overhead = JSON.stringify(meta(0)).length;
    expect(refuseEnvelope({ ...base, meta: meta(MAX_META_BYTES - overhead) }, socket)).toBeNull();
    expect(refuseEnvelope({ ...base, meta: meta(MAX_META_BYTES - overhead + 1) }, socket)?.code).toBe("too_large");
    // Two bytes a character in UTF-8: half as many fit.
    expect(refuseEnvelope({ ...base, meta: meta(MAX_META_BYTES / 2, "é") }, socket)?.code).toBe("too_large");
  });

  it("stamps the server's name for the sender and normal priority on a member's envelope", () => {
    const stamped = stampMemberEnvelope({ ...base, senderName: "LinkUp Support", priority: "high" }, { nickname: "Ada" });
    expect(stamped).toMatchObject({ senderName: "Ada", priority: "normal", senderId: base.senderId, content: base.content });
  });

  it("sends emergencies with high priority", () => {
    expect(normaliseEnvelope({ ...base, type: "emergency" }).priority).toBe("high");
    expect(normaliseEnvelope(base).priority).toBe("normal");
  });
});

describe("retention", () => {
  it("keeps the last 1,000 and the last 7 days, whichever is more", () => {
    const now = 100 * RETAIN_MIN_MS;
    expect(pruneBounds(5000, now)).toEqual({ belowSeq: 5000 - RETAIN_MIN_COUNT + 1, before: now - RETAIN_MIN_MS });
    // With 500 envelopes nothing is below the seq bound.
    expect(pruneBounds(500, now).belowSeq).toBeLessThanOrEqual(0);
  });
});

describe("receipts", () => {
  it("only move forward", () => {
    expect(mergeReceipt(null, "delivered")).toBe("delivered");
    expect(mergeReceipt("delivered", "read")).toBe("read");
    expect(mergeReceipt("read", "delivered")).toBe("read");
  });

  it("group by sender and skip the reader's own envelopes", () => {
    const out = receiptsBySender(
      [
        { id: "a", senderId: "s1" },
        { id: "b", senderId: "s2" },
        { id: "c", senderId: "s1" },
        { id: "d", senderId: "me" },
      ],
      "me",
    );
    expect([...out.entries()]).toEqual([
      ["s1", ["a", "c"]],
      ["s2", ["b"]],
    ]);
  });
});

describe("resume", () => {
  it("batches by count and by size", () => {
    expect([...batchBySize([1, 2, 3, 4, 5], 2, 1000, () => 1)]).toEqual([[1, 2], [3, 4], [5]]);
    expect([...batchBySize([600, 600, 100, 2000], 50, 1000, (n) => n)]).toEqual([[600], [600, 100], [2000]]);
    expect([...batchBySize([], 2, 10, () => 1)]).toEqual([]);
  });
});
