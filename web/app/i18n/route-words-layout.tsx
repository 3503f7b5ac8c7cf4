// The layout around every route (web/app/routes.ts): it draws nothing, and on a client-side navigation it brings
// the next route's words before that route renders, so no screen shows a raw key
// (docs/decisions/078-each-page-carries-its-own-words.md). The first page's words were fetched before hydrating.
import { useEffect } from "react";
import { type ClientLoaderFunctionArgs, Outlet, type ShouldRevalidateFunctionArgs } from "react-router";
import { ensureWords, pageTag } from "./index";

// A server loader that returns nothing keeps the first render the server's: with only a clientLoader, React Router
// would run it on hydration and show no page until it finished.
export const loader = () => null;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const url = new URL(request.url);
  try {
    await ensureWords(pageTag(), url.pathname);
  } catch {
    // The words could not be fetched (offline, and never kept): load the page as a document instead, which
    // carries its words, or the offline worker's copy of it; this navigation waits for that.
    window.location.assign(url.href);
    await new Promise(() => {});
  }
  return null;
}

// Every other route's loaders decide for themselves; this one runs whenever the screen changes.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}

// The screens the shell links to: their words are fetched when the page is idle, so tapping one waits for no
// words on a slow link and finds them offline later (the offline worker keeps /assets files it has served).
const SHELL_PATHS = ["/", "/chat", "/emergency", "/notifications", "/settings"];

export default function RouteWords() {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 2000));
    idle(() => {
      for (const path of SHELL_PATHS) ensureWords(pageTag(), path).catch(() => {});
    });
  }, []);
  return <Outlet />;
}
