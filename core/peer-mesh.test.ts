import { describe, expect, it } from "vitest";
import { toBase64Url } from "./ids";
import { meshKeyFingerprint } from "./peer-mesh";

async function signingKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return toBase64Url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
}

describe("a paired phone's key, short enough to compare aloud", () => {
  it("is the same for the same key on both phones, and differs for another key", async () => {
    const key = await signingKey();
    const shown = await meshKeyFingerprint(key);
    expect(shown).toMatch(/^[0-9A-F]{4} [0-9A-F]{4} [0-9A-F]{4}$/);
    expect(await meshKeyFingerprint(key)).toBe(shown);
    expect(await meshKeyFingerprint(await signingKey())).not.toBe(shown);
  });
});
