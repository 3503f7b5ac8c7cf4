// The app lock on this device (core/app-lock.ts): settings on /security-settings, and the gate that hides the app
// behind a PIN or passkey prompt once the chosen idle time has passed. Device-only, so it needs JavaScript.
import { startAuthentication } from "@simplewebauthn/browser";
import { useCallback, useEffect, useState } from "react";
import {
  AUTO_LOCK_MINUTES,
  type AppLockConfig,
  lockDue,
  newPinRecord,
  PIN_PATTERN,
  parseAppLock,
  pinMatches,
} from "../../../../core/app-lock";
import { useT } from "../../i18n";

const configKey = (userId: string) => `linkup-app-lock-${userId}`;
const ACTIVE_KEY = "linkup-last-active";
// Activity is written at most this often, so typing does not hammer storage.
const ACTIVITY_WRITE_MS = 15_000;

function readConfig(userId: string): AppLockConfig | null {
  return parseAppLock(localStorage.getItem(configKey(userId)));
}

function lastActive(): number | null {
  const v = Number(localStorage.getItem(ACTIVE_KEY));
  return Number.isFinite(v) && v > 0 ? v : null;
}

const markActive = () => localStorage.setItem(ACTIVE_KEY, String(Date.now()));

/** The panic code was typed: as panic mode does, the server session ends and this device forgets LinkUp. */
async function panicWipe(userId: string): Promise<void> {
  // The device forgets first: withdrawing its key needs the session the panic call then ends.
  const { forgetThisDevice } = await import("../../mesh/sign-out");
  await forgetThisDevice(userId).catch(() => {});
  await fetch("/api/security/panic", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).catch(() => {});
  window.location.assign("/");
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

  useEffect(() => {
    if (!userId || !readConfig(userId)) return;
    check();
    let written = 0;
    const onActivity = () => {
      if (Date.now() - written < ACTIVITY_WRITE_MS) return;
      written = Date.now();
      if (!lockDue(readConfig(userId), lastActive(), Date.now())) markActive();
    };
    const onVisible = () => document.visibilityState === "visible" && check();
    const events = ["pointerdown", "keydown", "scroll"] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true });
    document.addEventListener("visibilitychange", onVisible);
    const timer = setInterval(check, 30_000);
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
    <section className="card narrow" role="dialog" aria-modal="true" aria-labelledby="app-lock-title">
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
          <label>
            {t("sec.pin")}
            <input
              type="password"
              inputMode="numeric"
              autoComplete="off"
              value={pin}
              onChange={(e) => setPin(e.target.value)}
              maxLength={8}
            />
          </label>
          <button type="submit" className="btn btn-primary">
            {t("sec.unlock")}
          </button>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="error">
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
            const response = await startAuthentication({ optionsJSON: await options.json() });
            const res = await fetch("/api/security/passkeys/unlock", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ response }),
            });
            if (!res.ok) throw new Error(((await res.json()) as { error?: string }).error ?? t("sec.passkeyNotVerified"));
            unlock();
          } catch (err) {
            setError(err instanceof Error && err.name !== "NotAllowedError" ? t.error(err.message) : t("sec.passkeyCancelled"));
          }
        }}
      >
        {t("sec.unlockPasskey")}
      </button>
    </section>
  );
}

export function AppLockSettings({ userId }: { userId: string }) {
  const [config, setConfig] = useState<AppLockConfig | null | undefined>(undefined);
  const [minutes, setMinutes] = useState<number>(5);
  const [pin, setPin] = useState("");
  const [panic, setPanic] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const t = useT();
  useEffect(() => setConfig(readConfig(userId)), [userId]);
  if (config === undefined) return <p className="muted small">{t("sec.lockNeedsJs")}</p>;
  return (
    <section aria-labelledby="app-lock-settings-title">
      <h2 id="app-lock-settings-title">
        {t("sec.lockTitle")} {config ? <span className="pill">{t("sec.active")}</span> : null}
      </h2>
      <p>{t("sec.lockBody")}</p>
      {message ? (
        <p role="status" className="success">
          {message}
        </p>
      ) : null}
      <form
        className="form"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((pin && !PIN_PATTERN.test(pin)) || (panic && !PIN_PATTERN.test(panic))) {
            setMessage(t("sec.pinFormat"));
            return;
          }
          if (panic && panic === pin) {
            setMessage(t("sec.panicDiffers"));
            return;
          }
          const next: AppLockConfig = {
            minutes: minutes as AppLockConfig["minutes"],
            pin: pin ? await newPinRecord(pin) : (config?.pin ?? null),
            panic: panic ? await newPinRecord(panic) : (config?.panic ?? null),
          };
          localStorage.setItem(configKey(userId), JSON.stringify(next));
          markActive();
          setConfig(next);
          setPin("");
          setPanic("");
          setMessage(t("sec.lockOn", { count: minutes }));
        }}
      >
        <label>
          {t("sec.autoLock")}
          <select value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
            {AUTO_LOCK_MINUTES.map((m) => (
              <option key={m} value={m}>
                {t("sec.minutes", { count: m })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("sec.pinLabel")}
          <input
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            maxLength={8}
          />
        </label>
        <label>
          {t("sec.panicLabel")}
          <input
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={panic}
            onChange={(e) => setPanic(e.target.value)}
            maxLength={8}
          />
        </label>
        <button type="submit" className="btn btn-primary">
          {t("sec.saveLock")}
        </button>
      </form>
      {config ? (
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            localStorage.removeItem(configKey(userId));
            setConfig(null);
            setMessage(t("sec.lockOff"));
          }}
        >
          {t("sec.turnOffLock")}
        </button>
      ) : null}
    </section>
  );
}
