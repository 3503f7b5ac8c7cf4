// The one keyed MAC (workers/mac.ts): the same values the database already keeps, and no hashing without the secret.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mac, macHex } from "./mac";

const env = { SESSION_SECRET: "a-long-enough-test-secret" };

describe("the Worker's MAC", () => {
  it("is HMAC-SHA-256 under SESSION_SECRET, so stored session, code and key hashes still match", async () => {
    const expected = createHmac("sha256", env.SESSION_SECRET).update("device:abc").digest("base64url");
    expect(await mac(env, "device:abc")).toBe(expected);
    expect(await macHex(env, "linkup-local-paystack-key")).toBe(
      createHmac("sha256", env.SESSION_SECRET).update("linkup-local-paystack-key").digest("hex"),
    );
  });

  it("refuses without SESSION_SECRET instead of hashing under an empty key", async () => {
    await expect(mac({}, "device:abc")).rejects.toThrow("SESSION_SECRET is required");
    await expect(macHex({ SESSION_SECRET: "" }, "x")).rejects.toThrow("SESSION_SECRET is required");
  });
});
