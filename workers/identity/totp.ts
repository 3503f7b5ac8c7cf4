// TOTP (RFC 6238 over RFC 4226's HOTP) on WebCrypto, for two-factor sign-in (workers/identity/two-factor.ts): HMAC-SHA1,
// the form every authenticator app reads. It replaces the `otpauth` package in the Worker, which uploaded 27 KiB for
// these few lines (docs/decisions/082-a-worker-that-starts-small.md); workers/identity/totp.test.ts holds it to that
// package's own codes, secrets and links.
import { utf8 } from "../../core/webcrypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export interface TotpOptions {
  issuer: string;
  label: string;
  digits: number;
  period: number;
}

/** RFC 4648 base32 without padding (what authenticator apps take). */
export function toBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 to bytes; spaces, '=' padding and lower case are accepted, any other character is an error. */
export function fromBase32(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.toUpperCase().replace(/[\s=]/g, "");
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let i = 0;
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new TypeError("invalid base32 character");
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out[i++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
    }
  }
  return out;
}

/** A new random secret of `size` bytes, in base32. */
export function newTotpSecret(size = 20): string {
  return toBase32(crypto.getRandomValues(new Uint8Array(size)));
}

async function hotp(key: CryptoKey, counter: number, digits: number): Promise<string> {
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1] & 15;
  const code = (((mac[offset] & 127) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3]) % 10 ** digits;
  return code.toString().padStart(digits, "0");
}

const importKey = (secret: string) => crypto.subtle.importKey("raw", fromBase32(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);

/** The code for a moment (milliseconds). */
export async function totpCode(secret: string, o: Pick<TotpOptions, "digits" | "period">, timestamp: number): Promise<string> {
  return hotp(await importKey(secret), Math.floor(timestamp / 1000 / o.period), o.digits);
}

/**
 * The steps between the moment and the period a code belongs to, within `window` either way, or null: as `otpauth`'s
 * `TOTP.validate` answers. Every candidate is compared in full, in constant time.
 */
export async function validateTotp(
  secret: string,
  o: Pick<TotpOptions, "digits" | "period">,
  token: string,
  timestamp: number,
  window: number,
): Promise<number | null> {
  if (token.length !== o.digits) return null;
  const key = await importKey(secret);
  const counter = Math.floor(timestamp / 1000 / o.period);
  const typed = utf8(token);
  // In otpauth's order: this period, then one before, one after, two before…
  const deltas = [0];
  for (let i = 1; i <= window; i++) deltas.push(-i, i);
  let found: number | null = null;
  for (const delta of deltas) {
    const expected = utf8(await hotp(key, counter + delta, o.digits));
    let diff = 0;
    for (let k = 0; k < expected.length; k++) diff |= expected[k] ^ typed[k];
    if (diff === 0 && found === null) found = delta;
  }
  return found;
}

/** The otpauth:// link an authenticator app reads (Google Authenticator's key URI format). */
export function totpUri(secret: string, o: TotpOptions): string {
  const e = encodeURIComponent;
  return `otpauth://totp/${e(o.issuer)}:${e(o.label)}?issuer=${e(o.issuer)}&secret=${e(secret)}&algorithm=SHA1&digits=${o.digits}&period=${o.period}`;
}
