// The passkey ceremonies in the browser (@simplewebauthn/browser): adding a passkey on /security-settings and
// proving one on /two-factor. WebAuthn exists only in JavaScript; without it the screens say so.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "react";

async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new Error(json.error ?? "Something went wrong. Please try again.");
  return json;
}

/** A cancelled or timed-out browser prompt says so plainly; server refusals pass their own words. */
function messageOf(e: unknown): string {
  if (e instanceof Error && e.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
  return e instanceof Error ? e.message : "Something went wrong. Please try again.";
}

function useWebAuthn(): boolean | null {
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  return supported;
}

export function AddPasskey({ onAdded }: { onAdded: () => void }) {
  const supported = useWebAuthn();
  const [name, setName] = useState("This phone");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (supported === null) return <p className="muted small">Adding a passkey needs JavaScript.</p>;
  if (!supported) return <p className="muted small">This browser cannot make passkeys.</p>;
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
          setError(messageOf(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label>
        Passkey name
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={40} required />
      </label>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Add a Passkey
      </button>
    </form>
  );
}

export function UsePasskey({ next }: { next: string }) {
  const supported = useWebAuthn();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (supported === null) return <p className="muted small">Signing in with a passkey needs JavaScript.</p>;
  if (!supported) return <p className="muted small">This browser cannot use passkeys.</p>;
  return (
    <div>
      {error ? (
        <p role="alert" className="error">
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
            setError(messageOf(err));
            setBusy(false);
          }
        }}
      >
        Use Passkey
      </button>
    </div>
  );
}
