// Bluetooth scanning where the browser has Web Bluetooth, and a plain statement of what a browser cannot do.
import { useEffect, useState } from "react";
import {
  BROWSER_LIMIT_TEXT,
  type BluetoothSupport,
  bluetoothSupport,
  knownDevices,
  type NearbyBluetoothDevice,
  scan,
} from "../../mesh/bluetooth";

export function BluetoothPanel({ title = "Bluetooth devices nearby" }: { title?: string }) {
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
      setError(name === "NotFoundError" ? "No device was chosen." : e instanceof Error ? e.message : String(e));
    } finally {
      setScanning(false);
    }
  };

  return (
    <section className="card" aria-labelledby="bt-title">
      <h2 id="bt-title">{title}</h2>
      {support === null ? <p>Checking this browser's Bluetooth…</p> : null}
      {support?.kind === "unsupported" || support?.kind === "off" ? <p role="status">{support.reason}</p> : null}
      {support?.kind === "available" ? (
        <>
          <p>
            {support.leScan
              ? "This browser can listen for Bluetooth LE devices near you."
              : "This browser can look for Bluetooth devices; it shows a chooser and tells LinkUp only about the device you pick."}
          </p>
          <button type="button" className="btn btn-primary" onClick={onScan} disabled={scanning}>
            {scanning ? "Scanning..." : "Scan for Devices"}
          </button>
        </>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {devices.length > 0 ? (
        <ul className="people" aria-label="Bluetooth devices found">
          {devices.map((d) => (
            <li key={d.id}>
              <span>{d.name}</span>
              <small>{d.rssi !== undefined ? `${d.rssi} dBm` : "signal not reported"}</small>
            </li>
          ))}
        </ul>
      ) : support?.kind === "available" ? (
        <p>No Bluetooth devices found yet.</p>
      ) : null}
      <p className="honest-note">
        <strong>What a browser cannot do:</strong> {BROWSER_LIMIT_TEXT}
      </p>
    </section>
  );
}

function merge(list: NearbyBluetoothDevice[], more: NearbyBluetoothDevice[]) {
  const byId = new Map(list.map((d) => [d.id, d]));
  for (const d of more) byId.set(d.id, { ...byId.get(d.id), ...d });
  return [...byId.values()];
}
