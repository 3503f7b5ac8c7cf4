// Subscribe or unsubscribe this browser to Web Push. Used on /notifications and in /settings.
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import { useRootData } from "../../root";
import { usePush } from "./use-push";

export function PushToggle() {
  const root = useRootData();
  const { state, error, subscribe, unsubscribe } = usePush(root?.env.VAPID_PUBLIC_KEY ?? "");
  const toast = useToast();
  const t = useT();
  const text: Record<typeof state, string> = {
    checking: t("nt.push.checking"),
    unsupported: t("nt.push.unsupported"),
    unconfigured: t("nt.push.unconfigured"),
    denied: t("nt.push.denied"),
    subscribed: t("nt.push.subscribed"),
    unsubscribed: t("nt.push.unsubscribed"),
    working: t("nt.push.working"),
  };
  return (
    <div className="push-toggle">
      <p aria-live="polite">{text[state]}</p>
      {error ? (
        <p className="text-danger" role="alert">
          {t.error(error)}
        </p>
      ) : null}
      {state === "subscribed" ? (
        <button
          type="button"
          className="btn"
          onClick={async () => {
            if (await unsubscribe()) toast({ title: t("nt.push.offTitle"), description: t("nt.push.offBody") });
          }}
        >
          {t("nt.push.turnOff")}
        </button>
      ) : state === "unsubscribed" || state === "working" ? (
        <button
          type="button"
          className="btn btn-primary"
          disabled={state === "working"}
          onClick={async () => {
            if (await subscribe()) toast({ title: t("nt.push.onTitle"), description: t("nt.push.onBody"), variant: "success" });
          }}
        >
          {t("nt.push.enable")}
        </button>
      ) : null}
      <noscript>
        <p>{t("nt.push.needsJs")}</p>
      </noscript>
    </div>
  );
}

/** The /settings section (features/identity/settings-sections.tsx). */
export function PushSection() {
  return <PushToggle />;
}
