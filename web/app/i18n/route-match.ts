// Which route of web/app/routes.ts a path is, for its words (docs/decisions/078-each-page-carries-its-own-words.md).
// The routes are one flat list under the root, so the first path that matches is the route, "*" last.
import { matchPath } from "react-router";

/** A page's path from its document or data request (React Router asks for "/chat" as "/chat.data", "/" as "/_.data"). */
export function pagePath(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const page = pathname.slice(0, -".data".length);
  return page.endsWith("/_") ? page.slice(0, -1) : page === "/_root" ? "/" : page;
}

/** The index in `routes` (paths as routes.ts writes them) of the route a path shows; -1 when none. */
export function routeIndexOf(routes: readonly (readonly [string, ...unknown[]])[], pathname: string): number {
  let splat = -1;
  for (let i = 0; i < routes.length; i++) {
    const path = routes[i][0];
    if (path === "*") {
      splat = i;
      continue;
    }
    if (matchPath({ path: `/${path}`, end: true }, pathname)) return i;
  }
  return splat;
}
