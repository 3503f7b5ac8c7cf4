// Signing out of this browser (docs/protocol.md §7): the device's key is withdrawn on the server first, so
// no one seals messages or sender keys to it any more; then its LinkUp data goes (chats, keys, cached pages).
// The sign-out answer also carries Clear-Site-Data, which empties storage where this script cannot run.
import { currentMeshNode } from "./current";
import { selectDbUser } from "./db";
import { revokeDeviceKey } from "./keys";

export async function forgetThisDevice(userId: string): Promise<void> {
  // A live chat stops first: its sockets and key top-ups would otherwise ask for a device that is being withdrawn.
  currentMeshNode()?.destroy();
  selectDbUser(userId);
  try {
    await revokeDeviceKey();
  } catch {
    // Offline: the key stays published until this person signs out again; the data still goes below.
  }
  navigator.serviceWorker?.controller?.postMessage({ type: "clear-pages" });
  try {
    for (const key of Object.keys(localStorage))
      if (key.startsWith("linkup-") && key !== "linkup-cookies-accepted") localStorage.removeItem(key);
    if ("caches" in window) for (const name of await caches.keys()) await caches.delete(name);
  } catch {
    // Storage refused: Clear-Site-Data on the sign-out answer still empties it.
  }
  // Deleting waits for open connections (a chat tab) to close; it is not awaited for that reason.
  indexedDB.deleteDatabase(`linkup-mesh-${userId}`);
}
