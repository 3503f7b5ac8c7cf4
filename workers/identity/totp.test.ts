// Our TOTP against the `otpauth` package it replaced in the Worker (docs/decisions/082-a-worker-that-starts-small.md):
// the same codes an authenticator app shows, the same answer to a typed code, the same link.
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { fromBase32, newTotpSecret, toBase32, totpCode, totpUri, validateTotp } from "./totp";

const O = { digits: 6, period: 30 };
const library = (secret: string, label = "someone") =>
  new OTPAuth.TOTP({ issuer: "LinkUp", label, algorithm: "SHA1", digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });

describe("TOTP", () => {
  it("shows the code RFC 6238's test vector and otpauth show, at many moments", async () => {
    // RFC 6238 appendix B, SHA-1: secret "12345678901234567890", 8 digits at 59 s is 94287082.
    const rfc = toBase32(new TextEncoder().encode("12345678901234567890"));
    expect(await totpCode(rfc, { digits: 8, period: 30 }, 59_000)).toBe("94287082");
    expect(await totpCode(rfc, { digits: 8, period: 30 }, 1_111_111_109_000)).toBe("07081804");
    for (let i = 0; i < 20; i++) {
      const secret = newTotpSecret();
      const at = 1_700_000_000_000 + i * 7_919_000;
      expect(await totpCode(secret, O, at)).toBe(library(secret).generate({ timestamp: at }));
    }
  });

  it("answers a typed code as otpauth does: the step it belongs to within the window, else null", async () => {
    const secret = newTotpSecret();
    const now = 1_750_000_000_000;
    for (const offset of [-3, -2, -1, 0, 1, 2, 3]) {
      const token = library(secret).generate({ timestamp: now + offset * 30_000 });
      const ours = await validateTotp(secret, O, token, now, 1);
      expect(ours).toBe(library(secret).validate({ token, timestamp: now, window: 1 }));
      expect(ours).toBe(Math.abs(offset) <= 1 ? offset : null);
    }
    expect(await validateTotp(secret, O, "12345", now, 1)).toBeNull();
    expect(await validateTotp(secret, O, "abcdef", now, 1)).toBeNull();
  });

  it("makes 20-byte secrets otpauth reads back, and the same otpauth:// link", () => {
    const secret = newTotpSecret(20);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(OTPAuth.Secret.fromBase32(secret).bytes).toEqual(fromBase32(secret));
    expect(fromBase32(secret.toLowerCase())).toEqual(fromBase32(secret));
    expect(() => fromBase32("ABC1")).toThrow();
    expect(totpUri(secret, { ...O, issuer: "LinkUp", label: "Ada (+234)" })).toBe(library(secret, "Ada (+234)").toString());
  });
});
