// /download: install LinkUp from the browser (it is a web app, not a store app), or reach it without installing.
import { Link } from "react-router";
import { InstallButton, InstallSteps, NoSmartphone, QrCode } from "../features/install/install-parts";
import { loadInstall } from "../features/install/install.server";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/download";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "install.metaTitle", "Install LinkUp — LinkUp") },
  { name: "description", content: "Install LinkUp on your phone from the browser, or use it by USSD and WhatsApp." },
];

export async function loader({ context }: Route.LoaderArgs) {
  return loadInstall(context);
}

export default function Download({ loaderData }: Route.ComponentProps) {
  const { installUrl, qrSvg, ussdCode, whatsappNumber } = loaderData;
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("install.title")}</h1>
        <p>{t("install.intro")}</p>
        <InstallButton />
      </section>
      <InstallSteps />
      <section className="card grid justify-items-center gap-3 text-center" aria-labelledby="scan-title">
        <h2 id="scan-title">{t("install.scan")}</h2>
        <QrCode svg={qrSvg} url={installUrl} />
        <p className="text-sm">{installUrl}</p>
        <Link to="/qr-install">{t("install.moreWays")}</Link>
      </section>
      <NoSmartphone ussdCode={ussdCode} whatsappNumber={whatsappNumber} />
    </div>
  );
}
