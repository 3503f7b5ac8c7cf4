// /qr-install (docs/product/screens.md): the install link as a QR code to show or hide, copy, open or download.
import { Link } from "react-router";
import { CopyLinkButton } from "../features/install/copy-link";
import { InstallSteps, NoSmartphone, QrCode } from "../features/install/install-parts";
import { loadInstall } from "../features/install/install.server";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/qr-install";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "qr.metaTitle", "Install by QR code — LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadInstall(context);
}

const TILES: { title: MessageKey; text: MessageKey }[] = [
  { title: "qr.offline.title", text: "qr.offline.text" },
  { title: "qr.light.title", text: "qr.light.text" },
  { title: "qr.private.title", text: "qr.private.text" },
];

export default function QrInstall({ loaderData }: Route.ComponentProps) {
  const { installUrl, qrSvg, ussdCode, whatsappNumber } = loaderData;
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="card grid justify-items-center gap-3 text-center" aria-labelledby="qr-title">
        <h1 id="qr-title">{t("qr.title")}</h1>
        <p>{t("qr.intro")}</p>
        <details open>
          <summary>{t("qr.code")}</summary>
          <QrCode svg={qrSvg} url={installUrl} />
        </details>
        <label className="form">
          {t("qr.url")}
          <input readOnly value={installUrl} />
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <CopyLinkButton url={installUrl} />
          <a className="btn btn-ghost" href={installUrl} target="_blank" rel="noopener">
            {t("qr.open")}
          </a>
          <a className="btn btn-ghost" href="/api/install/qr.svg" download="linkup-install-qr.svg">
            {t("qr.download")}
          </a>
        </div>
      </section>
      <InstallSteps />
      <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
        {TILES.map((tile) => (
          <div key={tile.title} className="card grid gap-1">
            <strong>{t(tile.title)}</strong>
            <span className="text-sm">{t(tile.text)}</span>
          </div>
        ))}
      </div>
      <NoSmartphone ussdCode={ussdCode} whatsappNumber={whatsappNumber} />
      <section className="card" aria-labelledby="help-title">
        <h2 id="help-title">{t("qr.help")}</h2>
        <p>
          {t("qr.helpText")} <Link to="/customer-service">{t("qr.callUs")}</Link> {t("qr.orAsk")}{" "}
          <Link to="/support">{t("shell.link.aiSupport")}</Link>.
        </p>
      </section>
    </div>
  );
}
