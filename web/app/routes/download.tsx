// /download: install LinkUp from the browser (it is a web app, not a store app), or reach it without installing.
import { Link } from "react-router";
import { InstallButton, InstallSteps, NoSmartphone, QrCode } from "../features/install/install-parts";
import { loadInstall } from "../features/install/install.server";
import type { Route } from "./+types/download";

export const meta: Route.MetaFunction = () => [
  { title: "Install LinkUp — LinkUp" },
  { name: "description", content: "Install LinkUp on your phone from the browser, or use it by USSD and WhatsApp." },
];

export async function loader({ context }: Route.LoaderArgs) {
  return loadInstall(context);
}

export default function Download({ loaderData }: Route.ComponentProps) {
  const { installUrl, qrSvg, ussdCode, whatsappNumber } = loaderData;
  return (
    <div className="stack">
      <section className="hero">
        <h1>Install LinkUp</h1>
        <p>
          LinkUp is not in the App Store or Google Play: it installs straight from your browser, takes less space than a store app and
          updates itself.
        </p>
        <InstallButton />
      </section>
      <InstallSteps />
      <section className="card center" aria-labelledby="scan-title">
        <h2 id="scan-title">On a computer? Scan with your phone</h2>
        <QrCode svg={qrSvg} url={installUrl} />
        <p className="small">{installUrl}</p>
        <Link to="/qr-install">More ways to share the install link</Link>
      </section>
      <NoSmartphone ussdCode={ussdCode} whatsappNumber={whatsappNumber} />
    </div>
  );
}
