// The panic code (docs/decisions/039-safety-marks-and-the-panic-code-anywhere.md): typed where a PIN, a message or
// a search goes, it wipes this device instead. Checked on the device against the hash the app lock keeps.
import type { FormEvent } from "react";
import { PIN_PATTERN, pinMatches } from "../../../../core/app-lock";
import { readConfig } from "./app-lock";

/** The panic code was typed: as panic mode does, the server session ends and this device forgets LinkUp. */
export async function panicWipe(userId: string): Promise<void> {
  // The device forgets first: withdrawing its key needs the session the panic call then ends.
  const { forgetThisDevice } = await import("../../mesh/sign-out");
  await forgetThisDevice(userId).catch(() => {});
  await fetch("/api/security/panic", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).catch(() => {});
  window.location.assign("/");
}

/**
 * Whether `text` is this person's panic code. Checked on the device against the stored hash, so the chat's
 * message box and the search box can wipe instead of sending: the code never leaves the device.
 */
export async function isPanicCode(userId: string, text: string): Promise<boolean> {
  const code = text.trim();
  const panic = readConfig(userId)?.panic;
  return Boolean(panic && PIN_PATTERN.test(code) && (await pinMatches(code, panic)));
}

/**
 * A form's onSubmit that first checks its `field` for the panic code: a value that could be the code is held
 * back (checking takes a moment), then either wipes this device or goes on with `submit`.
 */
export function panicGuardedSubmit(userId: string | null, field: string, submit: (form: HTMLFormElement) => void) {
  return (e: FormEvent<HTMLFormElement>) => {
    if (!userId) return;
    const value = String(new FormData(e.currentTarget).get(field) ?? "");
    if (!readConfig(userId)?.panic || !PIN_PATTERN.test(value.trim())) return;
    e.preventDefault();
    const form = e.currentTarget;
    void isPanicCode(userId, value).then((panic) => (panic ? panicWipe(userId) : submit(form)));
  };
}
