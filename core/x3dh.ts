// X3DH, the first message of a direct chat's Double Ratchet (docs/protocol.md §4), after Signal's "The X3DH Key
// Agreement Protocol" (revision 1) with WebCrypto's X25519. A device's identity for DH1/DH2 is the X25519 key of
// its signed device record; its signed prekey is signed by the record's Ed25519 identity key, so the server can
// hand out only prekeys the device made. One-time prekeys are handed out once and their private half is deleted
// after use, so a first message opens exactly once.
import { fromBase64Url, toBase64Url } from "./ids";
import { deriveSharedBits, exportRawKey } from "./webcrypto";

const enc = new TextEncoder();
const B64_32 = /^[A-Za-z0-9_-]{43}$/;

/** A prekey as published: signed prekeys carry the identity key's signature. */
export interface Prekey {
  keyId: number;
  publicKey: string;
  signature?: string;
}

/** A device's bundle as `GET /api/keys/bundle/:userId` hands it out (checked by the client before use). */
export interface PrekeyBundle {
  deviceId: string;
  signedPrekey: Prekey;
  oneTimePrekey?: Prekey;
}

/** The X3DH part of a first message: who sealed it, its ephemeral key and the prekeys it used. */
export interface X3dhHeader {
  ek: string;
  spk: number;
  opk?: number;
}

const prekeyBytes = (userId: string, deviceId: string, p: Prekey) =>
  enc.encode(JSON.stringify(["linkup-prekey", 3, userId, deviceId, p.keyId, p.publicKey]));

async function rawPublic(pair: CryptoKeyPair): Promise<string> {
  return toBase64Url(await exportRawKey(pair.publicKey));
}

/** A new X25519 prekey pair (private half non-extractable) with its public half. */
export async function newPrekey(keyId: number): Promise<{ pair: CryptoKeyPair; prekey: Prekey }> {
  const pair = (await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"])) as CryptoKeyPair;
  return { pair, prekey: { keyId, publicKey: await rawPublic(pair) } };
}

/** The identity key's signature over a prekey, bound to the user and device it belongs to. */
export async function signPrekey(signing: CryptoKeyPair, userId: string, deviceId: string, p: Prekey): Promise<Prekey> {
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, signing.privateKey, prekeyBytes(userId, deviceId, p));
  return { keyId: p.keyId, publicKey: p.publicKey, signature: toBase64Url(new Uint8Array(sig)) };
}

/** True when a signed prekey is well formed and signed by the device's identity key (`signingKey`). */
export async function verifyPrekey(signingKey: string, userId: string, deviceId: string, p: Partial<Prekey>): Promise<boolean> {
  if (!Number.isSafeInteger(p.keyId) || typeof p.publicKey !== "string" || !B64_32.test(p.publicKey)) return false;
  if (typeof p.signature !== "string") return false;
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(signingKey), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(p.signature), prekeyBytes(userId, deviceId, p as Prekey));
  } catch {
    return false;
  }
}

async function dh(priv: CryptoKey, peer: string): Promise<Uint8Array> {
  const pub = await crypto.subtle.importKey("raw", fromBase64Url(peer), { name: "X25519" }, false, []);
  return deriveSharedBits("X25519", priv, pub);
}

/** SK = HKDF(F ‖ DH1 ‖ DH2 ‖ DH3 [‖ DH4]), F = 32 × 0xFF, salt zero, info naming both identity keys. */
async function kdf(parts: Uint8Array[], initiatorIk: string, responderIk: string): Promise<Uint8Array<ArrayBuffer>> {
  const ikm = new Uint8Array(32 + parts.length * 32).fill(0xff);
  for (const [i, p] of parts.entries()) ikm.set(p, 32 + i * 32);
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const info = enc.encode(`linkup-x3dh|${initiatorIk}|${responderIk}`);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info }, key, 256));
}

/**
 * The initiator's side: the shared secret with a peer device from its bundle, and the header that lets the
 * peer derive it too. `myIdentity` is this device's X25519 pair, `peerIdentity` the peer record's X25519 key.
 */
export async function x3dhInitiate(
  myIdentity: CryptoKeyPair,
  myIdentityPublic: string,
  peerIdentity: string,
  bundle: PrekeyBundle,
): Promise<{ sk: Uint8Array<ArrayBuffer>; header: X3dhHeader }> {
  const ek = (await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"])) as CryptoKeyPair;
  const spk = bundle.signedPrekey.publicKey;
  const parts = [await dh(myIdentity.privateKey, spk), await dh(ek.privateKey, peerIdentity), await dh(ek.privateKey, spk)];
  if (bundle.oneTimePrekey) parts.push(await dh(ek.privateKey, bundle.oneTimePrekey.publicKey));
  const header: X3dhHeader = { ek: await rawPublic(ek), spk: bundle.signedPrekey.keyId };
  if (bundle.oneTimePrekey) header.opk = bundle.oneTimePrekey.keyId;
  return { sk: await kdf(parts, myIdentityPublic, peerIdentity), header };
}

/** The responder's side: the same secret from its own prekeys' private halves and the initiator's header. */
export async function x3dhRespond(
  myIdentity: CryptoKeyPair,
  myIdentityPublic: string,
  signedPrekey: CryptoKeyPair,
  oneTimePrekey: CryptoKeyPair | undefined,
  peerIdentity: string,
  header: X3dhHeader,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts = [
    await dh(signedPrekey.privateKey, peerIdentity),
    await dh(myIdentity.privateKey, header.ek),
    await dh(signedPrekey.privateKey, header.ek),
  ];
  if (oneTimePrekey) parts.push(await dh(oneTimePrekey.privateKey, header.ek));
  return kdf(parts, peerIdentity, myIdentityPublic);
}
