// The authenticator secret at rest (docs/decisions/048-secrets-at-rest-and-the-console.md): AES-GCM under a key
// derived by HKDF from SESSION_SECRET with its own label, the row's user id as associated data (a sealed secret
// copied to another person's row does not open). Rows written before this are plain base32 and still read;
// two-factor.ts seals them the first time it reads them.
import { fromBase64Url, toBase64Url } from "../../core/ids";
import { utf8 } from "../../core/webcrypto";

const PREFIX = "v1.";
const INFO = "linkup two-factor secret v1";

const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(sessionSecret: string): Promise<CryptoKey> {
  let key = keys.get(sessionSecret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", utf8(sessionSecret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: utf8(INFO) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(sessionSecret, key);
  }
  return key;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export async function sealSecret(sessionSecret: string, userId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(`two_factor:${userId}`) },
    await keyOf(sessionSecret),
    utf8(secret),
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return PREFIX + toBase64Url(out);
}

/** The base32 secret of a stored value, sealed or (from before sealing) plain. Throws when it does not open. */
export async function openSecret(sessionSecret: string, userId: string, stored: string): Promise<string> {
  if (!isSealed(stored)) return stored;
  const bytes = fromBase64Url(stored.slice(PREFIX.length));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: utf8(`two_factor:${userId}`) },
    await keyOf(sessionSecret),
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}
