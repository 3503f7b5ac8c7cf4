// This browser's offline state, read from the browser itself (docs/decisions/028-cache-status.md): the service
// worker, Cache Storage, the storage estimate, and the chat history and outbox this device keeps in IndexedDB.
// Nothing here is a sample figure.
import type { Me } from "../../mesh/node";

export interface DeviceState {
  /** The service worker's state ("activated", …) or null when none is registered. */
  worker: string | null;
  /** The build the worker keeps (its cache name's version), when one is active. */
  version: string | null;
  caches: { name: string; entries: number; bytes: number }[];
  usage: number | null;
  quota: number | null;
  online: boolean;
  /** The signed-in person's chat storage on this device; null with no identity on this browser. */
  chat: { messages: number; chats: number; outbox: number } | null;
}

/** Asks the active worker which build it keeps (web/public/sw.js answers on a message port). */
function workerVersion(worker: ServiceWorker | null | undefined): Promise<string | null> {
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 2000);
    channel.port1.onmessage = (e: MessageEvent<{ version?: string }>) => {
      clearTimeout(timer);
      resolve(e.data?.version ?? null);
    };
    worker.postMessage({ type: "version" }, [channel.port2]);
  });
}

async function chatCounts(userId: string | null): Promise<DeviceState["chat"]> {
  if (!userId) return null;
  const db = await import("../../mesh/db");
  db.selectDbUser(userId);
  return db.storedCounts();
}

export async function readDevice(userId: string | null): Promise<DeviceState> {
  const reg = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  const worker = reg?.active ?? reg?.waiting ?? reg?.installing ?? null;
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
  const [estimate, version, chat] = await Promise.all([
    navigator.storage?.estimate ? navigator.storage.estimate() : null,
    workerVersion(reg?.active),
    chatCounts(userId),
  ]);
  return {
    worker: worker?.state ?? null,
    version,
    caches: list,
    usage: estimate?.usage ?? null,
    quota: estimate?.quota ?? null,
    online: navigator.onLine,
    chat,
  };
}

export type HealthLabel = "excellent" | "good" | "fair" | "poor";

/**
 * The cache health score (docs/product/admin-and-analytics.md): 30 for an active worker, 25 for cached items, 25
 * for the app's data kept on the device (the "memory cache"; here the chat history in IndexedDB), 20 online.
 */
export function healthScore(d: DeviceState): { score: number; label: HealthLabel } {
  const score =
    (d.worker === "activated" ? 30 : 0) +
    (d.caches.some((c) => c.entries > 0) ? 25 : 0) +
    ((d.chat?.messages ?? 0) > 0 ? 25 : 0) +
    (d.online ? 20 : 0);
  const label = score >= 80 ? "excellent" : score >= 60 ? "good" : score >= 40 ? "fair" : "poor";
  return { score, label };
}

/** Deletes every cache this browser keeps for LinkUp; the worker fetches what it needs again. */
export async function clearCaches(): Promise<number> {
  const names = await caches.keys();
  await Promise.all(names.map((n) => caches.delete(n)));
  return names.length;
}

/**
 * Sends what waits in the outbox now: the tab's mesh node (made here if the chat has not made one) opens each
 * chat that has something waiting, which resumes and flushes it; resolves with how many are still waiting once
 * the outbox is empty or `waitMs` has passed.
 */
export async function syncNow(me: Me, waitMs = 15_000): Promise<number> {
  const [{ meshNode }, db] = await Promise.all([import("../../mesh/tab-node"), import("../../mesh/db")]);
  const node = meshNode(me);
  const rooms = new Set((await db.outboxFor()).map((i) => i.room));
  await Promise.all([...rooms].map((room) => node.open(room)));
  await node.flush();
  const until = Date.now() + waitMs;
  let left = (await db.outboxFor()).length;
  while (left > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 300));
    left = (await db.outboxFor()).length;
  }
  return left;
}

/** Bytes in the largest unit that keeps the number readable, in the page's language. */
export function formatBytes(n: number, tag: string): string {
  const units = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return new Intl.NumberFormat(tag, { style: "unit", unit: units[i], unitDisplay: "short", maximumFractionDigits: i === 0 ? 0 : 1 }).format(
    n,
  );
}
