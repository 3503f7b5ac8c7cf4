// The app lock's settings on /security-settings (core/app-lock.ts). Apart from the gate in app-lock.tsx, which
// every page loads, so the settings form costs only the screen that shows it.
import { useEffect, useState } from "react";
import { AUTO_LOCK_MINUTES, type AppLockConfig, newPinRecord, PIN_PATTERN } from "../../../../core/app-lock";
import { useT } from "../../i18n";
import { configKey, markActive, readConfig } from "./app-lock";
import { PinField } from "./pin-field";

export function AppLockSettings({ userId }: { userId: string }) {
  const [config, setConfig] = useState<AppLockConfig | null | undefined>(undefined);
  const [minutes, setMinutes] = useState<number>(5);
  const [pin, setPin] = useState("");
  const [panic, setPanic] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const t = useT();
  useEffect(() => setConfig(readConfig(userId)), [userId]);
  if (config === undefined) return <p className="text-muted text-sm">{t("sec.lockNeedsJs")}</p>;
  return (
    <section aria-labelledby="app-lock-settings-title">
      <h2 id="app-lock-settings-title">
        {t("sec.lockTitle")} {config ? <span className="pill">{t("sec.active")}</span> : null}
      </h2>
      <p>{t("sec.lockBody")}</p>
      {message ? (
        <p role="status" className="text-ok">
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
        <PinField label={t("sec.pinLabel")} value={pin} onChange={setPin} autoComplete="new-password" />
        <PinField label={t("sec.panicLabel")} value={panic} onChange={setPanic} />
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
