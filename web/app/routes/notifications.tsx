import { useEffect, useRef } from "react";
import { Form, Link, useFetcher, useRevalidator } from "react-router";
import { badgeText, EMERGENCY_NUMBERS } from "../../../core/constants";
import { type NotificationPrefs, type NotificationView, PREF_LABELS, timeAgo } from "../../../core/sos";
import { useToast } from "../components/toast";
import { type NotificationsActionData, loadNotifications, notificationsAction } from "../features/notifications/notifications.server";
import { PushToggle } from "../features/notifications/PushToggle";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = () => [{ title: "Notifications — LinkUp" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadNotifications(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return notificationsAction(request, context);
}

const TOASTS = {
  settings: { title: "Settings Updated", description: "Notification preferences saved successfully.", variant: "success" as const },
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
  if (!user) {
    return (
      <section className="card">
        <h1>Notifications</h1>
        <p>Notifications arrive once you have started LinkUp: SOS alerts near you, messages, security and system notices.</p>
        <Link to="/signup-verification" className="btn btn-primary">
          Start LinkUp
        </Link>
      </section>
    );
  }
  const unread = stats?.unread ?? notifications.filter((n) => !n.isRead).length;
  return (
    <div className="notifications">
      <section className="card">
        <div className="list-head">
          <h1>
            Notifications{" "}
            {unread > 0 ? (
              <span className="count-badge">
                {badgeText(unread)}
                <span className="sr-only"> unread</span>
              </span>
            ) : null}
          </h1>
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <button type="submit" className="btn" disabled={unread === 0}>
              Mark All Read
            </button>
          </Form>
        </div>
        {notifications.length === 0 ? (
          <p>No notifications yet.</p>
        ) : (
          <ul className="notification-list" aria-label="Notification list">
            {notifications.map((n) => (
              <NotificationItem key={n.id} n={n} />
            ))}
          </ul>
        )}
      </section>
      {stats ? (
        <section className="card" aria-labelledby="stats-title">
          <h2 id="stats-title">Stats</h2>
          <div className="stats">
            <div className="stat">
              <strong>{stats.total}</strong>
              <span>Total</span>
            </div>
            <div className="stat">
              <strong>{stats.unread}</strong>
              <span>Unread</span>
            </div>
            <div className="stat">
              <strong>{stats.emergency}</strong>
              <span>Emergency</span>
            </div>
            <div className="stat">
              <strong>{stats.today}</strong>
              <span>Today</span>
            </div>
          </div>
        </section>
      ) : null}
      <section className="card" aria-labelledby="push-title">
        <h2 id="push-title">Push notifications</h2>
        <PushToggle />
      </section>
      {prefs ? <Preferences prefs={prefs} /> : null}
    </div>
  );
}

function NotificationItem({ n }: { n: NotificationView }) {
  const fetcher = useFetcher<NotificationsActionData>();
  const deleting = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "delete";
  const read = n.isRead || (fetcher.formData?.get("intent") === "read" && fetcher.state !== "idle");
  if (deleting) return null;
  const markRead = () => {
    if (!n.isRead) fetcher.submit({ intent: "read", id: n.id }, { method: "post" });
  };
  const showAction = n.actionRequired || n.type === "emergency" || n.type === "ai" || Boolean(n.url);
  return (
    <li className={`notification ${read ? "is-read" : "is-unread"} priority-${n.priority}`}>
      <div>
        <p>
          {read ? null : <span className="dot dot-on" aria-hidden="true" />} <strong>{n.title}</strong>{" "}
          <span className="tag">{n.type}</span> <span className="tag">{n.priority}</span>
          {read ? null : <span className="sr-only"> (unread)</span>}
        </p>
        <p>{n.content}</p>
        <p className="small muted">
          <time dateTime={n.timestamp} suppressHydrationWarning>
            {timeAgo(n.timestamp)}
          </time>{" "}
          · {n.source}
        </p>
      </div>
      <div className="row">
        {showAction ? (
          n.type === "emergency" ? (
            // The real emergency response: the phone's dialer with the national emergency number. It opens the
            // dialer and says so; it does not claim that anyone was contacted.
            <a href={`tel:${EMERGENCY_NUMBERS[0]}`} className="btn btn-danger" onClick={markRead}>
              Call {EMERGENCY_NUMBERS[0]}
            </a>
          ) : (
            <Link to={n.url ?? "/notifications"} className="btn" onClick={markRead}>
              Action
            </Link>
          )
        ) : null}
        {read ? null : (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="read" />
            <input type="hidden" name="id" value={n.id} />
            <button type="submit" className="btn btn-ghost" aria-label={`Mark read: ${n.title}`}>
              Mark read
            </button>
          </fetcher.Form>
        )}
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={n.id} />
          <button type="submit" className="btn btn-ghost" aria-label={`Delete: ${n.title}`}>
            Delete
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}

function Preferences({ prefs }: { prefs: NotificationPrefs }) {
  const fetcher = useFetcher<NotificationsActionData>();
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const last = useRef<NotificationsActionData | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === last.current) return;
    last.current = fetcher.data;
    if (fetcher.data.ok) toast(TOASTS.settings);
    else toast({ title: "Settings not saved", description: fetcher.data.error, variant: "destructive" });
  }, [fetcher.state, fetcher.data, toast]);
  // Each change is saved at once (with JS); the Save button serves browsers without it.
  const save = () => {
    if (formRef.current) fetcher.submit(formRef.current, { method: "post" });
  };
  return (
    <section className="card" aria-labelledby="prefs-title">
      <h2 id="prefs-title">Notification settings</h2>
      <fetcher.Form method="post" ref={formRef} className="form" onChange={save}>
        <input type="hidden" name="intent" value="prefs" />
        {(Object.keys(PREF_LABELS) as (keyof typeof PREF_LABELS)[]).map((key) => (
          <label key={key} className="toggle">
            <input type="checkbox" name={key} defaultChecked={prefs[key]} /> {PREF_LABELS[key]}
          </label>
        ))}
        <p className="small muted">Quiet hours hold back every push except emergencies (times in WAT).</p>
        <div className="pair">
          <label>
            Quiet hours start
            <input type="time" name="quietStart" defaultValue={prefs.quietStart} required />
          </label>
          <label>
            Quiet hours end
            <input type="time" name="quietEnd" defaultValue={prefs.quietEnd} required />
          </label>
        </div>
        <button type="submit" className="btn">
          Save settings
        </button>
      </fetcher.Form>
    </section>
  );
}
