// Which messages each screen carries (docs/decisions/078-each-page-carries-its-own-words.md). A static scan of
// the source: from a route module, every module it imports (static and dynamic `import()`, so a component loaded
// later brings its words too), and in each the string literals that are catalog keys (`t("chat.send")`, tables of
// keys) and the template prefixes (`t(\`dis.${r}\`)` takes every `dis.` key). The root module's graph is the
// shared set (the shell, toasts, the error screen, API errors), with every key of SHARED_PREFIXES; a route gets
// what its graph uses beyond that. Only relative imports are followed: packages hold no keys.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Key groups every page carries whatever the scan finds: error texts any screen or toast can show. */
export const SHARED_PREFIXES = ["errors.", "error.", "api."] as const;

export interface RouteEntry {
  /** The path as React Router matches it ("" for the index, "*" for not found). */
  path: string;
  /** The route module, relative to web/app ("routes/home.tsx"). */
  file: string;
}

export interface RouteWords {
  shared: string[];
  /** keys: the route's own words; title: the keys of its page title (metaTitle calls), which ride in the root's data. */
  routes: (RouteEntry & { keys: string[]; title: string[] })[];
}

/** The routes of web/app/routes.ts (one flat list of `index(file)` and `route(path, file)`). */
export function readRoutes(routesSource: string): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const m of routesSource.matchAll(/\b(index|route)\(\s*(?:"([^"]*)"\s*,\s*)?"([^"]+)"/g)) {
    routes.push({ path: m[1] === "index" ? "" : (m[2] ?? ""), file: m[3] });
  }
  return routes;
}

// The catalogs themselves (a type import of en.ts names every key) and the code that loads them hold no screen's words.
const SKIP = /[\\/]core[\\/]i18n[\\/]/;
const IMPORTS = /(?:\bimport|\bexport)\s*(?:type\s+)?(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ""));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (/\.(ts|tsx|js|mjs)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** The source files a module reaches through relative imports, itself included. */
export function moduleGraph(entry: string, read = (f: string) => readFileSync(f, "utf8")): Map<string, string> {
  const seen = new Map<string, string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file) || SKIP.test(file)) continue;
    const source = read(file);
    seen.set(file, source);
    for (const m of source.matchAll(IMPORTS)) {
      const next = resolveImport(file, m[1] ?? m[2]);
      if (next) queue.push(next);
    }
  }
  return seen;
}

/** The catalog keys a source text names: quoted literals that are keys, and every key under a template's prefix. */
export function keysIn(source: string, allKeys: ReadonlySet<string>, sortedKeys: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const m of source.matchAll(/"([\w.-]+)"|'([\w.-]+)'|`([\w.-]+)`/g)) {
    const literal = m[1] ?? m[2] ?? m[3];
    if (allKeys.has(literal)) found.add(literal);
  }
  for (const m of source.matchAll(/`([a-zA-Z][\w-]*(?:\.[\w-]+)*\.)\$\{/g)) {
    for (const key of sortedKeys) if (key.startsWith(m[1])) found.add(key);
  }
  return found;
}

/** The keys a route module's meta function names for the page's title and description (`metaTitle(matches, "key", …)`). */
export function titleKeys(source: string, allKeys: ReadonlySet<string>): string[] {
  return [...new Set([...source.matchAll(/metaTitle\(\s*\w+\s*,\s*"([\w.-]+)"/g)].map((m) => m[1]).filter((k) => allKeys.has(k)))].sort();
}

/** Every route's words and the shared set, from web/app's sources. */
export function scanRouteWords(appDir: string, allKeys: readonly string[]): RouteWords {
  const keySet = new Set(allKeys);
  const sorted = [...allKeys].sort();
  const perFile = new Map<string, Set<string>>();
  const keysOfGraph = (entry: string) => {
    const keys = new Set<string>();
    for (const [file, source] of moduleGraph(entry)) {
      let own = perFile.get(file);
      if (!own) {
        own = keysIn(source, keySet, sorted);
        perFile.set(file, own);
      }
      for (const k of own) keys.add(k);
    }
    return keys;
  };
  const shared = keysOfGraph(join(appDir, "root.tsx"));
  for (const k of sorted) if (SHARED_PREFIXES.some((p) => k.startsWith(p))) shared.add(k);
  const routes = readRoutes(readFileSync(join(appDir, "routes.ts"), "utf8")).map((r) => ({
    ...r,
    keys: [...keysOfGraph(join(appDir, r.file))].filter((k) => !shared.has(k)).sort(),
    title: titleKeys(readFileSync(join(appDir, r.file), "utf8"), keySet),
  }));
  return { shared: [...shared].sort(), routes };
}

/** A route's name in the words files' URLs: its module's name ("routes/home.tsx" → "home"). */
export const routeName = (file: string) =>
  relative("routes", file)
    .replace(/\.(tsx?|jsx?)$/, "")
    .replace(/[^\w.-]/g, "_");
