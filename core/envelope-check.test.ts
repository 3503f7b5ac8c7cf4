import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSendFrame } from "./envelope-check";
import { ClientFrameSchema, parseClientFrame } from "./frames";

// The room checks `send` frames without zod (core/envelope-check.ts); it must pass exactly what the schema passes,
// and give the same envelope.
const zodSend = (frame: unknown) => {
  const parsed = ClientFrameSchema.safeParse(frame);
  return parsed.success && parsed.data.type === "send" ? parsed.data.envelope : null;
};

const good = {
  id: "env-00000001",
  room: "nearby:s1bcd",
  senderId: "user-1",
  senderName: "Ada",
  timestamp: 1_763_900_000_000,
  type: "text",
  ttl: 8,
  meshRoute: ["n1", "n2"],
  isEncrypted: false,
  priority: "high",
  content: { text: "Tomatoes ₦1,200 at Mile 12" },
  meta: { location: { lat: 6.5, lng: 3.3 } },
};

const odd = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      null,
      "",
      0,
      -1,
      1.5,
      17,
      16,
      2 ** 53,
      Number.MAX_SAFE_INTEGER,
      [],
      {},
      ["x".repeat(61)],
      Array.from({ length: 17 }, () => "n"),
      "x".repeat(7),
      "x".repeat(8),
      "x".repeat(64),
      "x".repeat(65),
      "x".repeat(201),
      "text",
      "emergency",
      "chat",
      "normal",
      "high",
      true,
      false,
      { text: "hi" },
      { text: "x".repeat(8001) },
      { ciphertext: "c2VhbGVk", iv: "aXY" },
      { ciphertext: "c2VhbGVk", iv: "aXY", keyId: "k1" },
      { ciphertext: "c2VhbGVk", iv: "aXY", keyId: 5 },
      { ciphertext: "c2VhbGVk", iv: "x".repeat(65) },
      { text: 5, ciphertext: "c2VhbGVk", iv: "aXY" },
      { text: "hi", ciphertext: "c2VhbGVk", iv: "aXY" },
      { a: 1, extra: [1, 2] },
    ),
  },
  fc.string({ maxLength: 80 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 70 }), { maxLength: 18 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 4 }),
);

describe("checkSendFrame", () => {
  it("agrees with the schema on good envelopes and on every field gone wrong, added or dropped", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...Object.keys(good), "extra"), odd, fc.boolean()), { minLength: 1, maxLength: 3 }),
        (changes) => {
          const envelope: Record<string, unknown> = { ...good };
          for (const [key, value, drop] of changes) {
            if (drop) delete envelope[key];
            else envelope[key] = value;
          }
          const frame = { type: "send", envelope };
          expect(checkSendFrame(frame)).toEqual(zodSend(frame));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("agrees on whole frames of any shape", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ type: fc.constantFrom("send", "resume"), envelope: odd })), (frame) => {
        expect(checkSendFrame(frame)).toEqual(zodSend(frame));
      }),
      { numRuns: 1000 },
    );
  });

  it("gives zod's envelope: unknown keys gone, priority defaulted, the same stored JSON", () => {
    const { priority: _p, ...rest } = good;
    const frame = { type: "send", envelope: { ...rest, stray: 1, content: { text: "hi", ciphertext: "x", iv: "y" } }, more: 2 };
    const checked = checkSendFrame(frame);
    expect(checked).toMatchObject({ priority: "normal", content: { text: "hi" } });
    expect(JSON.stringify(checked)).toBe(JSON.stringify(zodSend(frame)));
  });

  it("leaves refusals to zod, which words them", () => {
    const parsed = parseClientFrame(JSON.stringify({ type: "send", envelope: { ...good, ttl: 17 } }));
    expect(parsed).toMatchObject({ ok: false, code: "malformed", message: expect.stringContaining("envelope.ttl") });
    expect(parseClientFrame(JSON.stringify({ type: "send", envelope: good }))).toEqual({
      ok: true,
      frame: { type: "send", envelope: good },
    });
  });
});
