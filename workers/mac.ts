// The Worker's one keyed MAC (docs/architecture.md §4): HMAC-SHA-256 under SESSION_SECRET, for everything the
// database keeps instead of a secret (session and device tokens, phone codes, backup codes, addresses, API keys)
// and the local payment stand-ins' derived secrets. No fallback: without the secret nothing is hashed, so a
// Worker started without it refuses (workers/env.ts checkSecrets) rather than hashing under an empty key.
import { toBase64Url } from "../core/ids";
import { utf8 } from "../core/webcrypto";

/** The one setting this reads; every binding set of the Worker has it. */
export interface MacEnv {
  SESSION_SECRET?: string;
}

/** The configured secret, or a refusal that names what is missing. */
export function sessionSecretOf(env: MacEnv): string {
  const secret = env.SESSION_SECRET;
  if (!secret)
    throw new Error("LinkUp is missing configuration: SESSION_SECRET is required. Run `npm run setup` locally or `wrangler secret put`.");
  return secret;
}

// One imported key per secret for the isolate's life: importKey is not free and every request hashes.
const keys = new Map<string, Promise<CryptoKey>>();

async function macBytes(env: MacEnv, text: string): Promise<Uint8Array> {
  const secret = sessionSecretOf(env);
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return new Uint8Array(await crypto.subtle.sign("HMAC", await key, utf8(text)));
}

/** The MAC of `text`, base64url: what the database keeps in place of a token or code. */
export async function mac(env: MacEnv, text: string): Promise<string> {
  return toBase64Url(await macBytes(env, text));
}

/** The same MAC in hex, for the payment stand-ins' derived keys (their formats are hex). */
export async function macHex(env: MacEnv, text: string): Promise<string> {
  return [...(await macBytes(env, text))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
