// Repeat visits paint from the device (docs/decisions/078-each-page-carries-its-own-words.md): the offline worker
// (web/public/sw.js) answers a visit to /, /chat or /emergency with the page it kept, at once, when it was made for
// the person signed in now, and fetches a fresh copy for next time. This side of it: the page tells the worker who
// is signed in, and a page that came from the device asks the server for its data again as soon as it runs online.
import { useEffect } from "react";
import { useLocation, useRevalidator } from "react-router";

/** The document answer's header naming whose page it is (the person's id; empty without a session). */
export const PAGE_OWNER_HEADER = "x-linkup-page-owner";
/** The Server-Timing entry the worker adds to a page it answered from its cache. */
export const DEVICE_SERVED_TIMING = "linkup-device";

/** Whether this page's document came from the offline worker's cache rather than the network. */
export function servedFromDevice(): boolean {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return nav?.serverTiming?.some((e) => e.name === DEVICE_SERVED_TIMING) ?? false;
}

export function useDeviceServedPage(userId: string | null, rootData: unknown) {
  const revalidator = useRevalidator();
  const location = useLocation();
  // Told on every page and after every change of the visitor's data: the worker forgets who is signed in on any
  // request that may change it (a sign-in, a sign-out), and paints no kept page until a page says so again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new entry and each revalidation tells again
  useEffect(() => {
    navigator.serviceWorker?.ready.then((reg) => reg.active?.postMessage({ type: "session", who: userId ?? "" })).catch(() => {});
  }, [userId, location.key, rootData]);
  // A kept page asks for fresh data at once when there is a network. Offline it stays as kept: a data request
  // then, or at the moment the network comes back (when the browser's "online" can run ahead of a usable
  // connection), would fail into the error screen and take the chat down with it; the chat's own connection brings
  // what is new, and the next visit brings a fresh page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the document this page came in
  useEffect(() => {
    if (servedFromDevice() && navigator.onLine) revalidator.revalidate();
  }, []);
}
