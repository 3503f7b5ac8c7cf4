// End-to-end encryption for private rooms (docs/architecture.md §5) on WebCrypto only: X25519 key agreement,
// HKDF-SHA-256, AES-256-GCM. Runs in browsers (Chromium has X25519), Node 24 and workerd; the server never
// calls decrypt — it only stores and relays what this module produced.
//
// Keys:
// - Device key pair (X25519): one per browser; the private key stays in IndexedDB (non-extractable CryptoKey
//   objects can be stored there), the public key is published with PUT /api/keys.
// - Pairwise key (AES-256-GCM): HKDF over the ECDH secret of two devices. Both sides derive the same key:
//   the HKDF info binds both public keys in sorted order. Direct chats encrypt with it.
// - Sender key (AES-256-GCM, random): each member of a group encrypts their own messages with a sender key and
//   hands it to each other member wrapped under their pairwise key (`wrapSenderKey`). `keyId` in the
//   envelope content names which sender key to use.
import { fromBase64Url, newId, toBase64Url } from "./ids";
import { deriveSharedBits, exportRawKey } from "./webcrypto";

const X25519 = { name: "X25519" } as const;
const HKDF_SALT = new TextEncoder().encode("linkup-e2e-v1");
const IV_BYTES = 12;

/** The encrypted form of envelope content (base64url fields), as EnvelopeSchema's content carries it. */
export interface EncryptedContent {
  ciphertext: string;
  iv: string;
  keyId?: string;
}

export interface SenderKey {
  keyId: string;
  key: CryptoKey;
}

/** True where WebCrypto can do X25519 (browsers without it fall back to public rooms only). */
export async function supportsX25519(): Promise<boolean> {
  try {
    await crypto.subtle.generateKey(X25519, false, ["deriveBits"]);
    return true;
  } catch {
    return false;
  }
}

/** A new device key pair. The private key is non-extractable unless `extractable` (tests only). */
export async function generateDeviceKeyPair(extractable = false): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(X25519, extractable, ["deriveBits"])) as CryptoKeyPair;
}

/** The raw 32-byte public key as base64url (what PUT /api/keys publishes). */
export async function exportPublicKey(publicKey: CryptoKey): Promise<string> {
  return toBase64Url(await exportRawKey(publicKey));
}

/** A published public key back into a CryptoKey; throws on a key that is not 32 bytes. */
export async function importPublicKey(publicKey: string): Promise<CryptoKey> {
  const raw = fromBase64Url(publicKey);
  if (raw.byteLength !== 32) throw new Error("An X25519 public key is 32 bytes");
  return crypto.subtle.importKey("raw", raw, X25519, true, []);
}

/**
 * The AES-256-GCM key two devices share: ECDH(my private, peer public) → HKDF-SHA-256 with info naming both
 * public keys (sorted, so both sides agree) and an optional context (e.g. the room id).
 */
export async function derivePairwiseKey(mine: CryptoKeyPair, peerPublicKey: string, context = ""): Promise<CryptoKey> {
  const peer = await importPublicKey(peerPublicKey);
  const secret = await deriveSharedBits("X25519", mine.privateKey, peer);
  const myPublic = await exportPublicKey(mine.publicKey);
  const info = new TextEncoder().encode(`linkup-pairwise|${[myPublic, peerPublicKey].sort().join("|")}|${context}`);
  const ikm = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info }, ikm, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

/**
 * Encrypts message text. `aad` (additional data, e.g. `${room}|${envelopeId}`) binds the ciphertext to its
 * envelope so it cannot be replayed under another id or room; decrypt must pass the same aad.
 */
export async function encryptContent(key: CryptoKey, text: string, aad = "", keyId?: string): Promise<EncryptedContent> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(aad) },
    key,
    new TextEncoder().encode(text),
  );
  const out: EncryptedContent = { ciphertext: toBase64Url(new Uint8Array(data)), iv: toBase64Url(iv) };
  if (keyId) out.keyId = keyId;
  return out;
}

/** Decrypts content made by encryptContent; throws when the key, aad or bytes are wrong. */
export async function decryptContent(key: CryptoKey, content: EncryptedContent, aad = ""): Promise<string> {
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64Url(content.iv), additionalData: new TextEncoder().encode(aad) },
    key,
    fromBase64Url(content.ciphertext),
  );
  return new TextDecoder().decode(plain);
}

/** A fresh random sender key for one member's messages in one group. */
export async function generateSenderKey(): Promise<SenderKey> {
  const key = (await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"])) as CryptoKey;
  return { keyId: newId(12), key };
}

/** The sender key encrypted for one member under our pairwise key (send it in a `key` envelope). */
export async function wrapSenderKey(senderKey: SenderKey, pairwiseKey: CryptoKey): Promise<EncryptedContent> {
  const raw = toBase64Url(await exportRawKey(senderKey.key));
  return encryptContent(pairwiseKey, raw, `sender-key|${senderKey.keyId}`, senderKey.keyId);
}

/** Opens a wrapped sender key from another member (keyId comes with the wrapped content). */
export async function unwrapSenderKey(wrapped: EncryptedContent, pairwiseKey: CryptoKey): Promise<SenderKey> {
  if (!wrapped.keyId) throw new Error("A wrapped sender key names its keyId");
  const raw = await decryptContent(pairwiseKey, wrapped, `sender-key|${wrapped.keyId}`);
  const key = await crypto.subtle.importKey("raw", fromBase64Url(raw), { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  return { keyId: wrapped.keyId, key };
}
