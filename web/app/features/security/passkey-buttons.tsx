// The passkey ceremonies in the browser (@simplewebauthn/browser): adding a passkey on /security-settings and
// proving one on /two-factor. WebAuthn exists only in JavaScript; without it the screens say so.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { type T, useT } from "../../i18n";
import { HttpError } from "../../../../core/http";

async function postJson<R>(path: string, body: unknown): Promise<R> {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  // A refusal keeps its body, so the screen says it by its code (web/app/i18n/refusal.ts).
  if (!res.ok) throw new HttpError(res.status, text);
  return (text ? JSON.parse(text) : {}) as R;
}

/** A cancelled or timed-out browser prompt says so plainly; server refusals pass their own words, in the page's language. */
function messageOf(e: unknown, t: T): string {
  if (e instanceof Error && e.name === "NotAllowedError") return t("sec.passkeyCancelled");
  if (e instanceof HttpError) return t.error(e);
  return e instanceof Error && e.message ? e.message : t("sec.tryAgain");
}

function useWebAuthn(): boolean | null {
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  return supported;
}

export function AddPasskey({ onAdded }: { onAdded: () => void }) {
  const supported = useWebAuthn();
  const t = useT();
  const [name, setName] = useState(() => t("sec.passkeyDefaultName"));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (supported === null) return <p className="text-muted text-sm">{t("sec.addNeedsJs")}</p>;
  if (!supported) return <p className="text-muted text-sm">{t("sec.cannotMake")}</p>;
  return (
    <form
      className="form"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const optionsJSON = await postJson<Parameters<typeof startRegistration>[0]["optionsJSON"]>("/api/security/passkeys/options", {});
          const response = await startRegistration({ optionsJSON });
          await postJson("/api/security/passkeys", { name, response });
          onAdded();
        } catch (err) {
          setError(messageOf(err, t));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label>
        {t("sec.passkeyName")}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={40} required />
      </label>
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t("sec.addPasskey")}
      </button>
    </form>
  );
}

export function UsePasskey({ next }: { next: string }) {
  const supported = useWebAuthn();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (supported === null) return <p className="text-muted text-sm">{t("sec.useNeedsJs")}</p>;
  if (!supported) return <p className="text-muted text-sm">{t("sec.cannotUse")}</p>;
  return (
    <div>
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            const optionsJSON = await postJson<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
              "/api/auth/second-factor/passkey/options",
              {},
            );
            const response = await startAuthentication({ optionsJSON });
            await postJson("/api/auth/second-factor/passkey", { response });
            window.location.assign(next);
          } catch (err) {
            setError(messageOf(err, t));
            setBusy(false);
          }
        }}
      >
        {t("sec.usePasskey")}
      </button>
    </div>
  );
}
