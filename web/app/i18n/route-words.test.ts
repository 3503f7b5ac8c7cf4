// The scan that decides which words each screen carries (docs/decisions/078-each-page-carries-its-own-words.md).
// Checked against an independent reading of the sources: every `t("key")` call in a route's modules, the modules
// it loads later with import() included, is in the route's set or the shared one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "../../../core/i18n/en";
import { isServerOnlyKey } from "../../../core/i18n/languages";
import { keysIn, moduleGraph, readRoutes, SHARED_PREFIXES, scanRouteWords, titleKeys } from "../../../scripts/route-words";

const APP = join(__dirname, "..");
const KEYS = Object.keys(en).filter((k) => !isServerOnlyKey(k));
const words = scanRouteWords(APP, KEYS);

describe("route words", () => {
  it("lists every route of routes.ts, the not-found one included", () => {
    const source = readFileSync(join(APP, "routes.ts"), "utf8");
    const files = [...source.matchAll(/"(routes\/[^"]+\.tsx)"/g)].map((m) => m[1]);
    expect(words.routes.map((r) => r.file)).toEqual(files);
    expect(words.routes.find((r) => r.path === "*")?.file).toBe("routes/not-found.tsx");
    expect(words.routes.find((r) => r.path === "")?.file).toBe("routes/home.tsx");
  });

  it("gives each route every key its modules call t() with, the shared set holding the rest", () => {
    const shared = new Set(words.shared);
    for (const route of words.routes) {
      const own = new Set(route.keys);
      const called = new Set<string>();
      for (const source of moduleGraph(join(APP, route.file)).values())
        for (const m of source.matchAll(/\bt\(\s*"([\w.-]+)"/g)) if (KEYS.includes(m[1])) called.add(m[1]);
      const missing = [...called].filter((k) => !own.has(k) && !shared.has(k));
      expect(missing, route.file).toEqual([]);
    }
  });

  it("follows a component the screen loads later with import(), and a key built from a template's prefix", () => {
    // /settings' Update Location button loads after the page (features/identity/update-location.tsx): its toast's words.
    const settings = words.routes.find((r) => r.file === "routes/settings.tsx");
    expect(settings?.keys).toContain("set.loc.updated");
    // /team names a disappearing timer with t(`dis.${r}`): every dis. key comes along.
    const team = words.routes.find((r) => r.file === "routes/team.tsx");
    const dis = KEYS.filter((k) => k.startsWith("dis."));
    expect(dis.length).toBeGreaterThan(0);
    for (const k of dis) expect([...(team?.keys ?? []), ...words.shared]).toContain(k);
  });

  it("gives /chat every security line the sealing layer leaves, the ones a table of keys names included", () => {
    // features/chat/security-lines.ts picks most of them from tables, which the t("…") check above does not read.
    const source = readFileSync(join(APP, "features/chat/security-lines.ts"), "utf8");
    const lines = [...source.matchAll(/"(sec\.notice\.[\w.]+|msg\.[\w.]+)"/g)].map((m) => m[1]);
    expect(lines).toContain("sec.notice.listUnsignedYours");
    expect(lines).toContain("sec.notice.groupUnsigned");
    const chat = words.routes.find((r) => r.file === "routes/chat.tsx");
    for (const k of lines) expect([...(chat?.keys ?? []), ...words.shared], k).toContain(k);
  });

  it("shares the shell's, the toasts' and every error text's words, and never repeats them in a route", () => {
    expect(words.shared).toContain("toast.region");
    expect(words.shared).toContain("error.crashTitle");
    for (const k of KEYS) if (SHARED_PREFIXES.some((p) => k.startsWith(p))) expect(words.shared).toContain(k);
    const shared = new Set(words.shared);
    for (const r of words.routes)
      expect(
        r.keys.filter((k) => shared.has(k)),
        r.file,
      ).toEqual([]);
  });

  it("carries no words only the server sends", () => {
    for (const r of [...words.routes.flatMap((r) => r.keys), ...words.shared]) expect(isServerOnlyKey(r)).toBe(false);
  });

  it("reads a page title's key from its meta function", () => {
    const home = readFileSync(join(APP, "routes/home.tsx"), "utf8");
    expect(titleKeys(home, new Set(KEYS))).toContain("home.metaTitle");
  });

  it("reads routes and keys from source text", () => {
    expect(readRoutes('index("routes/a.tsx"), route("b", "routes/b.tsx"), route("*", "routes/c.tsx")')).toEqual([
      { path: "", file: "routes/a.tsx" },
      { path: "b", file: "routes/b.tsx" },
      { path: "*", file: "routes/c.tsx" },
    ]);
    const all = new Set(["a.one", "a.two", "b.one"]);
    const source = ['t("a.one");', "const x = `a.$", '{y}`; "not.key"'].join("");
    expect([...keysIn(source, all, [...all].sort())].sort()).toEqual(["a.one", "a.two"]);
  });
});
