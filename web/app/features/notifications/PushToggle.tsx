// Subscribe or unsubscribe this browser to Web Push. Used on /notifications and in /settings.
import { useToast } from "../../components/toast";
import { useRootData } from "../../root";
import { usePush } from "./use-push";

export function PushToggle() {
  const root = useRootData();
  const { state, error, subscribe, unsubscribe } = usePush(root?.env.VAPID_PUBLIC_KEY ?? "");
  const toast = useToast();
  const text: Record<typeof state, string> = {
    checking: "Checking this browser…",
    unsupported: "This browser cannot receive push notifications. Alerts still appear under Notifications.",
    unconfigured: "Push notifications are not configured on this server.",
    denied: "Notifications are blocked for LinkUp in this browser's settings. Allow them there to get push alerts.",
    subscribed: "Push notifications are on for this browser: SOS near you arrive even when LinkUp is closed.",
    unsubscribed: "Get SOS alerts near you, messages and security notices even when LinkUp is closed.",
    working: "Working…",
  };
  return (
    <div className="push-toggle">
      <p aria-live="polite">{text[state]}</p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {state === "subscribed" ? (
        <button
          type="button"
          className="btn"
          onClick={async () => {
            if (await unsubscribe())
              toast({ title: "Push notifications off", description: "This browser will no longer get push alerts." });
          }}
        >
          Turn off push notifications
        </button>
      ) : state === "unsubscribed" || state === "working" ? (
        <button
          type="button"
          className="btn btn-primary"
          disabled={state === "working"}
          onClick={async () => {
            if (await subscribe())
              toast({ title: "Push notifications on", description: "You will get alerts on this device.", variant: "success" });
          }}
        >
          Enable push notifications
        </button>
      ) : null}
      <noscript>
        <p>Push notifications need JavaScript.</p>
      </noscript>
    </div>
  );
}

/** The /settings section (features/identity/settings-sections.tsx). */
export function PushSection() {
  return <PushToggle />;
}
