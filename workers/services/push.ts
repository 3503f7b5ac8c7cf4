// Web Push on WebCrypto, so it runs in workerd: VAPID (RFC 8292) signs who is sending, aes128gcm (RFC 8188)
// with the Web Push key schedule (RFC 8291) encrypts the payload for one browser.
import { fromBase64Url, toBase64Url } from "../../core/ids";
import { type AppEnv, isDevelopment } from "../env";
import { deriveSharedBits, exportRawKey, utf8 } from "../../core/webcrypto";

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  ttlSeconds?: number;
  urgency?: "very-low" | "low" | "normal" | "high";
  topic?: string;
}

export type PushOutcome =
  | { ok: true; status: number }
  // gone: the push service says the subscription no longer exists (404/410); the caller removes it.
  | { ok: false; status: number; gone: boolean; error: string };

const enc = new TextEncoder();
const RECORD_SIZE = 4096;
const PUSH_TIMEOUT_MS = 8000;

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function vapidConfigured(env: AppEnv): boolean {
  return Boolean(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY);
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
// Names that never lead to a public push service: private and special-use domains (RFC 6761, 6762, 8375).
const PRIVATE_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".intranet",
  ".lan",
  ".home",
  ".corp",
  ".home.arpa",
  ".arpa",
  ".test",
  ".invalid",
  ".example",
];

/** A public DNS name: not an IP literal (v4 or v6), has a dot, and is not in a private or special-use domain. */
export function publicHostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || /^[\d.]+$/.test(host)) return false;
  if (!host.includes(".") || host === "localhost") return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * Push endpoints are https URLs on public host names: never an IP literal, loopback, a private range or an
 * internal name, so a subscription cannot point the Worker at a cloud metadata address or an intranet host.
 * Only in local development a loopback endpoint (http or https) is accepted, so a local receiver can stand in
 * for a browser's push service.
 */
export function endpointAllowed(env: { ENVIRONMENT?: string }, endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (isDevelopment(env) && LOOPBACK.has(url.hostname) && (url.protocol === "http:" || url.protocol === "https:")) return true;
  return url.protocol === "https:" && !url.username && !url.password && publicHostName(url.hostname);
}

async function hkdf(salt: Uint8Array<ArrayBuffer>, ikm: Uint8Array<ArrayBuffer>, info: Uint8Array<ArrayBuffer>, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/**
 * RFC 8291 §3.4 and RFC 8188: one record, content-coding aes128gcm. Answers the request body:
 * salt(16) | rs(4) | idlen(1) | keyid = application server public key(65) | ciphertext.
 */
export async function encryptPayload(
  target: Pick<PushTarget, "p256dh" | "auth">,
  payload: Uint8Array,
  opts: { salt?: Uint8Array<ArrayBuffer>; serverKeys?: CryptoKeyPair } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const uaPublic = fromBase64Url(target.p256dh);
  const authSecret = fromBase64Url(target.auth);
  if (uaPublic.length !== 65 || uaPublic[0] !== 4) throw new Error("p256dh is not an uncompressed P-256 point");
  if (authSecret.length !== 16) throw new Error("auth secret must be 16 bytes");
  if (payload.length > RECORD_SIZE - 17 - 86) throw new Error("payload too large for one push record");

  const serverKeys =
    opts.serverKeys ?? ((await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair);
  const asPublic = await exportRawKey(serverKeys.publicKey);
  const uaKey = await crypto.subtle.importKey("raw", uaPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const ecdhSecret = await deriveSharedBits("ECDH", serverKeys.privateKey, uaKey);

  const keyInfo = concat(enc.encode("WebPush: info\0"), uaPublic, asPublic);
  const ikm = await hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const salt = opts.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const cek = await hkdf(salt, ikm, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, utf8("Content-Encoding: nonce\0"), 12);

  // The last (and only) record ends with the delimiter 0x02 and no padding.
  const plaintext = concat(payload, new Uint8Array([2]));
  const aesKey = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, aesKey, plaintext));

  const header = new Uint8Array(21);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = asPublic.length;
  return concat(header, asPublic, ciphertext);
}

async function vapidSigningKey(publicKeyB64: string, privateKeyB64: string): Promise<CryptoKey> {
  const pub = fromBase64Url(publicKeyB64);
  if (pub.length !== 65 || pub[0] !== 4) throw new Error("VAPID_PUBLIC_KEY is not an uncompressed P-256 point");
  const jwk: JsonWebKey = {
    kty: "EC",
    crv: "P-256",
    x: toBase64Url(pub.slice(1, 33)),
    y: toBase64Url(pub.slice(33, 65)),
    d: privateKeyB64,
    ext: false,
  };
  return crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
}

/** RFC 8292 §2: an ES256 JWT for the push service's origin, valid for 12 hours. */
export async function vapidJwt(env: AppEnv, endpoint: string, now: number = Date.now()): Promise<string> {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) throw new Error("VAPID keys are not configured");
  const header = toBase64Url(enc.encode(JSON.stringify({ typ: "JWT", alg: "ES256" })));
  const claims = toBase64Url(
    enc.encode(
      JSON.stringify({
        aud: new URL(endpoint).origin,
        exp: Math.floor(now / 1000) + 12 * 3600,
        sub: env.VAPID_SUBJECT || env.APP_URL || "mailto:support@linkup.invalid",
      }),
    ),
  );
  const key = await vapidSigningKey(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY);
  // WebCrypto's ECDSA signature is r|s (IEEE P1363), the form JWS wants.
  const sig = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, enc.encode(`${header}.${claims}`)));
  return `${header}.${claims}.${toBase64Url(sig)}`;
}

/** Sends one encrypted push. Never throws: the outcome says what the push service answered. */
export async function sendPush(env: AppEnv, target: PushTarget, payload: unknown, opts: PushOptions = {}): Promise<PushOutcome> {
  try {
    if (!endpointAllowed(env, target.endpoint)) return { ok: false, status: 0, gone: true, error: "endpoint not allowed" };
    const body = await encryptPayload(target, enc.encode(JSON.stringify(payload)));
    const jwt = await vapidJwt(env, target.endpoint);
    const headers: Record<string, string> = {
      authorization: `vapid t=${jwt}, k=${env.VAPID_PUBLIC_KEY}`,
      "content-encoding": "aes128gcm",
      "content-type": "application/octet-stream",
      ttl: String(opts.ttlSeconds ?? 24 * 3600),
      urgency: opts.urgency ?? "normal",
    };
    if (opts.topic) headers.topic = opts.topic;
    // A push service that hangs must not hold up the rest of a fan-out.
    const res = await fetch(target.endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) });
    if (res.ok) return { ok: true, status: res.status };
    const text = await res.text().catch(() => "");
    return {
      ok: false,
      status: res.status,
      gone: res.status === 404 || res.status === 410,
      error: `push service answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ""}`,
    };
  } catch (e) {
    return { ok: false, status: 0, gone: false, error: e instanceof Error ? e.message : String(e) };
  }
}
