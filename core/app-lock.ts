// The app lock (the auto-lock, docs/product/security.md): after the chosen idle time the app asks
// for a PIN or a passkey before it shows anything. The PIN lives only on the device, as a PBKDF2 hash.
import { fromBase64Url, toBase64Url } from "./ids";

export const AUTO_LOCK_MINUTES = [1, 5, 15, 30] as const;
export type AutoLockMinutes = (typeof AUTO_LOCK_MINUTES)[number];
// OWASP's 2023 floor for PBKDF2-HMAC-SHA256; a 4-digit PIN is still weak against someone holding the device's
// storage, which is why a wrong PIN costs nothing here but the lock is no substitute for the phone's own.
export const PIN_ITERATIONS = 600_000;
export const PIN_PATTERN = /^\d{4,8}$/;

export interface AppLockConfig {
  minutes: AutoLockMinutes;
  pin: { salt: string; hash: string; iterations: number } | null;
  // The panic code: typed where the PIN goes, it wipes this device instead of opening it (issue 15).
  panic?: { salt: string; hash: string; iterations: number } | null;
}

export async function hashPin(pin: string, salt: Uint8Array<ArrayBuffer>, iterations = PIN_ITERATIONS): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(pin), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return toBase64Url(new Uint8Array(bits));
}

export async function newPinRecord(pin: string, iterations = PIN_ITERATIONS): Promise<NonNullable<AppLockConfig["pin"]>> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt: toBase64Url(salt), hash: await hashPin(pin, salt, iterations), iterations };
}

export async function pinMatches(pin: string, record: NonNullable<AppLockConfig["pin"]>): Promise<boolean> {
  return (await hashPin(pin, fromBase64Url(record.salt), record.iterations)) === record.hash;
}

/** Whether the app must lock: the chosen idle time has passed since the last activity. */
export function lockDue(config: AppLockConfig | null, lastActiveMs: number | null, nowMs: number): boolean {
  if (!config) return false;
  if (lastActiveMs === null) return true;
  return nowMs - lastActiveMs >= config.minutes * 60_000;
}

export function parseAppLock(raw: string | null): AppLockConfig | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as AppLockConfig;
    if (!AUTO_LOCK_MINUTES.includes(v.minutes)) return null;
    return v;
  } catch {
    return null;
  }
}
