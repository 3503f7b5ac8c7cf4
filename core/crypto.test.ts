import { describe, expect, it } from "vitest";
import {
  decryptContent,
  derivePairwiseKey,
  encryptContent,
  exportPublicKey,
  generateDeviceKeyPair,
  generateSenderKey,
  importPublicKey,
  supportsX25519,
  unwrapSenderKey,
  wrapSenderKey,
} from "./crypto";
import { fromBase64Url } from "./ids";

describe("end-to-end crypto (X25519 + HKDF-SHA-256 + AES-256-GCM)", () => {
  it("Node's WebCrypto has X25519", async () => {
    expect(await supportsX25519()).toBe(true);
  });

  it("two devices derive the same pairwise key and read each other's messages", async () => {
    const alice = await generateDeviceKeyPair();
    const bob = await generateDeviceKeyPair();
    const alicePub = await exportPublicKey(alice.publicKey);
    const bobPub = await exportPublicKey(bob.publicKey);
    expect(fromBase64Url(alicePub).byteLength).toBe(32);

    const kAlice = await derivePairwiseKey(alice, bobPub, "dm:a:b");
    const kBob = await derivePairwiseKey(bob, alicePub, "dm:a:b");
    const sealed = await encryptContent(kAlice, "Meet at the market gate 4pm", "dm:a:b|env-1");
    expect(sealed.ciphertext).not.toContain("market");
    expect(fromBase64Url(sealed.iv).byteLength).toBe(12);
    expect(await decryptContent(kBob, sealed, "dm:a:b|env-1")).toBe("Meet at the market gate 4pm");
  });

  it("a third device, a different context or a different aad cannot decrypt", async () => {
    const alice = await generateDeviceKeyPair();
    const bob = await generateDeviceKeyPair();
    const eve = await generateDeviceKeyPair();
    const bobPub = await exportPublicKey(bob.publicKey);
    const alicePub = await exportPublicKey(alice.publicKey);
    const key = await derivePairwiseKey(alice, bobPub);
    const sealed = await encryptContent(key, "secret", "aad-1");
    const eveKey = await derivePairwiseKey(eve, alicePub);
    await expect(decryptContent(eveKey, sealed, "aad-1")).rejects.toThrow();
    await expect(decryptContent(await derivePairwiseKey(bob, alicePub, "other-room"), sealed, "aad-1")).rejects.toThrow();
    await expect(decryptContent(await derivePairwiseKey(bob, alicePub), sealed, "aad-2")).rejects.toThrow();
  });

  it("each encryption uses a fresh iv", async () => {
    const a = await generateDeviceKeyPair();
    const b = await generateDeviceKeyPair();
    const key = await derivePairwiseKey(a, await exportPublicKey(b.publicKey));
    const one = await encryptContent(key, "same");
    const two = await encryptContent(key, "same");
    expect(one.iv).not.toBe(two.iv);
    expect(one.ciphertext).not.toBe(two.ciphertext);
  });

  it("a group sender key travels wrapped over the pairwise key and opens the sender's messages", async () => {
    const sender = await generateDeviceKeyPair();
    const member = await generateDeviceKeyPair();
    const senderPub = await exportPublicKey(sender.publicKey);
    const memberPub = await exportPublicKey(member.publicKey);
    const senderKey = await generateSenderKey();
    const wrapped = await wrapSenderKey(senderKey, await derivePairwiseKey(sender, memberPub, "group:g1"));
    expect(wrapped.keyId).toBe(senderKey.keyId);

    const opened = await unwrapSenderKey(wrapped, await derivePairwiseKey(member, senderPub, "group:g1"));
    expect(opened.keyId).toBe(senderKey.keyId);
    const msg = await encryptContent(senderKey.key, "Group hello", "group:g1|m1", senderKey.keyId);
    expect(msg.keyId).toBe(senderKey.keyId);
    expect(await decryptContent(opened.key, msg, "group:g1|m1")).toBe("Group hello");

    const outsider = await generateDeviceKeyPair();
    await expect(unwrapSenderKey(wrapped, await derivePairwiseKey(outsider, senderPub, "group:g1"))).rejects.toThrow();
  });

  it("refuses a public key that is not 32 bytes", async () => {
    await expect(importPublicKey("AAAA")).rejects.toThrow(/32 bytes/);
  });

  it("keeps the device private key non-extractable by default", async () => {
    const pair = await generateDeviceKeyPair();
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("pkcs8", pair.privateKey)).rejects.toThrow();
  });
});
