// The session pass (docs/decisions/065-the-session-off-d1.md): a short-lived, signed copy of what the session read
// answers (the session it belongs to, its user's row, the unread badge), so the hot reads of a page load or a
// socket connect need no D1 query while it is fresh. Pure: the MAC is handed in (the Worker's is an HMAC-SHA-256
// under SESSION_SECRET, workers/auth/session-pass.ts), so this module runs in the browser's tests and the Worker.
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "./ids";

export {
  PASS_RENEW_AFTER_MS,
  PASS_TOUCH_INTERVAL_MS,
  PASS_TTL_MS,
  SESSION_TOUCH_INTERVAL_MS,
} from "./pass-times";
// A cookie may be 4,096 bytes with its name and attributes (RFC 6265 §6.1): a larger pass is not issued.
export const PASS_MAX_CHARS = 3_800;
const VERSION = 2;

export const SessionPassSchema = z.object({
  v: z.literal(VERSION),
  /** The stored hash of the session cookie it belongs to: a pass is worthless beside another session's cookie. */
  s: z.string().min(1),
  /** Issued, epoch ms: a revocation of the person after it refuses it (workers/auth/pass-revocations.ts). */
  i: z.number().int(),
  /** Expiry, epoch ms. */
  e: z.number().int(),
  /** Unread notifications when issued. */
  n: z.number().int().min(0),
  /** The user's row as the session read answered it (dates as ISO strings). */
  u: z.record(z.string(), z.unknown()),
});
export type SessionPass = z.infer<typeof SessionPassSchema>;

export type Mac = (text: string) => Promise<string>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The signed text of a pass: `v1.<payload>.<mac>`, the MAC over the version and payload, in its own domain. */
export async function signPass(pass: SessionPass, mac: Mac): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(pass)));
  return `v${VERSION}.${body}.${await mac(`session-pass:v${VERSION}.${body}`)}`;
}

/** Same length and every character equal, without stopping at the first difference. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export type PassCheck = { ok: true; pass: SessionPass } | { ok: false; reason: "malformed" | "forged" | "expired" | "other_session" };

/**
 * Whether `text` is a pass this server signed, for the session `sessionHash`, still fresh at `now`. Anything else
 * is refused and the caller reads the session from D1 as if there were no pass.
 */
export async function checkPass(text: string, sessionHash: string, mac: Mac, now = Date.now()): Promise<PassCheck> {
  const parts = text.split(".");
  if (parts.length !== 3 || parts[0] !== `v${VERSION}` || text.length > PASS_MAX_CHARS) return { ok: false, reason: "malformed" };
  const [, body, given] = parts;
  if (!sameText(await mac(`session-pass:v${VERSION}.${body}`), given)) return { ok: false, reason: "forged" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(fromBase64Url(body)));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const pass = SessionPassSchema.safeParse(parsed);
  if (!pass.success) return { ok: false, reason: "malformed" };
  if (pass.data.e <= now) return { ok: false, reason: "expired" };
  if (!sameText(pass.data.s, sessionHash)) return { ok: false, reason: "other_session" };
  return { ok: true, pass: pass.data };
}
