// Web Bluetooth, honestly: where the browser has it, LinkUp can scan for Bluetooth LE devices near you (the
// browser asks you to pick one; Chrome's experimental LE scan lists advertisements). No browser can
// advertise or accept incoming Bluetooth connections, so a web page cannot carry chat from phone to phone
// over Bluetooth: chat goes through the relay, and between tabs of one device over the local mesh.

export interface NearbyBluetoothDevice {
  id: string;
  /** The name the device advertises; none for an unnamed device (the screen says so in the person's language). */
  name?: string;
  /** Signal strength in dBm, when the browser reports it (LE scan only). */
  rssi?: number;
  seenAt: number;
}

export type BluetoothSupport = { kind: "unsupported" } | { kind: "off" } | { kind: "available"; leScan: boolean };

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
    return { kind: "unsupported" };
  }
  try {
    if (bt.getAvailability && !(await bt.getAvailability())) return { kind: "off" };
  } catch {}
  return { kind: "available", leScan: typeof bt.requestLEScan === "function" };
}

/** Devices this site was already allowed to see. */
export async function knownDevices(): Promise<NearbyBluetoothDevice[]> {
  const bt = bluetooth();
  if (!bt?.getDevices) return [];
  const devices = await bt.getDevices().catch(() => []);
  return devices.map((d) => ({ id: d.id, name: d.name || undefined, seenAt: Date.now() }));
}

/**
 * Scans: with the experimental LE scan, listens to advertisements for `ms`; otherwise opens the browser's
 * device chooser (the user picks one device). Must run from a click.
 */
export async function scan(onDevice: (d: NearbyBluetoothDevice) => void, ms = 3000): Promise<void> {
  const bt = bluetooth();
  if (!bt) throw new DOMException("Web Bluetooth is not available in this browser.", "NotSupportedError");
  if (bt.requestLEScan) {
    const listener = (e: Event) => {
      const ad = e as Event & { device: { id: string; name?: string }; rssi?: number };
      onDevice({ id: ad.device.id, name: ad.device.name || undefined, rssi: ad.rssi, seenAt: Date.now() });
    };
    bt.addEventListener("advertisementreceived", listener);
    const scanHandle = await bt.requestLEScan({ acceptAllAdvertisements: true });
    await new Promise((r) => setTimeout(r, ms));
    scanHandle.stop();
    bt.removeEventListener("advertisementreceived", listener);
    return;
  }
  const device = await bt.requestDevice({ acceptAllDevices: true });
  onDevice({ id: device.id, name: device.name || undefined, seenAt: Date.now() });
}
