// The app shell of spec part 1 §2: header, mobile menu, top status bar and bottom navigation.
import { Bell, Bot, type LucideIcon, Menu, MessageCircle, Radio, Settings, ShieldCheck, Siren, Waypoints } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link, NavLink } from "react-router";
import { badgeText } from "../../../core/constants";
import { selectDbUser, storedUnread } from "../mesh/db";
import { currentMeshNode, onMeshNode } from "../mesh/current";
import type { MeshNode } from "../mesh/node";

const DESKTOP_LINKS = [
  { to: "/pricing", label: "Premium" },
  { to: "/features", label: "Features" },
  { to: "/chat", label: "Chat" },
  { to: "/ai-features", label: "AI Features" },
  { to: "/about", label: "About" },
  { to: "/social-good", label: "Social Good" },
];

const MOBILE_MENU = [
  { to: "/chat", label: "Chat" },
  { to: "/mobile-demo", label: "Mobile Demo" },
  { to: "/pricing", label: "Premium" },
  { to: "/ai-features", label: "AI Features" },
  { to: "/machine-learning", label: "Machine Learning" },
  { to: "/faq", label: "FAQ" },
  { to: "/gamification", label: "Rewards" },
  { to: "/notifications", label: "Smart Notifications" },
  { to: "/features", label: "Features" },
  { to: "/about", label: "About" },
  { to: "/social-good", label: "Social Good" },
  { to: "/testimonials", label: "Stories" },
  { to: "/emergency", label: "SOS" },
  { to: "/mesh-network", label: "Network" },
  { to: "/security", label: "Security" },
  { to: "/settings", label: "Settings" },
  { to: "/support", label: "AI Support" },
  { to: "/blog", label: "Blog" },
];

/** The notification centre's way in, now that the bottom navigation's fourth tab is the security centre. */
function BellLink({ unread }: { unread: number }) {
  return (
    <Link to="/notifications" className="btn btn-ghost bell-link">
      <Bell aria-hidden="true" size={20} />
      <span className="sr-only">Notifications</span>
      {unread > 0 ? (
        <span className="badge">
          {badgeText(unread)}
          <span className="sr-only"> unread</span>
        </span>
      ) : null}
    </Link>
  );
}

export function Header({ unread = 0 }: { unread?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <header className="site-header">
      <div className="header-row">
        <Link to="/" className="logo" aria-label="LinkUp home">
          <Radio aria-hidden="true" size={22} /> LinkUp
        </Link>
        <nav className="desktop-nav" aria-label="Main">
          {DESKTOP_LINKS.map((l) => (
            <Link key={l.to} to={l.to} className="btn btn-ghost">
              {l.label}
            </Link>
          ))}
          <Link to="/emergency" className="btn btn-danger">
            SOS
          </Link>
          <Link to="/signup" className="btn btn-primary">
            Join Free
          </Link>
        </nav>
        <BellLink unread={unread} />
        {/* A <details> menu opens without JavaScript; React keeps its state once hydrated. */}
        <details className="mobile-menu" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary className="btn btn-ghost" aria-label="Menu">
            <Menu aria-hidden="true" size={22} />
          </summary>
          <nav aria-label="Mobile" className="mobile-grid">
            {MOBILE_MENU.map((l) => (
              <Link key={l.label} to={l.to} onClick={() => setOpen(false)}>
                {l.label}
              </Link>
            ))}
            <Link to="/signup" className="btn btn-primary join" onClick={() => setOpen(false)}>
              Join Free
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
  const [node, setNode] = useState<MeshNode | null>(null);
  useEffect(() => {
    setNode(currentMeshNode());
    return onMeshNode(() => setNode(currentMeshNode()));
  }, []);
  useSyncExternalStore(
    node?.subscribe ?? noopSubscribe,
    () => node?.version ?? 0,
    () => 0,
  );
  // A fresh page load off /chat has no node yet: count what this device already holds.
  const [stored, setStored] = useState(0);
  useEffect(() => {
    if (!userId || node) return;
    selectDbUser(userId);
    storedUnread()
      .then(setStored)
      .catch(() => {});
  }, [userId, node]);
  const mine = node && node.me.id === userId ? node : null;
  return { node: mine, unread: mine ? mine.unreadTotal() : userId ? stored : 0, summary: mine?.summary() ?? null };
}

const noopSubscribe = () => () => {};

function useOnline() {
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
export function StatusBar({ summary }: { summary: ReturnType<MeshNode["summary"]> | null }) {
  const online = useOnline();
  const [battery, setBattery] = useState<number | null>(null);
  useEffect(() => {
    const nav = navigator as Navigator & { getBattery?: () => Promise<{ level: number }> };
    nav
      .getBattery?.()
      .then((b) => setBattery(Math.round(b.level * 100)))
      .catch(() => {});
  }, []);
  const on = summary ? summary.relay !== "closed" : online === true;
  const connection = summary
    ? summary.relay === "open"
      ? "Relay connected"
      : summary.relay === "via-tab"
        ? "Relay via another tab"
        : "Relay not connected"
    : online === null
      ? null
      : online
        ? "Online"
        : "Offline: no internet connection";
  return (
    <div className="status-bar" role="status" aria-label="Device status">
      {connection ? (
        <span>
          <span className={`dot ${on ? "dot-on" : "dot-off"}`} aria-hidden="true" /> {connection}
        </span>
      ) : null}
      {summary?.people != null ? <span>{summary.people === 1 ? "1 person here" : `${summary.people} people here`}</span> : null}
      {summary && summary.pending > 0 ? (
        <span>{summary.pending === 1 ? "1 message waiting to send" : `${summary.pending} messages waiting to send`}</span>
      ) : null}
      {battery === null ? null : <span>Battery {battery}%</span>}
    </div>
  );
}

/** The status strip and the bottom navigation, both fed by the tab's mesh node. */
export function DeviceShell({ userId, children }: { userId: string | null; children: ReactNode }) {
  const { unread, summary } = useMeshSummary(userId);
  return (
    <>
      <StatusBar summary={summary} />
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
  const items = [
    { to: "/chat", label: "Chat", badge: unread, unit: ["unread message", "unread messages"] },
    { to: "/mesh-network", label: "Mesh", badge: people, unit: ["person here", "people here"] },
    { to: "/ai-features", label: "AI", badge: 0, unit: ["", ""] },
    { to: "/security-settings", label: "Security", badge: 0, unit: ["", ""] },
    { to: "/settings", label: "Settings", badge: 0, unit: ["", ""] },
  ];
  const nav = useRef<HTMLElement>(null);
  useViewportInsets(nav);
  return (
    <nav className="bottom-nav" aria-label="Bottom navigation" ref={nav}>
      {items.map((i) => (
        <NavLink key={i.to} to={i.to} className="bottom-item">
          <NavIcon to={i.to} />
          <span>{i.label}</span>
          {i.badge > 0 ? (
            <span className="badge">
              {badgeText(i.badge)}
              <span className="sr-only"> {i.unit[i.badge === 1 ? 0 : 1]}</span>
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
