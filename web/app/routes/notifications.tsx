import { useEffect, useRef } from "react";
import { Form, Link, useFetcher, useRevalidator } from "react-router";
import { badgeText, EMERGENCY_NUMBERS } from "../../../core/constants";
import type { MessageKey } from "../../../core/i18n/en";
import { formatAgo } from "../../../core/i18n/translate";
import { type NotificationPrefs, type NotificationView, PREF_LABELS } from "../../../core/sos";
import { useToast } from "../components/toast";
import { type NotificationsActionData, loadNotifications, notificationsAction } from "../features/notifications/notifications.server";
import { PushToggle } from "../features/notifications/push-toggle";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "nt.meta", "Notifications — LinkUp") }];

export function loader({ context }: Route.LoaderArgs) {
  return loadNotifications(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return notificationsAction(request, context);
}

const PREF_KEYS: Record<keyof typeof PREF_LABELS, MessageKey> = {
  messages: "nt.pref.messages",
  emergencyAlerts: "nt.pref.emergencyAlerts",
  systemUpdates: "nt.pref.systemUpdates",
  aiInsights: "nt.pref.aiInsights",
  securityAlerts: "nt.pref.securityAlerts",
  marketUpdates: "nt.pref.marketUpdates",
  quietHours: "nt.pref.quietHours",
};

const REFRESH_MS = 30_000;

/** New notifications appear without a reload: on a push (the service worker tells open pages) and every 30 s. */
function useLiveRefresh() {
  const revalidator = useRevalidator();
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    };
    const timer = setInterval(refresh, REFRESH_MS);
    const onMessage = (e: MessageEvent) => {
      if ((e.data as { type?: string } | null)?.type === "push") refresh();
    };
    navigator.serviceWorker?.addEventListener("message", onMessage);
    return () => {
      clearInterval(timer);
      navigator.serviceWorker?.removeEventListener("message", onMessage);
    };
  }, [revalidator]);
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { user, notifications, stats, prefs } = loaderData;
  useLiveRefresh();
  const t = useT();
  if (!user) {
    return (
      <section className="card">
        <h1>{t("nt.title")}</h1>
        <p>{t("nt.signedOut")}</p>
        <Link to="/signup-verification" className="btn btn-primary">
          {t("nt.start")}
        </Link>
      </section>
    );
  }
  const unread = stats?.unread ?? notifications.filter((n) => !n.isRead).length;
  return (
    <div className="notifications">
      <section className="card">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1>
            {t("nt.title")}{" "}
            {unread > 0 ? (
              <span className="inline-block rounded-full bg-danger px-2 py-[0.1rem] align-middle text-caption text-white">
                {badgeText(unread)}
                <span className="sr-only">{t("nt.unread")}</span>
              </span>
            ) : null}
          </h1>
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <button type="submit" className="btn" disabled={unread === 0}>
              {t("nt.markAllRead")}
            </button>
          </Form>
        </div>
        {notifications.length === 0 ? (
          <p>{t("nt.none")}</p>
        ) : (
          <ul className="m-0 list-none p-0" aria-label={t("nt.list")}>
            {notifications.map((n) => (
              <NotificationItem key={n.id} n={n} />
            ))}
          </ul>
        )}
      </section>
      {stats ? (
        <section className="card" aria-labelledby="stats-title">
          <h2 id="stats-title">{t("nt.stats")}</h2>
          <div className="grid grid-cols-[repeat(4,1fr)] gap-3 narrow:grid-cols-[1fr_1fr] [&>p]:col-span-full [&>p]:m-0">
            <div className="stat">
              <strong>{stats.total}</strong>
              <span>{t("nt.total")}</span>
            </div>
            <div className="stat">
              <strong>{stats.unread}</strong>
              <span>{t("nt.unreadStat")}</span>
            </div>
            <div className="stat">
              <strong>{stats.emergency}</strong>
              <span>{t("nt.emergencyStat")}</span>
            </div>
            <div className="stat">
              <strong>{stats.today}</strong>
              <span>{t("nt.today")}</span>
            </div>
          </div>
        </section>
      ) : null}
      <section className="card" aria-labelledby="push-title">
        <h2 id="push-title">{t("nt.push")}</h2>
        <PushToggle />
      </section>
      {prefs ? <Preferences prefs={prefs} /> : null}
    </div>
  );
}

function NotificationItem({ n }: { n: NotificationView }) {
  const fetcher = useFetcher<NotificationsActionData>();
  const t = useT();
  const deleting = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "delete";
  const read = n.isRead || (fetcher.formData?.get("intent") === "read" && fetcher.state !== "idle");
  if (deleting) return null;
  const markRead = () => {
    if (!n.isRead) fetcher.submit({ intent: "read", id: n.id }, { method: "post" });
  };
  const showAction = n.actionRequired || n.type === "emergency" || n.type === "ai" || Boolean(n.url);
  return (
    <li
      className={`notification border-t border-line py-[0.6rem] [&_p]:my-[0.2rem] ${read ? "is-read" : "is-unread bg-unread-tint"} ${n.priority === "critical" ? "border-s-3 border-s-danger ps-2" : ""}`}
    >
      <div>
        <p>
          {read ? null : <span className="inline-block size-[0.6rem] rounded-full bg-ok" aria-hidden="true" />} <strong>{n.title}</strong>{" "}
          {/* The type and priority are the server's filing words ("system high", issue 32): the title says what it
              is; only what needs attention soon is marked, in words a person uses. */}
          {n.priority === "critical" || n.priority === "high" ? <span className="tag">{t("nt.urgent")}</span> : null}
          {read ? null : <span className="sr-only">{t("nt.unreadItem")}</span>}
        </p>
        <p>{n.content}</p>
        <p className="text-sm text-muted">
          <time dateTime={n.timestamp} suppressHydrationWarning>
            {formatAgo(Date.parse(n.timestamp), t.tag)}
          </time>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {showAction ? (
          n.type === "emergency" ? (
            // The real emergency response: the phone's dialer with the national emergency number. It opens the
            // dialer and says so; it does not claim that anyone was contacted.
            <a href={`tel:${EMERGENCY_NUMBERS[0]}`} className="btn btn-danger" onClick={markRead}>
              {t("nt.call", { number: EMERGENCY_NUMBERS[0] })}
            </a>
          ) : (
            <Link to={n.url ?? "/notifications"} className="btn" onClick={markRead}>
              {t("nt.action")}
            </Link>
          )
        ) : null}
        {read ? null : (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="read" />
            <input type="hidden" name="id" value={n.id} />
            <button type="submit" className="btn btn-ghost" aria-label={t("nt.markReadLabel", { title: n.title })}>
              {t("nt.markRead")}
            </button>
          </fetcher.Form>
        )}
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={n.id} />
          <button type="submit" className="btn btn-ghost" aria-label={t("nt.deleteLabel", { title: n.title })}>
            {t("nt.delete")}
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}

function Preferences({ prefs }: { prefs: NotificationPrefs }) {
  const fetcher = useFetcher<NotificationsActionData>();
  const toast = useToast();
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const last = useRef<NotificationsActionData | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === last.current) return;
    last.current = fetcher.data;
    if (fetcher.data.ok) toast({ title: t("nt.savedTitle"), description: t("nt.savedBody"), variant: "success" });
    else toast({ title: t("nt.notSaved"), description: t.error(fetcher.data.error), variant: "destructive" });
  }, [fetcher.state, fetcher.data, toast, t]);
  // Each change is saved at once (with JS); the Save button serves browsers without it.
  const save = () => {
    if (formRef.current) fetcher.submit(formRef.current, { method: "post" });
  };
  return (
    <section className="card" aria-labelledby="prefs-title">
      <h2 id="prefs-title">{t("nt.settings")}</h2>
      <fetcher.Form method="post" ref={formRef} className="form" onChange={save}>
        <input type="hidden" name="intent" value="prefs" />
        {(Object.keys(PREF_LABELS) as (keyof typeof PREF_LABELS)[]).map((key) => (
          <label key={key} className="inline-flex items-center gap-[0.35rem] font-normal">
            <input type="checkbox" name={key} defaultChecked={prefs[key]} /> {t(PREF_KEYS[key])}
          </label>
        ))}
        <p className="text-sm text-muted">{t("nt.quietHint")}</p>
        <div className="grid grid-cols-[repeat(auto-fit,minmax(9rem,1fr))] gap-3 [&_input]:w-full [&_input]:min-w-0">
          <label>
            {t("nt.quietStart")}
            <input type="time" name="quietStart" defaultValue={prefs.quietStart} required />
          </label>
          <label>
            {t("nt.quietEnd")}
            <input type="time" name="quietEnd" defaultValue={prefs.quietEnd} required />
          </label>
        </div>
        <button type="submit" className="btn">
          {t("nt.save")}
        </button>
      </fetcher.Form>
    </section>
  );
}
