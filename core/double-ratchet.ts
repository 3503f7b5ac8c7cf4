// The Double Ratchet for direct chats (docs/protocol.md §4), written against Signal's published "The Double
// Ratchet Algorithm" (revision 1): a Diffie-Hellman ratchet on X25519 and symmetric-key chains, so that a key
// stolen from a device opens neither earlier messages (forward secrecy) nor, after the next round trip, later
// ones. WebCrypto only. Sessions start from an X3DH first message (core/x3dh.ts); core/e2e.ts keeps one per
// pair of devices.
//
// Differences from the specification, on purpose: ENCRYPT is AES-256-GCM whose key and nonce come from HKDF
// over the message key (the specification allows any AEAD; each message key is used once); header fields are
// bound as additional data together with the caller's associated data, as it prescribes.
import { fromBase64Url, toBase64Url } from "./ids";
import { deriveSharedBits, exportRawKey } from "./webcrypto";

const enc = new TextEncoder();
/** Most message keys skipped in one chain (messages lost or late), as the specification's MAX_SKIP. */
export const MAX_SKIP = 1000;
/**
 * Skipped keys a session keeps in all (every chain together): each DH step may add MAX_SKIP, so without an
 * overall cap the state would grow with every step; beyond it the oldest go first (docs/protocol.md §4).
 */
export const MAX_SKIPPED_KEPT = 2000;

export interface RatchetHeader {
  /** The sender's current ratchet public key (base64url). */
  dh: string;
  /** Messages in the sender's previous sending chain. */
  pn: number;
  /** This message's number in the current sending chain. */
  n: number;
}

export interface RatchetMessage {
  header: RatchetHeader;
  ciphertext: string;
}

export interface RatchetState {
  dhs: CryptoKeyPair;
  dhsPublic: string;
  dhr: string | null;
  rk: Uint8Array<ArrayBuffer>;
  cks: Uint8Array<ArrayBuffer> | null;
  ckr: Uint8Array<ArrayBuffer> | null;
  ns: number;
  nr: number;
  pn: number;
  /** Keys of skipped messages by `${dh}|${n}`. */
  skipped: Map<string, Uint8Array<ArrayBuffer>>;
}

async function generateDh(): Promise<{ pair: CryptoKeyPair; pub: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"])) as CryptoKeyPair;
  return { pair, pub: toBase64Url(await exportRawKey(pair.publicKey)) };
}

async function dh(pair: CryptoKeyPair, peer: string): Promise<Uint8Array<ArrayBuffer>> {
  const pub = await crypto.subtle.importKey("raw", fromBase64Url(peer), { name: "X25519" }, false, []);
  return deriveSharedBits("X25519", pair.privateKey, pub);
}

async function hkdf(
  ikm: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  info: string,
  bytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info: enc.encode(info) }, key, bytes * 8));
}

/** KDF_RK: a new root key and chain key from the root key and a DH output. */
async function kdfRk(rk: Uint8Array<ArrayBuffer>, dhOut: Uint8Array<ArrayBuffer>) {
  const out = await hkdf(dhOut, rk, "linkup-ratchet-root", 64);
  return { rk: out.slice(0, 32), ck: out.slice(32) };
}

async function hmac(key: Uint8Array<ArrayBuffer>, byte: number): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, new Uint8Array([byte])));
}

/** KDF_CK: the message key and the next chain key (HMAC with constants 0x01 and 0x02, as recommended). */
async function kdfCk(ck: Uint8Array<ArrayBuffer>) {
  return { mk: await hmac(ck, 0x01), ck: await hmac(ck, 0x02) };
}

async function aead(mk: Uint8Array<ArrayBuffer>) {
  const out = await hkdf(mk, new Uint8Array(32), "linkup-ratchet-message", 44);
  const key = await crypto.subtle.importKey("raw", out.slice(0, 32), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { key, iv: out.slice(32) };
}

const aadOf = (ad: string, h: RatchetHeader) => enc.encode(JSON.stringify([ad, h.dh, h.pn, h.n]));

/** RatchetInitAlice: the side that sends first, knowing the other's ratchet public key and the shared secret. */
export async function initSender(sharedSecret: Uint8Array<ArrayBuffer>, peerRatchetKey: string): Promise<RatchetState> {
  const mine = await generateDh();
  const { rk, ck } = await kdfRk(sharedSecret, await dh(mine.pair, peerRatchetKey));
  return { dhs: mine.pair, dhsPublic: mine.pub, dhr: peerRatchetKey, rk, cks: ck, ckr: null, ns: 0, nr: 0, pn: 0, skipped: new Map() };
}

/** RatchetInitBob: the side that receives first, with the key pair whose public half the sender used. */
export async function initReceiver(sharedSecret: Uint8Array<ArrayBuffer>, ratchetPair: CryptoKeyPair): Promise<RatchetState> {
  const pub = toBase64Url(await exportRawKey(ratchetPair.publicKey));
  return { dhs: ratchetPair, dhsPublic: pub, dhr: null, rk: sharedSecret, cks: null, ckr: null, ns: 0, nr: 0, pn: 0, skipped: new Map() };
}

function copy(s: RatchetState): RatchetState {
  return { ...s, skipped: new Map(s.skipped) };
}

/** RatchetEncrypt: seals one message and moves the sending chain (returns the new state). */
export async function ratchetEncrypt(
  state: RatchetState,
  plaintext: string,
  ad: string,
): Promise<{ state: RatchetState; message: RatchetMessage }> {
  if (!state.cks) throw new Error("This side cannot send before it has received the first message");
  const { mk, ck } = await kdfCk(state.cks);
  const header: RatchetHeader = { dh: state.dhsPublic, pn: state.pn, n: state.ns };
  const { key, iv } = await aead(mk);
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aadOf(ad, header) }, key, enc.encode(plaintext));
  return { state: { ...copy(state), cks: ck, ns: state.ns + 1 }, message: { header, ciphertext: toBase64Url(new Uint8Array(data)) } };
}

async function skipMessageKeys(s: RatchetState, until: number): Promise<void> {
  if (s.nr + MAX_SKIP < until) throw new Error("Too many skipped messages");
  if (!s.ckr || !s.dhr) return;
  while (s.nr < until) {
    const { mk, ck } = await kdfCk(s.ckr);
    s.skipped.set(`${s.dhr}|${s.nr}`, mk);
    // A Map iterates in insertion order: the first key is the oldest kept.
    if (s.skipped.size > MAX_SKIPPED_KEPT) s.skipped.delete(s.skipped.keys().next().value as string);
    s.ckr = ck;
    s.nr += 1;
  }
}

async function dhRatchet(s: RatchetState, header: RatchetHeader): Promise<void> {
  s.pn = s.ns;
  s.ns = 0;
  s.nr = 0;
  s.dhr = header.dh;
  const received = await kdfRk(s.rk, await dh(s.dhs, s.dhr));
  s.rk = received.rk;
  s.ckr = received.ck;
  const next = await generateDh();
  s.dhs = next.pair;
  s.dhsPublic = next.pub;
  const sending = await kdfRk(s.rk, await dh(s.dhs, s.dhr));
  s.rk = sending.rk;
  s.cks = sending.ck;
}

/**
 * RatchetDecrypt: opens one message (in any order, within MAX_SKIP). Throws on a forged, altered or replayed
 * message, and then the state the caller holds is unchanged (only a successful decryption returns a new one).
 */
export async function ratchetDecrypt(
  state: RatchetState,
  message: RatchetMessage,
  ad: string,
): Promise<{ state: RatchetState; plaintext: string }> {
  const s = copy(state);
  const { header } = message;
  const open = async (mk: Uint8Array<ArrayBuffer>) => {
    const { key, iv } = await aead(mk);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: aadOf(ad, header) },
      key,
      fromBase64Url(message.ciphertext),
    );
    return new TextDecoder().decode(plain);
  };
  const skippedKey = s.skipped.get(`${header.dh}|${header.n}`);
  if (skippedKey) {
    const plaintext = await open(skippedKey);
    s.skipped.delete(`${header.dh}|${header.n}`);
    return { state: s, plaintext };
  }
  if (header.dh !== s.dhr) {
    await skipMessageKeys(s, header.pn);
    await dhRatchet(s, header);
  }
  await skipMessageKeys(s, header.n);
  if (!s.ckr) throw new Error("No receiving chain");
  const { mk, ck } = await kdfCk(s.ckr);
  s.ckr = ck;
  s.nr += 1;
  return { state: s, plaintext: await open(mk) };
}
