import { useEffect, useState } from "react";
import { Bot, ChartColumn, Languages, Lock, MessageCircle, Mic, RadioTower, Siren, Sparkles } from "lucide-react";
import { Form, Link, redirect, useActionData } from "react-router";
import type { PublicStats } from "../../../core/api-types";
import { COOKIE_CONSENT_COOKIE, COOKIE_CONSENT_DECLINED, PRICES_NGN, TRIAL_DAYS } from "../../../core/constants";
import { readCookie } from "../../../core/device";
import { PLACES } from "../../../core/places";
import { PromoNotifications } from "../features/landing/promos";
import { useRootData } from "../root";
import { apiGet, apiSend, cookieFrom } from "../lib/api.server";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [
  { title: "LinkUp — community chat that works on poor networks" },
  { name: "description", content: "Chat with people nearby, ask the AI helper and send an SOS — on the web, WhatsApp or a basic phone." },
];

export async function loader({ context }: Route.LoaderArgs) {
  const stats = await apiGet<PublicStats>(context, "/api/stats/public");
  return { stats: stats! };
}

/** The landing signup form: starts (or keeps) a session, saves the profile, and opens the chat. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  // Either answer to the gate will do: the session cookie is needed to chat at all, offline storage is not.
  if (!["true", COOKIE_CONSENT_DECLINED].includes(readCookie(request.headers.get("cookie"), COOKIE_CONSENT_COOKIE) ?? "")) {
    return { error: "Please accept cookies to continue with signup" };
  }
  const name = String(form.get("name") ?? "").trim();
  const location = String(form.get("location") ?? "").trim();
  if (!name) return { error: "Nickname Required - Please enter a nickname for your profile" };
  const started = await apiSend(context, "POST", "/api/auth/anonymous");
  if (!started.ok) return { error: started.json?.error ?? "Could not start your session. Please try again." };
  // A new session cookie is not on this request yet: pass it along explicitly.
  await apiSend(context, "PATCH", "/api/me", { nickname: name.slice(0, 40), locationText: location || null }, cookieFrom(started.headers));
  return redirect("/chat", { headers: started.headers });
}

const FEATURE_TILES = [
  { icon: <MessageCircle size={28} />, title: "Nearby chat", text: "Rooms for your area that keep working on a weak network." },
  { icon: <Bot size={28} />, title: "AI helper", text: "Type '@ai ' for translation, market prices and answers." },
  { icon: <Siren size={28} />, title: "SOS", text: "One alert to your area, your contacts and nearby phones." },
  { icon: <Lock size={28} />, title: "Private chats", text: "End-to-end encrypted direct chats and groups." },
];

const PREMIUM_TEASERS = [
  {
    id: "ai-smart-replies",
    icon: <Sparkles size={28} />,
    title: "AI Smart Replies",
    description: "Unlimited AI commands and suggested replies.",
    value: "Save time on every chat",
  },
  {
    id: "emergency-sos",
    icon: <Siren size={28} />,
    title: "Wider Emergency SOS",
    description: "Your SOS reaches everyone about 10 km around you, not only your own area.",
    value: "More people can help",
  },
  {
    id: "voice-transcription",
    icon: <Mic size={28} />,
    title: "Voice Transcription",
    description: "50 voice messages a month, transcribed.",
    value: "Speak instead of typing",
  },
  {
    id: "multi-language",
    icon: <Languages size={28} />,
    title: "Unlimited Translation",
    description: "Hausa, Igbo, Yoruba, Swahili, French, Arabic and English.",
    value: "Talk across languages",
  },
  {
    id: "analytics-dashboard",
    icon: <ChartColumn size={28} />,
    title: "Analytics Dashboard",
    description: "See your own messages, AI commands, SOS alerts and files over time.",
    value: "Know your activity",
    href: "/analytics-dashboard",
  },
  {
    id: "extended-range",
    icon: <RadioTower size={28} />,
    title: "Extended Range",
    description: "Your SOS alerts reach the neighbouring areas too, about 10 km.",
    value: "Reach more people in an emergency",
  },
];

function CookieGate() {
  return (
    <section className="card center welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Welcome to LinkUp</h1>
      <p>
        Community chat for Nigeria and Africa that keeps working on poor networks. LinkUp uses cookies and offline storage on this device so
        your chats work without a connection.
      </p>
      <Form method="post" action="/consent" reloadDocument>
        <input type="hidden" name="redirectTo" value="/" />
        <div className="row gate-choices">
          <button type="submit" name="choice" value="accept" className="btn btn-primary btn-lg" onClick={rememberConsent}>
            Enable Mobile Features
          </button>
          {/* Declining keeps LinkUp usable: only the offline worker and offline storage wait for a yes. */}
          <button type="submit" name="choice" value="decline" className="btn btn-ghost btn-lg">
            Continue without offline features
          </button>
        </div>
      </Form>
    </section>
  );
}

/** Client-side preference flags the spec names (the cookie is what the server reads). */
function rememberConsent() {
  try {
    localStorage.setItem("linkup-cookies-accepted", "true");
    localStorage.setItem("linkup-cookie-consent-version", "1.0");
    localStorage.setItem("linkup-mobile-optimized", "true");
    localStorage.setItem("linkup-touch-optimized", "true");
    localStorage.setItem("linkup-offline-enabled", "true");
  } catch {}
}

function startChatHref(onboarded: boolean) {
  return onboarded ? "/chat" : "/onboarding";
}

function Stats({ stats }: { stats: PublicStats }) {
  const items = [
    { label: "People on LinkUp", value: stats.users },
    { label: "Messages today", value: stats.messagesToday },
    { label: "Live connections", value: stats.activeConnections },
    { label: "SOS alerts sent", value: stats.emergencyBroadcasts },
  ];
  return (
    <section aria-labelledby="stats-title" className="stats">
      <h2 id="stats-title" className="sr-only">
        Live figures
      </h2>
      {items.map((i) => (
        <div key={i.label} className="stat">
          <strong>{i.value.toLocaleString("en-NG")}</strong>
          <span>{i.label}</span>
        </div>
      ))}
      <p className="muted small">Live figures from LinkUp, updated on every visit.</p>
    </section>
  );
}

function PremiumPreview({ phone }: { phone: string }) {
  const [demo, setDemo] = useState<(typeof PREMIUM_TEASERS)[number] | null>(null);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const open = (t: (typeof PREMIUM_TEASERS)[number]) => {
    const attempts = Number(localStorage.getItem("linkup-premium-attempts") ?? "0");
    localStorage.setItem("linkup-premium-attempts", String(attempts + 1));
    setDemo(t);
    // From the third look, the offer follows by itself.
    if (attempts >= 2) setTimeout(() => setUpgradeOpen(true), 2000);
  };
  return (
    <section aria-labelledby="premium-preview" className="section">
      <h2 id="premium-preview">Premium Features Preview</h2>
      <div className="grid3">
        {PREMIUM_TEASERS.map((t) => (
          <button key={t.id} type="button" className="card feature" onClick={() => open(t)}>
            <span aria-hidden="true" className="icon">
              {t.icon}
            </span>
            <strong>{t.title}</strong>
            <span>{t.description}</span>
          </button>
        ))}
      </div>
      <Link to="/subscribe?plan=premium" className="btn btn-primary">
        Upgrade to Premium
      </Link>
      {demo ? (
        <dialog open className="modal" aria-labelledby="demo-title">
          <h3 id="demo-title">{demo.title}</h3>
          <p>{demo.description}</p>
          <p className="muted">{demo.value}</p>
          <div className="row">
            {"href" in demo && demo.href ? (
              <Link to={demo.href} className="btn btn-ghost">
                Open {demo.title}
              </Link>
            ) : null}
            <button type="button" className="btn btn-ghost" onClick={() => setDemo(null)}>
              Close
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                setDemo(null);
                setUpgradeOpen(true);
              }}
            >
              Upgrade Now
            </button>
          </div>
        </dialog>
      ) : null}
      {upgradeOpen ? <UpgradeModal phone={phone} onClose={() => setUpgradeOpen(false)} /> : null}
    </section>
  );
}

function UpgradeModal({ phone, onClose }: { phone: string; onClose: () => void }) {
  return (
    <dialog open className="modal" aria-labelledby="upgrade-title">
      <h3 id="upgrade-title">Upgrade to Premium</h3>
      <p>
        ₦{PRICES_NGN.premium.monthly.toLocaleString("en-NG")} per month with a {TRIAL_DAYS}-day free trial. Call support to activate it now.
      </p>
      <div className="row">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Continue Free
        </button>
        <a className="btn btn-primary" href={`tel:${phone}`}>
          Call {phone}
        </a>
      </div>
    </dialog>
  );
}

/** The floating Upgrade button appears after 5 s and dials support. */
function FloatingUpgrade({ phone }: { phone: string }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setShown(true), 5000);
    return () => clearTimeout(t);
  }, []);
  if (!shown) return null;
  return (
    <a className="btn btn-primary floating" href={`tel:${phone}`}>
      Upgrade
    </a>
  );
}

function DesktopLanding({
  stats,
  onboarded,
  signedIn,
  phone,
  error,
}: {
  stats: PublicStats;
  onboarded: boolean;
  signedIn: boolean;
  phone: string;
  error?: string;
}) {
  return (
    <div className="landing-desktop">
      <section className="hero">
        <h1>Chat with your community, even when the network is poor</h1>
        <p>
          Nearby rooms, private encrypted chats, an AI helper that speaks your language and an SOS that reaches people by every channel at
          once.
        </p>
        <div className="row">
          <Link to={startChatHref(onboarded)} className="btn btn-primary btn-lg">
            Start Mesh Chat Now
          </Link>
        </div>
        {/* LinkUp is a web app: both buttons lead to the install page, which says so. */}
        <div className="row">
          <Link to="/download?device=iphone" className="btn btn-ghost" aria-label="App Store: install on iPhone from Safari">
            App Store
          </Link>
          <Link to="/download?device=android" className="btn btn-ghost" aria-label="Google Play: install on Android from Chrome">
            Google Play
          </Link>
          <span className="small muted">Not in the stores: LinkUp installs from your browser.</span>
        </div>
        <div className="row">
          <Link to="/features" className="btn btn-ghost">
            Explore Features
          </Link>
          <Link to="/pricing" className="btn btn-ghost">
            View Pricing
          </Link>
          <Link to="/support" className="btn btn-ghost">
            Get Support
          </Link>
        </div>
      </section>
      <Stats stats={stats} />
      {signedIn ? null : (
        <section className="card" aria-labelledby="signup-title">
          <h2 id="signup-title">Join LinkUp</h2>
          {/* Only what LinkUp uses: the name others see and the town that picks the area room. */}
          <Form method="post" className="form">
            <label>
              Name
              <input name="name" required maxLength={40} autoComplete="nickname" />
            </label>
            <label>
              Town
              <input name="location" list="landing-towns" maxLength={120} autoComplete="address-level2" aria-describedby="town-hint" />
            </label>
            <datalist id="landing-towns">
              {PLACES.map((p) => (
                <option key={p.name} value={p.name} />
              ))}
            </datalist>
            <p id="town-hint" className="muted small">
              Your town puts you in its area room. You can verify your phone later, for SOS contacts and private chats.
            </p>
            {error ? (
              <p role="alert" className="error">
                {error}
              </p>
            ) : null}
            <button type="submit" className="btn btn-primary">
              Enter LinkUp Platform
            </button>
          </Form>
        </section>
      )}
      <PremiumPreview phone={phone} />
      <nav aria-label="Explore" className="row explore">
        <Link to="/features">Features</Link>
        <Link to="/mobile-demo">Mobile Demo</Link>
        <Link to="/pricing">Pricing</Link>
        <Link to="/api-docs">API Docs</Link>
        <Link to="/gamification">Rewards</Link>
        <Link to="/support">Support</Link>
      </nav>
    </div>
  );
}

function MobileLanding({ stats, onboarded }: { stats: PublicStats; onboarded: boolean }) {
  return (
    <div className="landing-mobile">
      <section className="card mesh-card" aria-labelledby="mesh-active">
        <h1 id="mesh-active">Mesh Active</h1>
        <p>
          <strong>{stats.activeConnections.toLocaleString("en-NG")}</strong> {stats.activeConnections === 1 ? "person" : "people"} connected
          now
        </p>
        <Link to={startChatHref(onboarded)} className="btn btn-primary btn-lg">
          Start Mesh Chat
        </Link>
      </section>
      <div className="grid2">
        {FEATURE_TILES.map((t) => (
          <div key={t.title} className="card tile">
            <span aria-hidden="true" className="icon">
              {t.icon}
            </span>
            <strong>{t.title}</strong>
            <span className="small">{t.text}</span>
          </div>
        ))}
      </div>
      <section className="card" aria-labelledby="premium-available">
        <h2 id="premium-available">Premium Available</h2>
        <p>
          Unlimited AI, translation and voice messages. ₦{PRICES_NGN.premium.monthly.toLocaleString("en-NG")}/month, {TRIAL_DAYS}-day free
          trial.
        </p>
        <Link to="/pricing" className="btn btn-primary">
          Upgrade
        </Link>
      </section>
      <div className="row">
        <Link to="/features" className="btn btn-ghost">
          Explore Features
        </Link>
        <Link to="/customer-service" className="btn btn-ghost">
          Support
        </Link>
      </div>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const actionData = useActionData<{ error?: string }>();
  const error = actionData?.error;
  useEffect(() => {
    if (error === "Please accept cookies to continue with signup") alert(error);
  }, [error]);
  if (!root?.cookieChoiceMade) return <CookieGate />;
  const onboarded = Boolean(root.user?.onboardingCompleted);
  const phone = root.env.SUPPORT_PHONE;
  return (
    <>
      {/* A mobile user agent gets only the mobile landing; other browsers switch at 768 px with CSS. */}
      {root.mobileUserAgent ? null : (
        <DesktopLanding stats={loaderData.stats} onboarded={onboarded} signedIn={Boolean(root.user)} phone={phone} error={error} />
      )}
      <div className={root.mobileUserAgent ? "" : "only-narrow"}>
        <MobileLanding stats={loaderData.stats} onboarded={onboarded} />
      </div>
      <FloatingUpgrade phone={phone} />
      <PromoNotifications phone={phone} />
    </>
  );
}
