// This browser's offline state, read from the browser itself (service worker, Cache Storage, storage estimate):
// nothing here is a sample figure. Only the browser can see these, so the part needs JavaScript.
import { useCallback, useEffect, useState } from "react";

export interface DeviceState {
  worker: string;
  caches: { name: string; entries: number; bytes: number }[];
  usage: number | null;
  quota: number | null;
  online: boolean;
}

async function readDevice(): Promise<DeviceState> {
  const reg = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  const worker = reg?.active?.state ?? reg?.waiting?.state ?? reg?.installing?.state ?? "not registered";
  const names = "caches" in window ? await caches.keys() : [];
  const list = await Promise.all(
    names.map(async (name) => {
      const cache = await caches.open(name);
      const requests = await cache.keys();
      let bytes = 0;
      for (const r of requests) bytes += (await (await cache.match(r))?.blob())?.size ?? 0;
      return { name, entries: requests.length, bytes };
    }),
  );
  const estimate = navigator.storage?.estimate ? await navigator.storage.estimate() : null;
  return { worker, caches: list, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, online: navigator.onLine };
}

/** Bytes in the largest unit that keeps the number readable. */
function size(n: number): string {
  const units = ["bytes", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[i]}`;
}

/** The spec's health score: 30 for an active worker, 25 for cached items, 25 for a non-empty server cache, 20 online. */
export function healthScore(d: DeviceState, serverCached: boolean): { score: number; label: string } {
  const score =
    (d.worker === "activated" ? 30 : 0) + (d.caches.some((c) => c.entries > 0) ? 25 : 0) + (serverCached ? 25 : 0) + (d.online ? 20 : 0);
  const label = score >= 80 ? "Excellent" : score >= 60 ? "Good" : score >= 40 ? "Fair" : "Poor";
  return { score, label };
}

export function DeviceCaches({ serverCached }: { serverCached: boolean }) {
  const [state, setState] = useState<DeviceState | null>(null);
  const [note, setNote] = useState("");
  const refresh = useCallback(() => {
    readDevice()
      .then(setState)
      .catch((e: unknown) => setNote(`This browser's caches could not be read: ${String(e)}`));
  }, []);
  useEffect(refresh, [refresh]);

  const clear = async () => {
    const names = await caches.keys();
    await Promise.all(names.map((n) => caches.delete(n)));
    setNote(`Cleared ${names.length} ${names.length === 1 ? "cache" : "caches"} on this device.`);
    refresh();
  };

  if (!state) return <p>{note || "Reading this device's caches…"}</p>;
  const health = healthScore(state, serverCached);
  return (
    <div>
      <p>
        Health score: <strong>{health.score}</strong> ({health.label})
      </p>
      <ul aria-label="Device state">
        <li>Service worker: {state.worker}</li>
        <li>Connection: {state.online ? "online" : "offline"}</li>
        <li>
          Storage used: {state.usage === null ? "unknown" : size(state.usage)}
          {state.quota === null ? "" : ` of ${size(state.quota)}`}
        </li>
      </ul>
      {state.caches.length === 0 ? (
        <p>No caches on this device.</p>
      ) : (
        <ul aria-label="Caches on this device">
          {state.caches.map((c) => (
            <li key={c.name}>
              {c.name}: {c.entries} {c.entries === 1 ? "entry" : "entries"}, {size(c.bytes)}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button type="button" className="btn" onClick={refresh}>
          Refresh
        </button>
        <button type="button" className="btn btn-danger" onClick={() => void clear()}>
          Clear cache
        </button>
      </div>
      {note ? <p role="status">{note}</p> : null}
    </div>
  );
}
