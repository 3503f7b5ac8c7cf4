// Pieces shared by /download and /qr-install (spec part 2 §2 item 1).
import { useEffect, useState } from "react";
import { Link } from "react-router";

/** Chrome's install prompt event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/**
 * The browser's own install prompt, where it offers one (Chrome and Edge on Android and desktop). Elsewhere, and
 * without JavaScript, nothing shows here and the steps below it do the job.
 */
export function InstallButton() {
  const [prompt, setPrompt] = useState<BeforeInstallPromptEvent | null>(null);
  const [installed, setInstalled] = useState(false);
  useEffect(() => {
    const onPrompt = (e: Event) => {
      e.preventDefault();
      setPrompt(e as BeforeInstallPromptEvent);
    };
    const onInstalled = () => {
      setInstalled(true);
      setPrompt(null);
    };
    window.addEventListener("beforeinstallprompt", onPrompt);
    window.addEventListener("appinstalled", onInstalled);
    if (window.matchMedia?.("(display-mode: standalone)").matches) setInstalled(true);
    return () => {
      window.removeEventListener("beforeinstallprompt", onPrompt);
      window.removeEventListener("appinstalled", onInstalled);
    };
  }, []);
  if (installed) return <p role="status">LinkUp is installed on this device.</p>;
  if (!prompt) return null;
  return (
    <button
      type="button"
      className="btn btn-primary btn-lg"
      onClick={async () => {
        await prompt.prompt();
        const { outcome } = await prompt.userChoice;
        if (outcome === "accepted") setInstalled(true);
        setPrompt(null);
      }}
    >
      Install LinkUp
    </button>
  );
}

export function InstallSteps() {
  return (
    <div className="grid3">
      <section className="card" aria-labelledby="steps-ios">
        <h2 id="steps-ios">iPhone and iPad</h2>
        <ol>
          <li>Open this page in Safari.</li>
          <li>Tap the Share button (the square with an arrow).</li>
          <li>Choose “Add to Home Screen”, then “Add”.</li>
        </ol>
      </section>
      <section className="card" aria-labelledby="steps-android">
        <h2 id="steps-android">Android</h2>
        <ol>
          <li>Open this page in Chrome.</li>
          <li>Tap “Install LinkUp” above, or the ⋮ menu.</li>
          <li>Choose “Install app” (or “Add to Home screen”), then “Install”.</li>
        </ol>
      </section>
    </div>
  );
}

/** For phones that cannot install a web app: the USSD code and the WhatsApp number, when configured. */
export function NoSmartphone({ ussdCode, whatsappNumber }: { ussdCode: string | null; whatsappNumber: string | null }) {
  return (
    <section className="card" aria-labelledby="no-install">
      <h2 id="no-install">Phone cannot install apps?</h2>
      {ussdCode ? (
        <p>
          On any phone, dial <strong>{ussdCode}</strong> for SOS, the assistant, market prices and translation. No data needed.
        </p>
      ) : null}
      {whatsappNumber ? (
        <p>
          On WhatsApp, message <strong>{whatsappNumber}</strong> with “@ai” and your question, or “SOS” and what happened.
        </p>
      ) : null}
      {!ussdCode && !whatsappNumber ? <p className="muted">USSD and WhatsApp are not connected on this server yet.</p> : null}
      <Link to="/whatsapp-demo">How LinkUp works on WhatsApp</Link>
    </section>
  );
}

export function QrCode({ svg, url }: { svg: string; url: string }) {
  return (
    // The SVG is drawn by our own Worker from our own install link (workers/install).
    // biome-ignore lint/security/noDangerouslySetInnerHtml: server-generated QR markup, no user input
    <div className="qr" role="img" aria-label={`QR code of ${url}`} dangerouslySetInnerHTML={{ __html: svg }} />
  );
}
