import { Link } from "react-router";
import { BluetoothPanel } from "../features/chat/bluetooth-panel";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/bluetooth-advanced";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "bt.metaTitle", "Bluetooth · LinkUp") }];

export default function BluetoothAdvanced() {
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="card">
        <h1>{t("bt.title")}</h1>
        <p>{t("bt.intro")}</p>
        <ul>
          <li>
            <strong>{t("bt.relayLabel")}</strong> {t("bt.relay")}
          </li>
          <li>
            <strong>{t("bt.localLabel")}</strong> {t("bt.local")}
          </li>
          <li>
            <strong>{t("bt.phonesLabel")}</strong> {t("bt.phones")}
          </li>
          <li>
            <strong>{t("bt.btLabel")}</strong> {t("bt.bt")}
          </li>
        </ul>
        <noscript>
          <p>{t("bt.needsJs")}</p>
        </noscript>
      </section>
      <BluetoothPanel title={t("bt.scanTitle")} />
      <p>
        <Link to="/mesh-network">{t("bt.seeMesh")}</Link>
      </p>
    </div>
  );
}
