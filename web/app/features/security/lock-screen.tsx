// The app lock's locked screen: the PIN form and the passkey button, inside the gate's dialog
// (features/security/app-lock.tsx), which loads it only on a device that has a lock set.
import { useState } from "react";
import { pinMatches } from "../../../../core/app-lock";
import { HttpError } from "../../../../core/http";
import { useT } from "../../i18n";
import type { LockScreenProps } from "./app-lock";
import { panicWipe } from "./panic";
import { PinField } from "./pin-field";

export function LockScreen({ userId, config, onUnlock }: LockScreenProps) {
  const [pin, setPin] = useState("");
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const unlock = () => {
    setPin("");
    setError(null);
    onUnlock();
  };
  return (
    <>
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
    </>
  );
}
