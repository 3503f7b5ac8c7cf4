// Pieces shared by /download and /qr-install (docs/product/screens.md).
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useT } from "../../i18n";

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
  const t = useT();
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
  if (installed) return <p role="status">{t("install.installed")}</p>;
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
      {t("install.title")}
    </button>
  );
}

export function InstallSteps() {
  const t = useT();
  return (
    <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
      <section className="card" aria-labelledby="steps-ios">
        <h2 id="steps-ios">{t("install.ios")}</h2>
        <ol>
          <li>{t("install.ios1")}</li>
          <li>{t("install.ios2")}</li>
          <li>{t("install.ios3")}</li>
        </ol>
      </section>
      <section className="card" aria-labelledby="steps-android">
        <h2 id="steps-android">{t("install.android")}</h2>
        <ol>
          <li>{t("install.android1")}</li>
          <li>{t("install.android2")}</li>
          <li>{t("install.android3")}</li>
        </ol>
      </section>
    </div>
  );
}

/** For phones that cannot install a web app: the USSD code and the WhatsApp number, when configured. */
export function NoSmartphone({ ussdCode, whatsappNumber }: { ussdCode: string | null; whatsappNumber: string | null }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="no-install">
      <h2 id="no-install">{t("install.noApps")}</h2>
      {ussdCode ? (
        <p>
          {t("install.ussdBefore")} <strong>{ussdCode}</strong> {t("install.ussdAfter")}
        </p>
      ) : null}
      {whatsappNumber ? (
        <p>
          {t("install.waBefore")} <strong>{whatsappNumber}</strong> {t("install.waAfter")}
        </p>
      ) : null}
      {!ussdCode && !whatsappNumber ? <p className="text-muted">{t("install.notConnected")}</p> : null}
      <Link to="/whatsapp-demo">{t("install.waHow")}</Link>
    </section>
  );
}

const QR_CLASS = "mx-auto my-2 w-[min(240px,70vw)] max-w-full bg-white [&_svg]:block [&_svg]:h-auto [&_svg]:w-full";

export function QrCode({ svg, url }: { svg: string; url: string }) {
  const t = useT();
  return (
    // The SVG is drawn by our own Worker from our own install link (workers/install).
    // biome-ignore lint/security/noDangerouslySetInnerHtml: server-generated QR markup, no user input
    <div className={QR_CLASS} role="img" aria-label={t("install.qr", { url })} dangerouslySetInnerHTML={{ __html: svg }} />
  );
}
