// The app lock on this device (core/app-lock.ts): settings on /security-settings, and the gate that hides the app
// behind a PIN or passkey prompt once the chosen idle time has passed. Device-only, so it needs JavaScript.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { type AppLockConfig, lockDue, PIN_PATTERN, parseAppLock, pinMatches } from "../../../../core/app-lock";
import { useT } from "../../i18n";
import { HttpError } from "../../../../core/http";

export const configKey = (userId: string) => `linkup-app-lock-${userId}`;
const ACTIVE_KEY = "linkup-last-active";
// Activity is written at most this often, so typing does not hammer storage.
const ACTIVITY_WRITE_MS = 15_000;
// How often an open screen checks whether the idle time has passed: a screen left open locks within this of the
// moment (a localStorage read each time), not only at the next navigation.
const LOCK_CHECK_MS = 5_000;

export function readConfig(userId: string): AppLockConfig | null {
  return parseAppLock(localStorage.getItem(configKey(userId)));
}

function lastActive(): number | null {
  const v = Number(localStorage.getItem(ACTIVE_KEY));
  return Number.isFinite(v) && v > 0 ? v : null;
}

export const markActive = () => localStorage.setItem(ACTIVE_KEY, String(Date.now()));

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

export function AppLockGate({ userId, children }: { userId: string | null; children: React.ReactNode }) {
  const [locked, setLocked] = useState(false);
  const [pin, setPin] = useState("");
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const check = useCallback(() => {
    if (!userId) return;
    if (lockDue(readConfig(userId), lastActive(), Date.now())) setLocked(true);
  }, [userId]);

  // Watches even when no lock is set yet: the lock turned on from /security-settings (this same page, no
  // navigation) must cover that screen too once the idle time passes.
  useEffect(() => {
    if (!userId) return;
    check();
    let written = 0;
    const onActivity = () => {
      if (Date.now() - written < ACTIVITY_WRITE_MS) return;
      written = Date.now();
      if (!readConfig(userId)) return;
      if (!lockDue(readConfig(userId), lastActive(), Date.now())) markActive();
    };
    const onVisible = () => document.visibilityState === "visible" && check();
    const events = ["pointerdown", "keydown", "scroll"] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true });
    document.addEventListener("visibilitychange", onVisible);
    const timer = setInterval(check, LOCK_CHECK_MS);
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity);
      document.removeEventListener("visibilitychange", onVisible);
      clearInterval(timer);
    };
  }, [userId, check]);

  if (!locked || !userId) return <>{children}</>;
  const config = readConfig(userId);
  const unlock = () => {
    markActive();
    setLocked(false);
    setPin("");
    setError(null);
  };
  return (
    <section className="card mx-auto max-w-[640px]" role="dialog" aria-modal="true" aria-labelledby="app-lock-title">
      <h1 id="app-lock-title">{t("sec.lockedTitle")}</h1>
      {config?.pin ? (
        <form
          className="form"
          onSubmit={async (e) => {
            e.preventDefault();
            if (config.panic && (await pinMatches(pin, config.panic))) return panicWipe(userId);
            if (config.pin && (await pinMatches(pin, config.pin))) unlock();
            else setError(t("sec.wrongPin"));
          }}
        >
          <PinField label={t("sec.pin")} value={pin} onChange={setPin} />
          <button type="submit" className="btn btn-primary">
            {t("sec.unlock")}
          </button>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn-ghost"
        onClick={async () => {
          try {
            const options = await fetch("/api/security/passkeys/unlock/options", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: "{}",
            });
            if (!options.ok) throw new Error(((await options.json()) as { error?: string }).error ?? t("sec.noUnlockPasskey"));
            // Loaded on use: the lock sits in every page's first load, the passkey library need not.
            const { startAuthentication } = await import("@simplewebauthn/browser");
            const response = await startAuthentication({ optionsJSON: await options.json() });
            const res = await fetch("/api/security/passkeys/unlock", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ response }),
            });
            if (!res.ok) throw new HttpError(res.status, await res.text());
            unlock();
          } catch (err) {
            setError(
              err instanceof HttpError
                ? t.error(err) || t("sec.passkeyNotVerified")
                : err instanceof Error && err.name !== "NotAllowedError"
                  ? err.message
                  : t("sec.passkeyCancelled"),
            );
          }
        }}
      >
        {t("sec.unlockPasskey")}
      </button>
    </section>
  );
}

/** A PIN or panic code box (digits, at most 8, never offered for autofill unless it is a new PIN). */
export function PinField({
  label,
  value,
  onChange,
  autoComplete = "off",
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: "off" | "new-password";
}) {
  return (
    <label>
      {label}
      <input
        type="password"
        inputMode="numeric"
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={8}
      />
    </label>
  );
}
