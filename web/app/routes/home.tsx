import { useEffect, useState } from "react";
import { Bot, ChartColumn, Languages, Lock, MessageCircle, Mic, RadioTower, Siren, Sparkles } from "lucide-react";
import { Form, Link, redirect, useActionData } from "react-router";
import type { PublicStats } from "../../../core/api-types";
import type { MessageKey } from "../../../core/i18n/en";
import { COOKIE_CONSENT_COOKIE, COOKIE_CONSENT_DECLINED, PRICES_NGN, TIER_LIMITS, TRIAL_DAYS } from "../../../core/constants";
import { readCookie } from "../../../core/device";
import { PLACES } from "../../../core/places";
import { PromoNotifications } from "../features/landing/promos";
import { metaTitle, useT } from "../i18n";
import { useRootData } from "../root";
import { apiGet, apiSend, cookieFrom } from "../lib/api.server";
import type { Route } from "./+types/home";
import { type ApiRefusal, refusalOf } from "../i18n/refusal";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "home.metaTitle", "LinkUp — community chat that works on poor networks") },
  {
    name: "description",
    content: metaTitle(
      matches,
      "home.metaDescription",
      "Chat with people nearby, ask the AI helper and send an SOS — on the web, WhatsApp or a basic phone.",
    ),
  },
];

/** The landing form's refusals: a message key of its own, or the API's refusal (said by its code through t.error). */
type LandingError = { key: MessageKey } | { api: ApiRefusal };

export async function loader({ context }: Route.LoaderArgs) {
  const stats = await apiGet<PublicStats>(context, "/api/stats/public");
  // The town names come as data, so the gazetteer's coordinates stay out of the landing's JavaScript.
  return { stats: stats!, towns: PLACES.map((p) => p.name) };
}

/** The landing signup form: starts (or keeps) a session, saves the profile, and opens the chat. */
export async function action({ request, context }: Route.ActionArgs): Promise<{ error: LandingError } | Response> {
  const form = await request.formData();
  // Either answer to the gate will do: the session cookie is needed to chat at all, offline storage is not.
  if (!["true", COOKIE_CONSENT_DECLINED].includes(readCookie(request.headers.get("cookie"), COOKIE_CONSENT_COOKIE) ?? "")) {
    return { error: { key: "home.err.cookies" } };
  }
  const name = String(form.get("name") ?? "").trim();
  const location = String(form.get("location") ?? "").trim();
  if (!name) return { error: { key: "home.err.nickname" } };
  const started = await apiSend(context, "POST", "/api/auth/anonymous");
  const refused = refusalOf(started.json);
  if (!started.ok) return { error: refused ? { api: refused } : { key: "home.err.session" } };
  // A new session cookie is not on this request yet: pass it along explicitly.
  await apiSend(context, "PATCH", "/api/me", { nickname: name.slice(0, 40), locationText: location || null }, cookieFrom(started.headers));
  return redirect("/chat", { headers: started.headers });
}

// Full message keys (not built from parts), so core/i18n/catalogs.test.ts can see each one is used.
const FEATURE_TILES: { id: string; icon: React.ReactNode; title: MessageKey; text: MessageKey }[] = [
  { id: "chat", icon: <MessageCircle size={28} />, title: "home.tile.chat.title", text: "home.tile.chat.text" },
  { id: "ai", icon: <Bot size={28} />, title: "home.tile.ai.title", text: "home.tile.ai.text" },
  { id: "sos", icon: <Siren size={28} />, title: "home.tile.sos.title", text: "home.tile.sos.text" },
  { id: "private", icon: <Lock size={28} />, title: "home.tile.private.title", text: "home.tile.private.text" },
];

const PREMIUM_TEASERS = [
  teaser(
    "ai-smart-replies",
    <Sparkles size={28} />,
    "home.teaser.smartReplies.title",
    "home.teaser.smartReplies.description",
    "home.teaser.smartReplies.value",
  ),
  teaser("emergency-sos", <Siren size={28} />, "home.teaser.sos.title", "home.teaser.sos.description", "home.teaser.sos.value"),
  teaser("voice-transcription", <Mic size={28} />, "home.teaser.voice.title", "home.teaser.voice.description", "home.teaser.voice.value"),
  teaser(
    "multi-language",
    <Languages size={28} />,
    "home.teaser.translation.title",
    "home.teaser.translation.description",
    "home.teaser.translation.value",
  ),
  teaser(
    "analytics-dashboard",
    <ChartColumn size={28} />,
    "home.teaser.analytics.title",
    "home.teaser.analytics.description",
    "home.teaser.analytics.value",
    "/analytics-dashboard",
  ),
  teaser("extended-range", <RadioTower size={28} />, "home.teaser.range.title", "home.teaser.range.description", "home.teaser.range.value"),
];

function teaser(id: string, icon: React.ReactNode, title: MessageKey, description: MessageKey, value: MessageKey, href?: string) {
  return { id, icon, title, description, value, href };
}

type Teaser = (typeof PREMIUM_TEASERS)[number];

function CookieGate() {
  const t = useT();
  return (
    <section className="card grid justify-items-center gap-3 text-center welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">{t("home.gate.title")}</h1>
      <p>{t("home.gate.body")}</p>
      <Form method="post" action="/consent" reloadDocument>
        <input type="hidden" name="redirectTo" value="/" />
        <div className="flex flex-wrap items-center gap-2 justify-center">
          <button type="submit" name="choice" value="accept" className="btn btn-primary btn-lg" onClick={rememberConsent}>
            {t("home.gate.accept")}
          </button>
          {/* Declining keeps LinkUp usable: only the offline worker and offline storage wait for a yes. */}
          <button type="submit" name="choice" value="decline" className="btn btn-ghost btn-lg">
            {t("home.gate.decline")}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** Client-side preference flags (docs/product/README.md: client-only preferences) (the cookie is what the server reads). */
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
  const t = useT();
  const items = [
    { label: t("home.stat.users"), value: stats.users },
    { label: t("home.stat.messagesToday"), value: stats.messagesToday },
    { label: t("home.stat.live"), value: stats.activeConnections },
    { label: t("home.stat.sos"), value: stats.emergencyBroadcasts },
  ];
  return (
    <section
      aria-labelledby="stats-title"
      className="grid grid-cols-[repeat(4,1fr)] gap-3 narrow:grid-cols-[1fr_1fr] [&>p]:col-span-full [&>p]:m-0"
    >
      <h2 id="stats-title" className="sr-only">
        {t("home.stats.title")}
      </h2>
      {items.map((i) => (
        <div key={i.label} className="stat">
          <strong>{i.value.toLocaleString(t.tag)}</strong>
          <span>{i.label}</span>
        </div>
      ))}
      <p className="text-muted text-sm">{t("home.stats.note")}</p>
    </section>
  );
}

function PremiumPreview({ phone }: { phone: string }) {
  const t = useT();
  const [demo, setDemo] = useState<Teaser | null>(null);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const open = (teaser: Teaser) => {
    const attempts = Number(localStorage.getItem("linkup-premium-attempts") ?? "0");
    localStorage.setItem("linkup-premium-attempts", String(attempts + 1));
    setDemo(teaser);
    // From the third look, the offer follows by itself.
    if (attempts >= 2) setTimeout(() => setUpgradeOpen(true), 2000);
  };
  return (
    <section aria-labelledby="premium-preview" className="section">
      <h2 id="premium-preview">{t("home.premium.title")}</h2>
      <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
        {PREMIUM_TEASERS.map((teaser) => (
          <button key={teaser.id} type="button" className="card grid cursor-pointer gap-1 text-start" onClick={() => open(teaser)}>
            <span aria-hidden="true" className="icon text-2xl text-primary">
              {teaser.icon}
            </span>
            <strong>{t(teaser.title)}</strong>
            <span>{t(teaser.description)}</span>
          </button>
        ))}
      </div>
      <Link to="/subscribe?plan=premium" className="btn btn-primary">
        {t("home.upgradeToPremium")}
      </Link>
      {demo ? (
        <dialog
          open
          className="fixed inset-0 z-40 m-auto max-w-[420px] rounded-xl border border-line p-4 [box-shadow:0_16px_48px_#0004]"
          aria-labelledby="demo-title"
        >
          <h3 id="demo-title">{t(demo.title)}</h3>
          <p>{t(demo.description)}</p>
          <p className="text-muted">{t(demo.value)}</p>
          <div className="flex flex-wrap items-center gap-2">
            {demo.href ? (
              <Link to={demo.href} className="btn btn-ghost">
                {t("home.openFeature", { name: t(demo.title) })}
              </Link>
            ) : null}
            <button type="button" className="btn btn-ghost" onClick={() => setDemo(null)}>
              {t("home.close")}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                setDemo(null);
                setUpgradeOpen(true);
              }}
            >
              {t("home.upgradeNow")}
            </button>
          </div>
        </dialog>
      ) : null}
      {upgradeOpen ? <UpgradeModal phone={phone} onClose={() => setUpgradeOpen(false)} /> : null}
    </section>
  );
}

function UpgradeModal({ phone, onClose }: { phone: string; onClose: () => void }) {
  const t = useT();
  return (
    <dialog
      open
      className="fixed inset-0 z-40 m-auto max-w-[420px] rounded-xl border border-line p-4 [box-shadow:0_16px_48px_#0004]"
      aria-labelledby="upgrade-title"
    >
      <h3 id="upgrade-title">{t("home.upgradeToPremium")}</h3>
      <p>{t("home.upgrade.body", { price: t.naira(PRICES_NGN.premium.monthly), days: TRIAL_DAYS })}</p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t("home.continueFree")}
        </button>
        {phone ? (
          <a className="btn btn-primary" href={`tel:${phone}`}>
            {t("home.call", { phone })}
          </a>
        ) : (
          <a className="btn btn-primary" href="/subscribe?plan=premium">
            {t("offer.startTrial", { days: TRIAL_DAYS })}
          </a>
        )}
      </div>
    </dialog>
  );
}

/** The floating Upgrade button appears after 5 s and dials support; without a support line it opens the trial. */
function FloatingUpgrade({ phone }: { phone: string }) {
  const t = useT();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 5000);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <a
      className="btn btn-primary fixed end-4 bottom-20 z-30 [box-shadow:var(--shadow-float)]"
      href={phone ? `tel:${phone}` : "/subscribe?plan=premium"}
    >
      {t("home.upgrade")}
    </a>
  );
}

function DesktopLanding({
  stats,
  onboarded,
  signedIn,
  phone,
  error,
  towns,
}: {
  stats: PublicStats;
  towns: string[];
  onboarded: boolean;
  signedIn: boolean;
  phone: string;
  error?: string;
}) {
  const t = useT();
  return (
    <div className="grid gap-4 narrow:hidden">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("home.hero.title")}</h1>
        <p>{t("home.hero.body")}</p>
        <div className="flex flex-wrap items-center gap-2">
          <Link to={startChatHref(onboarded)} className="btn btn-primary btn-lg">
            {t("home.startMesh")}
          </Link>
        </div>
        {/* LinkUp is a web app: both buttons lead to the install page, which says so. */}
        <div className="flex flex-wrap items-center gap-2">
          <Link to="/download?device=iphone" className="btn btn-ghost" aria-label={t("home.appStoreLabel")}>
            App Store
          </Link>
          <Link to="/download?device=android" className="btn btn-ghost" aria-label={t("home.playLabel")}>
            Google Play
          </Link>
          <span className="text-sm text-muted">{t("home.notInStores")}</span>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Link to="/features" className="btn btn-ghost">
            {t("home.exploreFeatures")}
          </Link>
          <Link to="/pricing" className="btn btn-ghost">
            {t("home.viewPricing")}
          </Link>
          <Link to="/support" className="btn btn-ghost">
            {t("home.getSupport")}
          </Link>
        </div>
      </section>
      <Stats stats={stats} />
      {signedIn ? null : (
        <section className="card" aria-labelledby="signup-title">
          <h2 id="signup-title">{t("home.join.title")}</h2>
          {/* Only what LinkUp uses: the name others see and the town that picks the area room. */}
          <Form method="post" className="form">
            <label>
              {t("home.join.name")}
              <input name="name" required maxLength={40} autoComplete="nickname" />
            </label>
            <label>
              {t("home.join.town")}
              <input name="location" list="landing-towns" maxLength={120} autoComplete="address-level2" aria-describedby="town-hint" />
            </label>
            <datalist id="landing-towns">
              {towns.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <p id="town-hint" className="text-muted text-sm">
              {t("home.join.hint")}
            </p>
            {error ? (
              <p role="alert" className="text-danger">
                {error}
              </p>
            ) : null}
            <button type="submit" className="btn btn-primary">
              {t("home.join.submit")}
            </button>
          </Form>
        </section>
      )}
      <PremiumPreview phone={phone} />
      <nav aria-label={t("home.explore")} className="flex flex-wrap items-center gap-2 [&_a]:px-2 [&_a]:py-1">
        <Link to="/features">{t("shell.link.features")}</Link>
        <Link to="/mobile-demo">{t("shell.link.mobileDemo")}</Link>
        <Link to="/pricing">{t("home.explore.pricing")}</Link>
        <Link to="/api-docs">{t("home.explore.apiDocs")}</Link>
        <Link to="/gamification">{t("shell.link.rewards")}</Link>
        <Link to="/support">{t("home.support")}</Link>
      </nav>
    </div>
  );
}

function MobileLanding({ stats, onboarded }: { stats: PublicStats; onboarded: boolean }) {
  const t = useT();
  return (
    <div className="grid gap-4">
      <section className="card mesh-card" aria-labelledby="mesh-active">
        <h1 id="mesh-active">{t("home.mesh.title")}</h1>
        {/* The page's lead, in its first frame: the largest text on the screen, so a promo that appears later
            (features/landing/promos.tsx, at 10 s) is not the page's largest paint
            (docs/decisions/083-the-first-paint-on-2g.md). */}
        <p className="text-lg">{t("home.hero.body")}</p>
        <p>{t("home.mesh.connected", { count: stats.activeConnections })}</p>
        <Link to={startChatHref(onboarded)} className="btn btn-primary btn-lg">
          {t("home.startMeshShort")}
        </Link>
      </section>
      <div className="grid grid-cols-2 gap-3 phone:grid-cols-1">
        {FEATURE_TILES.map((tile) => (
          <div key={tile.id} className="card grid gap-1">
            <span aria-hidden="true" className="icon text-2xl text-primary">
              {tile.icon}
            </span>
            <strong>{t(tile.title)}</strong>
            <span className="text-sm">{t(tile.text)}</span>
          </div>
        ))}
      </div>
      <section className="card" aria-labelledby="premium-available">
        <h2 id="premium-available">{t("home.premiumAvailable")}</h2>
        <p>
          {t("home.premiumAvailable.body", {
            price: t.naira(PRICES_NGN.premium.monthly),
            days: TRIAL_DAYS,
            voice: TIER_LIMITS.premium.voiceMessages ?? 0,
          })}
        </p>
        <Link to="/pricing" className="btn btn-primary">
          {t("home.upgrade")}
        </Link>
      </section>
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/features" className="btn btn-ghost">
          {t("home.exploreFeatures")}
        </Link>
        <Link to="/customer-service" className="btn btn-ghost">
          {t("home.support")}
        </Link>
      </div>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const t = useT();
  const actionData = useActionData<typeof action>();
  const refusal = actionData && "error" in actionData ? actionData.error : undefined;
  const error = refusal ? ("key" in refusal ? t(refusal.key) : t.error(refusal.api)) : undefined;
  const noCookies = refusal && "key" in refusal && refusal.key === "home.err.cookies";
  useEffect(() => {
    if (noCookies && error) alert(error);
  }, [noCookies, error]);
  if (!root?.cookieChoiceMade) return <CookieGate />;
  const onboarded = Boolean(root.user?.onboardingCompleted);
  const phone = root.env.SUPPORT_PHONE;
  return (
    <>
      {/* A mobile user agent gets only the mobile landing; other browsers switch at 768 px with CSS. */}
      {root.mobileUserAgent ? null : (
        <DesktopLanding
          stats={loaderData.stats}
          towns={loaderData.towns}
          onboarded={onboarded}
          signedIn={Boolean(root.user)}
          phone={phone}
          error={error}
        />
      )}
      <div className={root.mobileUserAgent ? "" : "hidden narrow:block"}>
        <MobileLanding stats={loaderData.stats} onboarded={onboarded} />
      </div>
      <FloatingUpgrade phone={phone} />
      <PromoNotifications phone={phone} />
    </>
  );
}
