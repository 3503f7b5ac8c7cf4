// No dead ends: every page reachable from the landing page and the menus (phone and desktop, visitor and
// signed-in person) answers without a 404, a 5xx or a page error, and so does every internal link and form
// target found on the way. A link to a screen that does not exist yet fails here.
import type { Page } from "@playwright/test";
import { acceptCookies, expect, MOBILE_UA, test } from "./fixtures";

/** Query variants of one path worth following (e.g. /settings?tab=…); the rest are the same screen. */
const VARIANTS_PER_PATH = 3;
const MAX_PAGES = 90;

interface Found {
  pages: string[];
  problems: string[];
}

function internal(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(base).origin) return null;
  url.hash = "";
  return url.pathname + url.search;
}

async function linksOn(page: Page): Promise<{ links: string[]; forms: string[] }> {
  return page.evaluate(() => ({
    links: [...document.querySelectorAll("a[href]")].map((a) => (a as HTMLAnchorElement).href),
    forms: [...document.querySelectorAll("form")].map((f) => (f as HTMLFormElement).action),
  }));
}

/** A GET for a status; a connection the local proxy dropped is asked once more (a status is never retried). */
async function getOnce(page: Page, target: string) {
  try {
    return await page.request.get(target, { maxRedirects: 0 });
  } catch {
    return await page.request.get(target, { maxRedirects: 0 });
  }
}

async function crawl(page: Page, baseURL: string): Promise<Found> {
  const queue = ["/"];
  const seen = new Set(queue);
  const perPath = new Map<string, number>();
  const checkedTargets = new Set<string>();
  const pages: string[] = [];
  const problems: string[] = [];
  while (queue.length && pages.length < MAX_PAGES) {
    const path = queue.shift() as string;
    const res = await page.goto(path, { waitUntil: "load" });
    await page.waitForLoadState("networkidle", { timeout: 2000 }).catch(() => {});
    pages.push(path);
    const status = res?.status() ?? 0;
    if (status === 404 || status >= 500) problems.push(`${path} answered ${status}`);
    const { links, forms } = await linksOn(page);
    for (const href of links) {
      const target = internal(href, baseURL);
      if (!target || seen.has(target)) continue;
      seen.add(target);
      const pathname = new URL(target, baseURL).pathname;
      // API links (downloads, JSON) are checked by status; pages are visited.
      if (pathname.startsWith("/api/")) {
        const r = await getOnce(page, target);
        if (r.status() === 404 || r.status() >= 500) problems.push(`${path} links to ${target} (${r.status()})`);
        continue;
      }
      const n = perPath.get(pathname) ?? 0;
      if (n >= VARIANTS_PER_PATH) continue;
      perPath.set(pathname, n + 1);
      queue.push(target);
    }
    // A form's target must exist: its route answers something other than 404/5xx to a plain GET.
    for (const action of forms) {
      const target = internal(action, baseURL);
      if (!target || checkedTargets.has(target)) continue;
      checkedTargets.add(target);
      const r = await getOnce(page, target);
      if (r.status() === 404 || r.status() >= 500) problems.push(`${path} has a form posting to ${target} (${r.status()})`);
    }
  }
  return { pages, problems };
}

async function signIn(page: Page) {
  const started = await page.request.post("/api/auth/anonymous");
  expect(started.ok()).toBe(true);
  const patched = await page.request.patch("/api/me", { data: { nickname: "Crawler", locationText: "Ibadan", onboardingCompleted: true } });
  expect(patched.ok()).toBe(true);
}

for (const who of ["visitor", "signed-in person"] as const) {
  test.describe(`every link a ${who} can follow`, () => {
    test.describe.configure({ timeout: 240_000 });

    test("on a desktop", async ({ page, context, baseURL }) => {
      await acceptCookies(context, baseURL!);
      if (who === "signed-in person") await signIn(page);
      const { pages, problems } = await crawl(page, baseURL!);
      expect(problems).toEqual([]);
      // The crawl really went through the menus: the main screens were reached.
      for (const p of ["/chat", "/pricing", "/emergency", "/settings", "/faq", "/notifications"]) expect(pages).toContain(p);
    });

    test.describe("on a phone", () => {
      test.use({ viewport: { width: 360, height: 740 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

      test("from the mobile landing and menu", async ({ page, context, baseURL }) => {
        await acceptCookies(context, baseURL!);
        if (who === "signed-in person") await signIn(page);
        const { pages, problems } = await crawl(page, baseURL!);
        expect(problems).toEqual([]);
        for (const p of ["/chat", "/mesh-network", "/ai-features", "/settings", "/testimonials", "/blog"]) expect(pages).toContain(p);
      });
    });
  });
}
