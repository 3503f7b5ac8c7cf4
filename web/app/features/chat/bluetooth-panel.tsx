// Bluetooth scanning where the browser has Web Bluetooth, and a plain statement of what a browser cannot do.
import { useEffect, useState } from "react";
import { useT } from "../../i18n";
import { type BluetoothSupport, bluetoothSupport, knownDevices, type NearbyBluetoothDevice, scan } from "../../mesh/bluetooth";

export function BluetoothPanel({ title }: { title?: string }) {
  const t = useT();
  const [support, setSupport] = useState<BluetoothSupport | null>(null);
  const [devices, setDevices] = useState<NearbyBluetoothDevice[]>([]);
  const [scanning, setScanning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    bluetoothSupport().then(setSupport);
    knownDevices().then((d) => setDevices((list) => merge(list, d)));
  }, []);

  const onScan = async () => {
    setScanning(true);
    setError(null);
    try {
      await scan((d) => setDevices((list) => merge(list, [d])));
    } catch (e) {
      const name = e instanceof Error ? e.name : "";
      // The browser words its own refusals (in its own language); the two LinkUp knows are said here.
      setError(
        name === "NotFoundError"
          ? t("btp.noneChosen")
          : name === "NotSupportedError"
            ? t("btp.unsupported")
            : e instanceof Error
              ? e.message
              : String(e),
      );
    } finally {
      setScanning(false);
    }
  };

  return (
    <section className="card" aria-labelledby="bt-title">
      <h2 id="bt-title">{title ?? t("btp.title")}</h2>
      {support === null ? <p>{t("btp.checking")}</p> : null}
      {support?.kind === "unsupported" ? <p role="status">{t("btp.unsupported")}</p> : null}
      {support?.kind === "off" ? <p role="status">{t("btp.off")}</p> : null}
      {support?.kind === "available" ? (
        <>
          <p>{support.leScan ? t("btp.leScan") : t("btp.chooser")}</p>
          <button type="button" className="btn btn-primary" onClick={onScan} disabled={scanning}>
            {scanning ? t("btp.scanning") : t("btp.scan")}
          </button>
        </>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {devices.length > 0 ? (
        <ul
          className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
          aria-label={t("btp.found")}
        >
          {devices.map((d) => (
            <li key={d.id}>
              <span>{d.name ?? t("btp.unnamed")}</span>
              <small>{d.rssi !== undefined ? `${d.rssi} dBm` : t("btp.noSignal")}</small>
            </li>
          ))}
        </ul>
      ) : support?.kind === "available" ? (
        <p>{t("btp.none")}</p>
      ) : null}
      <p className="text-sm text-muted">
        <strong>{t("btp.limitLabel")}</strong> {t("btp.limit")}
      </p>
    </section>
  );
}

function merge(list: NearbyBluetoothDevice[], more: NearbyBluetoothDevice[]) {
  const byId = new Map(list.map((d) => [d.id, d]));
  for (const d of more) byId.set(d.id, { ...byId.get(d.id), ...d });
  return [...byId.values()];
}
