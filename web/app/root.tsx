import { useEffect } from "react";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "react-router";
import { COOKIE_CONSENT_COOKIE, COOKIE_CONSENT_DECLINED } from "../../core/constants";
import { isMobileUserAgent, readCookie } from "../../core/device";
import type { Route } from "./+types/root";
import { DeviceShell, Header } from "./components/shell";
import { ToastProvider } from "./components/toast";
import { AppLockGate } from "./features/security/app-lock";
import type { Me } from "../../core/api-types";
import type { SosBanner } from "../../core/sos";
import { apiGet, publicEnvOf } from "./lib/api.server";
import { useDeviceServedPage } from "./lib/device-served";
import { ICON_HREF, STEALTH_ICON_HREF } from "./lib/head-icons";
import { appContext } from "./context";
import { ensureWords, usePageLanguage, useT } from "./i18n";

import { pageLanguage } from "./i18n/messages.server";
import { pageWordsContext } from "./i18n/words-context";
import "./styles.css";

// The manifest and icons are in Layout: stealth mode (a person's setting) swaps them for neutral ones.
export const STEALTH_TITLE = "Notes";

export async function loader({ request, context }: Route.LoaderArgs) {
  const cookie = request.headers.get("cookie");
  // The visitor and their unread notifications (SOS nearby, messages, security) for the Alerts tab's badge, in
  // one call: the API reads both with the session (docs/decisions/057-pages-ask-once-and-replicas.md).
  const me = await apiGet<{ user: Me; notificationsUnread?: number; sosNearby?: SosBanner | null }>(context, "/api/me");
  // The saved setting, else Accept-Language, else English; a saved change revalidates this loader, so the
  // whole page switches at once (docs/decisions/031-web-app-languages.md). The words render the page on the
  // server and stay out of its data (docs/decisions/078-each-page-carries-its-own-words.md).
  const { i18n, page } = await pageLanguage(me?.user.settings.language, request);
  context.set(pageWordsContext, page);
  return {
    user: me?.user ?? null,
    cookiesAccepted: readCookie(cookie, COOKIE_CONSENT_COOKIE) === "true",
    /** Accepted or declined: either way the landing's gate has had its answer. */
    cookieChoiceMade: ["true", COOKIE_CONSENT_DECLINED].includes(readCookie(cookie, COOKIE_CONSENT_COOKIE) ?? ""),
    mobileUserAgent: isMobileUserAgent(request.headers.get("user-agent")),
    env: publicEnvOf(context),
    notificationsUnread: me?.notificationsUnread ?? 0,
    /** An active SOS nearby for the banner on every screen, in the server's HTML (docs/decisions/062). */
    sosNearby: me?.sosNearby ?? null,
    /** This page load's request id, for the error screen when a failure names none of its own. */
    requestId: context.get(appContext).requestId,
    i18n,
  };
}

// After a revalidation that changed the language (a saved setting, another person signed in), the page's words in
// that language arrive before anything renders in it.
export async function clientLoader({ serverLoader, request }: Route.ClientLoaderArgs) {
  const data = await serverLoader();
  await ensureWords(data.i18n.tag, new URL(request.url).pathname);
  return data;
}

// Not after an action that cannot have changed the visitor (lib/revalidate.ts).
export { rootShouldRevalidate as shouldRevalidate } from "./lib/revalidate";

export type RootData = Awaited<ReturnType<typeof loader>>;
export const useRootData = () => useRouteLoaderData<RootData>("root");

export function Layout({ children }: { children: React.ReactNode }) {
  const stealth = useRouteLoaderData<RootData>("root")?.user?.settings.stealthMode ?? false;
  const { tag, dir } = usePageLanguage();
  return (
    <html lang={tag} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={stealth ? "#6b7280" : "#0f766e"} />
        {stealth ? (
          <>
            <title>{STEALTH_TITLE}</title>
            <link rel="icon" href={STEALTH_ICON_HREF} type="image/svg+xml" />
          </>
        ) : (
          <>
            <Meta />
            {/* Linked by the page's starter after the first paint (lib/paint-first.server.ts). */}
            <link rel="manifest" href="/manifest.webmanifest" />
            <link rel="icon" href={ICON_HREF} type="image/svg+xml" />
            <link rel="apple-touch-icon" href="/icon-192.png" />
          </>
        )}
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function useServiceWorker(enabled: boolean) {
  useEffect(() => {
    // The offline worker is registered once cookies (and with them offline storage) are accepted.
    if (enabled && "serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("sw", e));
  }, [enabled]);
}

export default function App({ loaderData }: Route.ComponentProps) {
  useServiceWorker(loaderData.cookiesAccepted);
  useDeviceServedPage(loaderData.user?.id ?? null, loaderData);
  return (
    <ToastProvider>
      <Header unread={loaderData.notificationsUnread} />
      <DeviceShell userId={loaderData.user?.id ?? null} sosNearby={loaderData.sosNearby}>
        {/* Its children may shrink below their content width, so nothing pushes the page wider than a phone. */}
        <main className="mx-auto grid max-w-[1100px] gap-4 p-4 *:min-w-0 narrow:has-[>.chat]:pt-1 narrow:has-[>.chat]:pb-0">
          <AppLockGate userId={loaderData.user?.id ?? null}>
            <Outlet />
          </AppLockGate>
        </main>
      </DeviceShell>
    </ToastProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<RootData>("root");
  const location = useLocation();
  const t = useT();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error("LinkUp: the screen failed to load", error);
  // The id support looks up in the logs: the failed API call's when it named one, else the page load's, but only
  // on the page load itself (location key "default"); after a navigation in the browser that id is another request's.
  const named = isRouteErrorResponse(error) ? (error.data as { requestId?: unknown } | undefined)?.requestId : undefined;
  const requestId = typeof named === "string" && named ? named : location.key === "default" ? root?.requestId : undefined;
  return (
    <>
      {/* No route's meta runs for an error, so the tab would read the bare address (issue 32); React 19 hoists this. */}
      {root?.user?.settings.stealthMode ? null : <title>{`${t(notFound ? "error.notFoundTitle" : "error.crashTitle")} — LinkUp`}</title>}
      <Header />
      <main className="mx-auto grid max-w-[1100px] gap-4 p-4 *:min-w-0 narrow:has-[>.chat]:pt-1 narrow:has-[>.chat]:pb-0">
        {notFound ? (
          <section className="card grid justify-items-center gap-3 text-center">
            <h1>{t("error.notFoundTitle")}</h1>
            <p>{t("error.notFoundBody")}</p>
            <Link to="/" className="btn btn-primary">
              {t("error.home")}
            </Link>
          </section>
        ) : (
          <section className="card grid justify-items-center gap-3 text-center" role="alert">
            <h1>{t("error.crashTitle")}</h1>
            <p>{t("error.crashBody", { phone: root?.env.SUPPORT_PHONE || t("error.supportLine") })}</p>
            {requestId ? (
              <p className="text-muted" data-testid="request-id">
                {t("error.reference", { id: requestId })}
              </p>
            ) : null}
            <div className="flex flex-wrap items-center gap-2">
              {/* Following the link reloads the screen, which clears the error, with or without JavaScript. */}
              <a href={location.pathname + location.search} className="btn btn-primary">
                {t("error.tryAgain")}
              </a>
              <Link to="/" className="btn btn-ghost" reloadDocument>
                {t("error.home")}
              </Link>
            </div>
          </section>
        )}
      </main>
    </>
  );
}
