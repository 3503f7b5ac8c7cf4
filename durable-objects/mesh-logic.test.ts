import { describe, expect, it } from "vitest";
import { type Envelope, MAX_META_BYTES } from "../core/envelope";
import {
  batchBySize,
  MAX_SOCKETS_PER_PERSON,
  planResume,
  RESUME_RATE,
  fullBucket,
  mergeReceipt,
  normaliseEnvelope,
  pruneBounds,
  RETAIN_MIN_COUNT,
  RETAIN_MIN_MS,
  receiptsBySender,
  refuseEnvelope,
  refuseServerEnvelope,
  PERSON_RATE,
  socketsToReplace,
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
    let bucket = fullBucket(PERSON_RATE, 0);
    for (let i = 0; i < PERSON_RATE.burst; i++) {
      const r = takeToken(bucket, 0, PERSON_RATE);
      expect(r.allowed).toBe(true);
      bucket = r.bucket;
    }
    const refused = takeToken(bucket, 0, PERSON_RATE);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBe(1000 / PERSON_RATE.perSecond);
    // Half the wait is not enough; the full wait is.
    expect(takeToken(refused.bucket, 25, PERSON_RATE).allowed).toBe(false);
    expect(takeToken(refused.bucket, 50, PERSON_RATE).allowed).toBe(true);
  });

  it("refills at the sustained rate and never above the burst", () => {
    const empty = { tokens: 0, updatedAt: 0 };
    expect(takeToken(empty, 10_000_000, PERSON_RATE).bucket.tokens).toBe(PERSON_RATE.burst - 1);
    let bucket = empty;
    let allowed = 0;
    for (let t = 0; t <= 1000; t += 10) {
      const r = takeToken(bucket, t, PERSON_RATE);
      bucket = r.bucket;
      if (r.allowed) allowed++;
    }
    expect(allowed).toBe(PERSON_RATE.perSecond);
  });

  it("lets a person catch up a few times at once, then once every 4 s", () => {
    let bucket = fullBucket(RESUME_RATE, 0);
    const results = Array.from({ length: 10 }, () => {
      const r = takeToken(bucket, 0, RESUME_RATE);
      bucket = r.bucket;
      return r;
    });
    expect(results.filter((r) => r.allowed)).toHaveLength(RESUME_RATE.burst);
    expect(results[RESUME_RATE.burst].retryAfterMs).toBe(4000);
  });
});

describe("sockets per person", () => {
  const socks = (...openedAt: number[]) => openedAt.map((t) => ({ openedAt: t }));
  it("replaces nothing while there is room for one more", () => {
    expect(socketsToReplace(socks(1, 2, 3))).toEqual([]);
    expect(MAX_SOCKETS_PER_PERSON).toBe(4);
  });
  it("replaces the oldest so the new one makes MAX_SOCKETS_PER_PERSON, whatever the order", () => {
    expect(socketsToReplace(socks(30, 10, 40, 20))).toEqual(socks(10));
    expect(socketsToReplace(socks(5, 1, 4, 2, 3))).toEqual(socks(1, 2));
  });
});

describe("resume plan (bounded answer)", () => {
  const row = (seq: number, bytes = 100) => ({ seq, bytes });
  const size = (r: { bytes: number }) => r.bytes;
  const seqs = (items: { seq: number }[]) => items.map((i) => i.seq);

  it("sends everything when it fits, emergencies first, each once", () => {
    const all = [row(1), row(2), row(3), row(4)];
    const plan = planResume([all[2]], all, size, 1000);
    expect(seqs(plan.items)).toEqual([3, 1, 2, 4]);
    expect(plan).toMatchObject({ cursor: 4, more: false });
  });

  it("stops at the byte bound with the cursor to continue from, and the continuation has the rest", () => {
    const all = Array.from({ length: 10 }, (_, i) => row(i + 1));
    const first = planResume([], all, size, 350);
    expect(seqs(first.items)).toEqual([1, 2, 3]);
    expect(first).toMatchObject({ cursor: 3, more: true });
    const next = planResume([], all.slice(3), size, 350);
    expect(seqs(next.items)).toEqual([4, 5, 6]);
  });

  it("never skips what is below the cursor when emergencies overflow their half", () => {
    const all = [row(1), row(2, 200), row(3), row(4, 200), row(5)];
    const urgent = [all[1], all[3]];
    const plan = planResume(urgent, all, size, 400);
    // Emergency 2 fits its half (200 of 400), emergency 4 does not; then 1, (2 already), 3 fill the bound, and
    // the cursor stops below the emergency still unsent.
    expect(seqs(plan.items)).toEqual([2, 1, 3]);
    expect(plan).toMatchObject({ cursor: 3, more: true });
  });

  it("always makes progress, even when one item is over the bound", () => {
    const plan = planResume([], [row(7, 10_000), row(8)], size, 350);
    expect(seqs(plan.items)).toEqual([7]);
    expect(plan).toMatchObject({ cursor: 7, more: true });
    const urgentOnly = planResume([row(9, 10_000)], [row(8, 10_000), row(9, 10_000)], size, 350);
    expect(seqs(urgentOnly.items)).toEqual([9, 8]);
    expect(urgentOnly).toMatchObject({ cursor: 9, more: false });
  });

  it("answers a null cursor when nothing was left", () => {
    expect(planResume([], [], size)).toEqual({ items: [], cursor: null, more: false });
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
