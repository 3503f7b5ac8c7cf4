// The app shell (docs/product/screens.md): header, mobile menu, top status bar and bottom navigation.
import { Bell, Bot, type LucideIcon, Menu, MessageCircle, Radio, Settings, ShieldCheck, Siren, Waypoints } from "lucide-react";
import { SosAlert } from "../features/sos/sos-alert";
import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link, NavLink } from "react-router";
import { badgeText } from "../../../core/constants";
import { useCurrentMeshNode } from "../mesh/current";
import type { MeshNode } from "../mesh/node";
import type { MessageKey } from "../../../core/i18n/en";
import type { SosBanner } from "../../../core/sos";
import { useT } from "../i18n";

const DESKTOP_LINKS = [
  { to: "/pricing", label: "shell.link.premium" },
  { to: "/features", label: "shell.link.features" },
  { to: "/chat", label: "shell.link.chat" },
  { to: "/ai-features", label: "shell.link.aiFeatures" },
  { to: "/about", label: "shell.link.about" },
  { to: "/social-good", label: "shell.link.socialGood" },
] satisfies { to: string; label: MessageKey }[];

const MOBILE_MENU = [
  { to: "/chat", label: "shell.link.chat" },
  { to: "/voice-calling", label: "shell.link.voiceCalls" },
  { to: "/mobile-demo", label: "shell.link.mobileDemo" },
  { to: "/pricing", label: "shell.link.premium" },
  { to: "/ai-features", label: "shell.link.aiFeatures" },
  { to: "/machine-learning", label: "shell.link.machineLearning" },
  { to: "/faq", label: "shell.link.faq" },
  { to: "/gamification", label: "shell.link.rewards" },
  { to: "/market-prices", label: "shell.link.marketPrices" },
  { to: "/notifications", label: "shell.link.smartNotifications" },
  { to: "/features", label: "shell.link.features" },
  { to: "/about", label: "shell.link.about" },
  { to: "/social-good", label: "shell.link.socialGood" },
  { to: "/testimonials", label: "shell.link.stories" },
  { to: "/emergency", label: "shell.link.sos" },
  { to: "/mesh-network", label: "shell.link.network" },
  { to: "/security", label: "shell.link.security" },
  { to: "/settings", label: "shell.link.settings" },
  { to: "/support", label: "shell.link.aiSupport" },
  { to: "/blog", label: "shell.link.blog" },
] satisfies { to: string; label: MessageKey }[];

/** The notification centre's way in, now that the bottom navigation's fourth tab is the security centre. */
function BellLink({ unread }: { unread: number }) {
  const t = useT();
  return (
    <Link to="/notifications" className="btn btn-ghost relative ms-auto min-h-touch min-w-touch">
      <Bell aria-hidden="true" size={20} />
      <span className="sr-only">{t("shell.notifications")}</span>
      {unread > 0 ? (
        <span className="absolute -top-[0.2rem] -end-[0.6rem] rounded-full bg-danger px-[0.35rem] text-2xs text-white">
          {badgeText(unread)}
          <span className="sr-only">{t("shell.unread")}</span>
        </span>
      ) : null}
    </Link>
  );
}

export function Header({ unread = 0 }: { unread?: number }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  return (
    <header className="site-header sticky top-0 z-20 border-b border-line bg-card">
      <div className="mx-auto flex max-w-[1100px] items-center justify-between gap-2 px-4 py-2">
        <Link
          to="/"
          className="inline-flex min-h-touch items-center gap-[0.35rem] text-lg font-bold text-primary no-underline"
          aria-label={t("shell.home")}
        >
          <Radio aria-hidden="true" size={22} /> LinkUp
        </Link>
        <nav className="flex flex-wrap gap-1 narrow:hidden" aria-label={t("shell.nav.main")}>
          {DESKTOP_LINKS.map((l) => (
            <Link key={l.to} to={l.to} className="btn btn-ghost">
              {t(l.label)}
            </Link>
          ))}
          <Link to="/emergency" className="btn btn-danger">
            {t("shell.link.sos")}
          </Link>
          <Link to="/signup" className="btn btn-primary">
            {t("shell.joinFree")}
          </Link>
        </nav>
        <BellLink unread={unread} />
        {/* A <details> menu opens without JavaScript; React keeps its state once hydrated. */}
        <details className="relative hidden narrow:block" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary className="btn btn-ghost list-none [&::-webkit-details-marker]:hidden" aria-label={t("shell.menu")}>
            <Menu aria-hidden="true" size={22} />
          </summary>
          <nav
            aria-label={t("shell.nav.mobile")}
            className="absolute top-11 right-0 grid w-[min(92vw,380px)] grid-cols-[repeat(3,1fr)] gap-2 rounded-xl border border-line bg-card p-3 [box-shadow:var(--shadow-menu)]"
          >
            {MOBILE_MENU.map((l) => (
              <Link
                key={l.label}
                to={l.to}
                className="flex min-h-touch items-center justify-center rounded-md bg-bg p-2 text-center text-sm text-fg no-underline"
                onClick={() => setOpen(false)}
              >
                {t(l.label)}
              </Link>
            ))}
            <Link to="/signup" className="btn btn-primary col-span-full p-2 text-center text-sm text-white" onClick={() => setOpen(false)}>
              {t("shell.joinFree")}
            </Link>
          </nav>
        </details>
      </div>
    </header>
  );
}

/**
 * The tab's mesh node as the chat made it (null before the chat opens in this tab, and for visitors), with
 * re-renders on every change, plus the unread count kept on this device for a tab that has no node yet.
 */
function useMeshSummary(userId: string | null) {
  const node = useCurrentMeshNode();
  useSyncExternalStore(
    node?.subscribe ?? noopSubscribe,
    () => node?.version ?? 0,
    () => 0,
  );
  // A fresh page load off /chat has no node yet: count what this device already holds.
  const [stored, setStored] = useState(0);
  useEffect(() => {
    if (!userId || node) return;
    // Loaded after the first render: the history store is not part of every page's first load.
    import("../mesh/db")
      .then(({ selectDbUser, storedUnread }) => {
        selectDbUser(userId);
        return storedUnread();
      })
      .then(setStored)
      .catch(() => {});
  }, [userId, node]);
  const mine = node && node.me.id === userId ? node : null;
  return { node: mine, unread: mine ? mine.unreadTotal() : userId ? stored : 0, summary: mine?.summary() ?? null };
}

const noopSubscribe = () => () => {};

/** The browser's own online state: null until the page's JavaScript has asked. */
export function useOnline() {
  // null until the page's JavaScript has asked the browser: the server cannot know.
  const [online, setOnline] = useState<boolean | null>(null);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/**
 * Top bar: only what is true. In the chat, the relay of the room on screen, the people in it and what waits in
 * the outbox (from the tab's mesh node); elsewhere, the browser's own online state. Battery only where the
 * browser reports it; no signal figure, since browsers report none.
 */
export function StatusBar({ summary: given }: { summary: ReturnType<MeshNode["summary"]> | null }) {
  // No room open yet (no area chosen): the browser's own online state is what is true.
  const summary = given?.relay === "none" ? null : given;
  const online = useOnline();
  const t = useT();
  const [battery, setBattery] = useState<number | null>(null);
  useEffect(() => {
    const nav = navigator as Navigator & { getBattery?: () => Promise<{ level: number }> };
    nav
      .getBattery?.()
      .then((b) => setBattery(Math.round(b.level * 100)))
      .catch(() => {});
  }, []);
  const on = summary ? summary.relay === "open" || summary.relay === "via-tab" : online === true;
  const connection = summary
    ? summary.relay === "open"
      ? t("status.relayConnected")
      : summary.relay === "via-tab"
        ? t("status.relayViaTab")
        : summary.relay === "connecting"
          ? t("status.relayConnecting")
          : t("status.relayClosed")
    : online === null
      ? null
      : online
        ? t("status.online")
        : t("status.offline");
  return (
    // On a short phone the chat's own status line repeats this strip, which gives its line to the messages.
    <div
      className="status-bar flex justify-center gap-4 p-1 text-caption text-muted short:[body:has(.chat)_&]:hidden"
      role="status"
      aria-label={t("status.device")}
    >
      {connection ? (
        <span>
          <span className={`inline-block size-[0.6rem] rounded-full ${on ? "bg-ok" : "bg-danger"}`} aria-hidden="true" /> {connection}
        </span>
      ) : null}
      {summary?.people != null ? <span>{t("status.people", { count: summary.people })}</span> : null}
      {summary && summary.pending > 0 ? <span>{t("status.pending", { count: summary.pending })}</span> : null}
      {battery === null ? null : <span>{t("status.battery", { percent: battery })}</span>}
    </div>
  );
}

/** The status strip and the bottom navigation, both fed by the tab's mesh node. */
export function DeviceShell({
  userId,
  sosNearby = null,
  children,
}: {
  userId: string | null;
  sosNearby?: SosBanner | null;
  children: ReactNode;
}) {
  const { node, unread, summary } = useMeshSummary(userId);
  return (
    <>
      <StatusBar summary={summary} />
      <SosAlert node={node} fromServer={sosNearby} />
      {children}
      <BottomNav unread={unread} people={summary?.people ?? 0} />
    </>
  );
}

// SVG icons (lucide, one import per icon so the bundle keeps only these) instead of emoji, which depend on the
// phone's fonts. They are decorative: each link is named by its text label.
const NAV_ICONS: Record<string, LucideIcon> = {
  "/chat": MessageCircle,
  "/mesh-network": Waypoints,
  "/ai-features": Bot,
  "/settings": Settings,
  "/security-settings": ShieldCheck,
  "/emergency": Siren,
};

function NavIcon({ to }: { to: string }) {
  const Icon = NAV_ICONS[to];
  return Icon ? <Icon aria-hidden="true" size={20} /> : null;
}

export function BottomNav({ unread, people }: { unread: number; people: number }) {
  // Each badge counts what its tab shows: unread chat messages (on this device) and the people in the room on
  // screen (the chat header's node count). Unread notifications are on the header's bell.
  const t = useT();
  const items = [
    { to: "/chat", label: t("shell.tab.chat"), badge: unread, unit: "shell.unreadMessages" },
    { to: "/mesh-network", label: t("shell.tab.mesh"), badge: people, unit: "shell.peopleHereUnit" },
    { to: "/ai-features", label: t("shell.tab.ai"), badge: 0, unit: null },
    { to: "/security-settings", label: t("shell.tab.security"), badge: 0, unit: null },
    { to: "/settings", label: t("shell.tab.settings"), badge: 0, unit: null },
  ] satisfies { to: string; label: string; badge: number; unit: MessageKey | null }[];
  const nav = useRef<HTMLElement>(null);
  useViewportInsets(nav);
  return (
    <nav
      className="bottom-nav fixed inset-x-0 bottom-0 z-20 hidden justify-around border-t border-line bg-card py-[0.15rem] narrow:flex"
      aria-label={t("shell.nav.bottom")}
      ref={nav}
    >
      {items.map((i) => (
        <NavLink
          key={i.to}
          to={i.to}
          className="relative inline-flex min-h-touch min-w-touch flex-col items-center justify-center px-2 py-[0.35rem] text-caption text-muted no-underline [&.active]:font-semibold [&.active]:text-primary"
        >
          <NavIcon to={i.to} />
          <span>{i.label}</span>
          {i.badge > 0 ? (
            <span className="absolute -top-[0.2rem] -end-[0.6rem] rounded-full bg-danger px-[0.35rem] text-2xs text-white">
              {badgeText(i.badge)}
              {i.unit ? <span className="sr-only"> {t(i.unit, { count: i.badge })}</span> : null}
            </span>
          ) : null}
        </NavLink>
      ))}
    </nav>
  );
}

/**
 * Publishes, as CSS variables on <html>, how much of the bottom of the window is taken: by the bottom navigation
 * (0 where it is hidden) and by the on-screen keyboard (the layout viewport's part that visualViewport does
 * not show). The chat's composer sits above whichever is higher.
 */
function useViewportInsets(nav: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const root = document.documentElement;
    const update = () => {
      root.style.setProperty("--bottom-nav-height", `${nav.current?.offsetHeight ?? 0}px`);
      const vv = window.visualViewport;
      const keyboard = vv ? Math.max(0, window.innerHeight - vv.height - vv.offsetTop) : 0;
      root.style.setProperty("--keyboard-inset", `${Math.round(keyboard)}px`);
    };
    update();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(update) : null;
    if (nav.current) observer?.observe(nav.current);
    window.addEventListener("resize", update);
    window.visualViewport?.addEventListener("resize", update);
    window.visualViewport?.addEventListener("scroll", update);
    return () => {
      observer?.disconnect();
      window.removeEventListener("resize", update);
      window.visualViewport?.removeEventListener("resize", update);
      window.visualViewport?.removeEventListener("scroll", update);
    };
  }, [nav]);
}
