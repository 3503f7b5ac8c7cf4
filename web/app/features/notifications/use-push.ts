// Web Push subscription from the browser: the service worker at /sw.js receives pushes and shows them.
import { useCallback, useEffect, useState } from "react";
import { fromBase64Url } from "../../../../core/ids";
import type { Said } from "../../i18n/refusal";
import { HttpError } from "../../../../core/http";

export type PushState = "checking" | "unsupported" | "unconfigured" | "denied" | "subscribed" | "unsubscribed" | "working";

async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (!existing) await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

export function usePush(vapidPublicKey: string) {
  const [state, setState] = useState<PushState>("checking");
  const [error, setError] = useState<Said>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return setState("unsupported");
    if (!vapidPublicKey) return setState("unconfigured");
    if (Notification.permission === "denied") return setState("denied");
    navigator.serviceWorker
      .getRegistration("/")
      .then((reg) => reg?.pushManager.getSubscription())
      .then((sub) => setState(sub ? "subscribed" : "unsubscribed"))
      .catch(() => setState("unsubscribed"));
  }, [vapidPublicKey]);

  const subscribe = useCallback(async () => {
    setError(null);
    setState("working");
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "denied" : "unsubscribed");
        return false;
      }
      const reg = await registration();
      const sub =
        (await reg.pushManager.getSubscription()) ??
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(vapidPublicKey) }));
      const res = await fetch("/api/push/subscribe", {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(sub.toJSON()),
      });
      // A refusal keeps its body, so the screen says it by its code (web/app/i18n/refusal.ts).
      if (!res.ok) throw new HttpError(res.status, await res.text());
      setState("subscribed");
      return true;
    } catch (e) {
      setError(e instanceof Error ? e : String(e));
      setState("unsubscribed");
      return false;
    }
  }, [vapidPublicKey]);

  const unsubscribe = useCallback(async () => {
    setError(null);
    setState("working");
    try {
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        await fetch("/api/push/subscribe", {
          method: "DELETE",
          credentials: "include",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ endpoint: sub.endpoint }),
        });
        await sub.unsubscribe();
      }
      setState("unsubscribed");
      return true;
    } catch (e) {
      setError(e instanceof Error ? e : String(e));
      setState("subscribed");
      return false;
    }
  }, []);

  return { state, error, subscribe, unsubscribe };
}
