// Linking a new device from one the person already uses (docs/protocol.md §2a,
// docs/decisions/063-one-identity-per-person.md). The old device shows a code: a link id the server made and a
// secret the server never sees. Both devices stretch the secret into two keys. The new device sends its record
// under an HMAC of the first, so the server cannot put a key of its own in its place; the old device, after the
// person confirms, signs the next device list and sends the account key sealed under the second (AES-GCM), so the
// new device can sign future lists. The server relays both and learns neither.
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "./ids";
import { utf8 } from "./webcrypto";

/** Format of the MACed request and sealed grant (inside both, so a relay cannot relabel them). */
export const LINK_FORMAT = 1;
/** A code is good for ten minutes, once. */
export const LINK_TTL_MS = 10 * 60_000;
/** Links a person may start in an hour (each is a D1 row kept that long, so the bound is the table's too). */
export const LINKS_PER_HOUR = 5;
/**
 * PBKDF2 rounds over the secret: the server sees the MAC and could try every secret offline, but must do it
 * inside the code's ten minutes to matter; 2^50 secrets × 100,000 rounds is far beyond that.
 */
export const LINK_KDF_ROUNDS = 100_000;

/** Crockford's base32: no I, L, O or U, so a typed code has nothing to confuse. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const LINK_ID_LENGTH = 6;
export const LINK_SECRET_LENGTH = 10;
const LINK_ID = new RegExp(`^[${ALPHABET}]{${LINK_ID_LENGTH}}$`);
const B64_32 = /^[A-Za-z0-9_-]{43}$/;
const B64_64 = /^[A-Za-z0-9_-]{86}$/;
const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `length` random characters of the code alphabet (32 letters: each byte's low five bits, unbiased). */
export function randomCodeChars(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((b) => ALPHABET[b & 31]).join("");
}

/** The code as shown: id and secret in groups of four ("K7M2 QF8X W3PD 4NTR"). */
export function formatLinkCode(id: string, secret: string): string {
  return `${id}${secret}`.match(/.{1,4}/g)?.join(" ") ?? "";
}

/** A typed or scanned code, forgiving spaces, dashes, case and the letters people mistake for digits; else null. */
export function parseLinkCode(typed: string): { id: string; secret: string } | null {
  const clean = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (clean.length !== LINK_ID_LENGTH + LINK_SECRET_LENGTH || !/^[0-9A-Z]+$/.test(clean) || /U/.test(clean)) return null;
  return { id: clean.slice(0, LINK_ID_LENGTH), secret: clean.slice(LINK_ID_LENGTH) };
}

export const LinkIdSchema = z.string().regex(LINK_ID, "Expected a link id");

export interface LinkKeys {
  mac: CryptoKey;
  seal: CryptoKey;
}

/** The two keys of a link, from its secret, bound to the person and the link id. */
export async function linkKeys(userId: string, id: string, secret: string): Promise<LinkKeys> {
  const base = await crypto.subtle.importKey("raw", utf8(secret), "PBKDF2", false, ["deriveBits"]);
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: "PBKDF2",
        hash: "SHA-256",
        salt: utf8(JSON.stringify(["linkup-device-link", LINK_FORMAT, userId, id])),
        iterations: LINK_KDF_ROUNDS,
      },
      base,
      512,
    ),
  );
  const mac = await crypto.subtle.importKey("raw", bits.slice(0, 32), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const seal = await crypto.subtle.importKey("raw", bits.slice(32), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { mac, seal };
}

/** The new device's signed record, as it travels to the old device. */
export interface LinkRequest {
  deviceId: string;
  publicKey: string;
  signingKey: string;
  /** The record's own signature (core/e2e.ts verifyDeviceRecord): the device holds its identity key. */
  signature: string;
  /** HMAC of all of the above under the code's first key. */
  mac: string;
}

const requestBytes = (userId: string, id: string, r: Omit<LinkRequest, "mac">) =>
  utf8(JSON.stringify(["linkup-link-request", LINK_FORMAT, userId, id, r.deviceId, r.publicKey, r.signingKey, r.signature]));

export async function macLinkRequest(keys: LinkKeys, userId: string, id: string, r: Omit<LinkRequest, "mac">): Promise<LinkRequest> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", keys.mac, requestBytes(userId, id, r)));
  return { deviceId: r.deviceId, publicKey: r.publicKey, signingKey: r.signingKey, signature: r.signature, mac: toBase64Url(mac) };
}

/** True when the request's MAC is the code's: it came from the device the code was typed on, unaltered. */
export async function checkLinkRequest(keys: LinkKeys, userId: string, id: string, r: LinkRequest): Promise<boolean> {
  try {
    return await crypto.subtle.verify("HMAC", keys.mac, fromBase64Url(r.mac), requestBytes(userId, id, r));
  } catch {
    return false;
  }
}

/** Eight digits both devices show, to compare by eye: a second check that the linked key is the typed device's. */
export async function linkFingerprint(signingKey: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", fromBase64Url(signingKey)));
  const n = ((hash[0] << 24) | (hash[1] << 16) | (hash[2] << 8) | hash[3]) >>> 0;
  const digits = String(n % 100_000_000).padStart(8, "0");
  return `${digits.slice(0, 4)} ${digits.slice(4)}`;
}

/** What the old device sends back: the account key, sealed to the code's second key. */
export interface LinkGrant {
  iv: string;
  ciphertext: string;
}

const grantAad = (userId: string, id: string, signingKey: string) =>
  utf8(JSON.stringify(["linkup-link-grant", LINK_FORMAT, userId, id, signingKey]));

/** Seals the account key pair (as a private JWK) for the device whose identity key is `signingKey`. */
export async function sealLinkGrant(
  keys: LinkKeys,
  userId: string,
  id: string,
  signingKey: string,
  account: CryptoKeyPair,
): Promise<LinkGrant> {
  const jwk = (await crypto.subtle.exportKey("jwk", account.privateKey)) as JsonWebKey;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = utf8(JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d }));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: grantAad(userId, id, signingKey) }, keys.seal, plain);
  return { iv: toBase64Url(iv), ciphertext: toBase64Url(new Uint8Array(sealed)) };
}

/**
 * The account key pair of a grant (extractable, so this device can link the next), with its public key in
 * base64url to compare with the list's; null when it was not sealed for this link and device.
 */
export async function openLinkGrant(
  keys: LinkKeys,
  userId: string,
  id: string,
  signingKey: string,
  grant: LinkGrant,
): Promise<{ pair: CryptoKeyPair; accountKey: string } | null> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(grant.iv), additionalData: grantAad(userId, id, signingKey) },
      keys.seal,
      fromBase64Url(grant.ciphertext),
    );
    const jwk = JSON.parse(new TextDecoder().decode(plain)) as JsonWebKey;
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string" || typeof jwk.d !== "string") return null;
    const privateKey = await crypto.subtle.importKey("jwk", jwk, { name: "Ed25519" }, true, ["sign"]);
    const publicKey = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, { name: "Ed25519" }, true, ["verify"]);
    // The pair must really be one: a signature by the private half checks under the public half.
    const probe = utf8("linkup-link-probe");
    const sig = await crypto.subtle.sign({ name: "Ed25519" }, privateKey, probe);
    if (!(await crypto.subtle.verify({ name: "Ed25519" }, publicKey, sig, probe))) return null;
    return { pair: { privateKey, publicKey }, accountKey: jwk.x };
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ the server's boundary

/** `PUT /api/device-links/:id/request` (the new device). */
export const LinkRequestSchema = z.object({
  deviceId: z.string().regex(DEVICE_ID),
  publicKey: z.string().regex(B64_32, "Expected a 32-byte key in base64url"),
  signingKey: z.string().regex(B64_32, "Expected a 32-byte key in base64url"),
  signature: z.string().regex(B64_64, "Expected a 64-byte signature in base64url"),
  mac: z.string().regex(B64_32, "Expected a 32-byte HMAC in base64url"),
});

/** `PUT /api/device-links/:id/grant` (the old device): a JWK of ~150 bytes sealed, so 1 KB is ample. */
export const LinkGrantSchema = z.object({
  iv: z.string().regex(/^[A-Za-z0-9_-]{16}$/, "Expected a 12-byte iv in base64url"),
  ciphertext: z.string().regex(/^[A-Za-z0-9_-]{24,1024}$/, "Expected a sealed key in base64url"),
});

/** What the server hands either device about a link it started. */
export interface LinkView {
  id: string;
  expiresAt: string;
  request: LinkRequest | null;
  grant: LinkGrant | null;
}
