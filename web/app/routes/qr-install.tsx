// /qr-install (spec part 2 §2 item 1): the install link as a QR code to show or hide, copy, open or download.
import { Link } from "react-router";
import { CopyLinkButton } from "../features/install/copy-link";
import { InstallSteps, NoSmartphone, QrCode } from "../features/install/install-parts";
import { loadInstall } from "../features/install/install.server";
import type { Route } from "./+types/qr-install";

export const meta: Route.MetaFunction = () => [{ title: "Install by QR code — LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadInstall(context);
}

const TILES = [
  { title: "Works offline", text: "Pages you opened and your messages stay on the phone when the network drops." },
  { title: "Small and light", text: "No store download: it installs from the browser and updates itself." },
  { title: "Private", text: "Private chats are end-to-end encrypted on your device." },
];

export default function QrInstall({ loaderData }: Route.ComponentProps) {
  const { installUrl, qrSvg, ussdCode, whatsappNumber } = loaderData;
  return (
    <div className="stack">
      <section className="card center" aria-labelledby="qr-title">
        <h1 id="qr-title">Install LinkUp on your phone</h1>
        <p>Scan the code with your phone's camera, then add LinkUp to your home screen.</p>
        <details open>
          <summary>QR code</summary>
          <QrCode svg={qrSvg} url={installUrl} />
        </details>
        <label className="form">
          Direct URL
          <input readOnly value={installUrl} />
        </label>
        <div className="row">
          <CopyLinkButton url={installUrl} />
          <a className="btn btn-ghost" href={installUrl} target="_blank" rel="noopener">
            Open in browser
          </a>
          <a className="btn btn-ghost" href="/api/install/qr.svg" download="linkup-install-qr.svg">
            Download QR (SVG)
          </a>
        </div>
      </section>
      <InstallSteps />
      <div className="grid3">
        {TILES.map((t) => (
          <div key={t.title} className="card tile">
            <strong>{t.title}</strong>
            <span className="small">{t.text}</span>
          </div>
        ))}
      </div>
      <NoSmartphone ussdCode={ussdCode} whatsappNumber={whatsappNumber} />
      <section className="card" aria-labelledby="help-title">
        <h2 id="help-title">Need help?</h2>
        <p>
          If the code does not scan, type the direct URL into your phone's browser. Still stuck? <Link to="/customer-service">Call us</Link>{" "}
          or ask <Link to="/support">AI Support</Link>.
        </p>
      </section>
    </div>
  );
}
