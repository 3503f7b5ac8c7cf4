// The app shell of spec part 1 §2: header, mobile menu, top status bar and bottom navigation.
import { Bell, Bot, type LucideIcon, Menu, MessageCircle, Radio, Settings, ShieldCheck, Siren, Waypoints } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, NavLink } from "react-router";
import { badgeText } from "../../../core/constants";

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
  { to: "/faq", label: "FAQ" },
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

/** Top bar: mesh status from the browser's connectivity, signal and battery where the browser reports them. */
export function StatusBar() {
  const [online, setOnline] = useState(true);
  const [battery, setBattery] = useState<number | null>(null);
  const [signal, setSignal] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    const nav = navigator as Navigator & {
      getBattery?: () => Promise<{ level: number }>;
      connection?: { downlink?: number };
    };
    nav
      .getBattery?.()
      .then((b) => setBattery(Math.round(b.level * 100)))
      .catch(() => {});
    // Downlink in Mb/s mapped to a percentage: 10 Mb/s or more reads as full signal.
    if (nav.connection?.downlink !== undefined) setSignal(Math.min(100, Math.round(nav.connection.downlink * 10)));
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return (
    <div className="status-bar" role="status" aria-label="Device status">
      <span>
        <span className={`dot ${online ? "dot-on" : "dot-off"}`} aria-hidden="true" /> Mesh {online ? "connected" : "offline"}
      </span>
      <span>Signal {signal === null ? "—" : `${signal}%`}</span>
      <span>Battery {battery === null ? "—" : `${battery}%`}</span>
    </div>
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

export function BottomNav({ unread, meshConnections }: { unread: number; meshConnections: number }) {
  const items = [
    { to: "/chat", label: "Chat", badge: unread },
    { to: "/mesh-network", label: "Mesh", badge: meshConnections },
    { to: "/ai-features", label: "AI", badge: 0 },
    { to: "/security-settings", label: "Security", badge: 0 },
    { to: "/settings", label: "Settings", badge: 0 },
  ];
  return (
    <nav className="bottom-nav" aria-label="Bottom navigation">
      {items.map((i) => (
        <NavLink key={i.to} to={i.to} className="bottom-item">
          <NavIcon to={i.to} />
          <span>{i.label}</span>
          {i.badge > 0 ? (
            <span className="badge">
              {badgeText(i.badge)}
              <span className="sr-only">{i.label === "Chat" ? " unread" : " connections"}</span>
            </span>
          ) : null}
        </NavLink>
      ))}
    </nav>
  );
}
