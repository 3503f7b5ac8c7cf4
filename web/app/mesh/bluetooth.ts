// Web Bluetooth, honestly: where the browser has it, LinkUp can scan for Bluetooth LE devices near you (the
// browser asks you to pick one; Chrome's experimental LE scan lists advertisements). No browser can
// advertise or accept incoming Bluetooth connections, so a web page cannot carry chat from phone to phone
// over Bluetooth: chat goes through the relay, and between tabs of one device over the local mesh.

export interface NearbyBluetoothDevice {
  id: string;
  name: string;
  /** Signal strength in dBm, when the browser reports it (LE scan only). */
  rssi?: number;
  seenAt: number;
}

export type BluetoothSupport =
  | { kind: "unsupported"; reason: string }
  | { kind: "off"; reason: string }
  | { kind: "available"; leScan: boolean };

interface BluetoothLike {
  getAvailability?: () => Promise<boolean>;
  requestDevice: (options: { acceptAllDevices: boolean }) => Promise<{ id: string; name?: string }>;
  getDevices?: () => Promise<{ id: string; name?: string }[]>;
  requestLEScan?: (options: { acceptAllAdvertisements: boolean }) => Promise<{ stop: () => void }>;
  addEventListener: (type: string, listener: (e: Event) => void) => void;
  removeEventListener: (type: string, listener: (e: Event) => void) => void;
}

function bluetooth(): BluetoothLike | null {
  return (navigator as Navigator & { bluetooth?: BluetoothLike }).bluetooth ?? null;
}

/** What this browser can do with Bluetooth. */
export async function bluetoothSupport(): Promise<BluetoothSupport> {
  const bt = bluetooth();
  if (!bt) {
    return {
      kind: "unsupported",
      reason:
        "This browser has no Web Bluetooth (Safari, Firefox and iPhone browsers do not offer it). Chrome or Edge on Android, Windows, macOS or ChromeOS can scan.",
    };
  }
  try {
    if (bt.getAvailability && !(await bt.getAvailability()))
      return { kind: "off", reason: "Bluetooth is off or this device has no Bluetooth adapter." };
  } catch {}
  return { kind: "available", leScan: typeof bt.requestLEScan === "function" };
}

export const BROWSER_LIMIT_TEXT =
  "A web browser can scan for Bluetooth devices and connect to some of them, but it cannot advertise itself or accept connections from another phone. So LinkUp in a browser cannot send chat messages over Bluetooth: messages travel through the LinkUp relay, and between tabs on this device without the internet.";

/** Devices this site was already allowed to see. */
export async function knownDevices(): Promise<NearbyBluetoothDevice[]> {
  const bt = bluetooth();
  if (!bt?.getDevices) return [];
  const devices = await bt.getDevices().catch(() => []);
  return devices.map((d) => ({ id: d.id, name: d.name || "Unnamed device", seenAt: Date.now() }));
}

/**
 * Scans: with the experimental LE scan, listens to advertisements for `ms`; otherwise opens the browser's
 * device chooser (the user picks one device). Must run from a click.
 */
export async function scan(onDevice: (d: NearbyBluetoothDevice) => void, ms = 3000): Promise<void> {
  const bt = bluetooth();
  if (!bt) throw new Error("Web Bluetooth is not available in this browser.");
  if (bt.requestLEScan) {
    const listener = (e: Event) => {
      const ad = e as Event & { device: { id: string; name?: string }; rssi?: number };
      onDevice({ id: ad.device.id, name: ad.device.name || "Unnamed device", rssi: ad.rssi, seenAt: Date.now() });
    };
    bt.addEventListener("advertisementreceived", listener);
    const scanHandle = await bt.requestLEScan({ acceptAllAdvertisements: true });
    await new Promise((r) => setTimeout(r, ms));
    scanHandle.stop();
    bt.removeEventListener("advertisementreceived", listener);
    return;
  }
  const device = await bt.requestDevice({ acceptAllDevices: true });
  onDevice({ id: device.id, name: device.name || "Unnamed device", seenAt: Date.now() });
}
