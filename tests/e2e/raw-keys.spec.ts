// Each page carries only its own words (docs/decisions/078-each-page-carries-its-own-words.md): no screen, toast or
// client-side navigation may show a message key instead of its words, in any of the seven languages. An earlier
// split was reverted because toasts and client-side navigations did; this walks every screen of web/app/routes.ts
// by client-side navigation in each language, raises a toast after one, and loads every screen as a document.
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { en } from "../../core/i18n/en";
import { UI_LANGUAGES } from "../../core/i18n/languages";
import { acceptCookies, expect, somewhereInNigeria, startAnonymous, test } from "./fixtures";

const KEYS = new Set(Object.keys(en));

// Every path of web/app/routes.ts ("" is the index; "*" is reached by an unknown path).
const ROUTE_PATHS = [
  ...readFileSync(new URL("../../web/app/routes.ts", import.meta.url), "utf8").matchAll(
    /\b(index|route)\(\s*(?:"([^"]*)"\s*,\s*)?"[^"]+"/g,
  ),
]
  .map((m) => (m[1] === "index" ? "/" : m[2] === "*" ? "/no-such-screen" : `/${m[2]}`))
  // The development outbox answers only with ENVIRONMENT=development; the browser tests serve production.
  .filter((p) => p !== "/dev/outbox");

// Screens answer refusals a visitor may meet (an admin screen, a missing page): the browser logs those loads.
test.use({ allowedConsoleErrors: [/status of 40[0-9]/] });
test.setTimeout(600_000);

/** Every text and label on the page that is exactly a message key, or holds one as a word. */
async function rawKeys(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent && !["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(parent.tagName)) out.push(n.textContent ?? "");
    }
    for (const el of document.querySelectorAll("[aria-label],[placeholder],[title],[alt],input[type=submit][value]"))
      for (const a of ["aria-label", "placeholder", "title", "alt", "value"]) out.push(el.getAttribute(a) ?? "");
    return out;
  });
  const found = new Set<string>();
  for (const text of texts) for (const word of text.match(/[A-Za-z][\w-]*(?:\.[\w-]+)+/g) ?? []) if (KEYS.has(word)) found.add(word);
  return [...found];
}

type Router = { navigate: (to: string) => Promise<void>; state: { navigation: { state: string } } };

/** A client-side navigation, as a tap on a link does: the page's router loads the next screen and renders it. */
async function clientNavigate(page: Page, path: string) {
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  await page.evaluate(async (to) => {
    const router = (window as unknown as { __reactRouterDataRouter: Router }).__reactRouterDataRouter;
    await router.navigate(to);
    // A screen that redirects (an old address, a signed-in-only screen) navigates once more.
    while (router.state.navigation.state !== "idle") await new Promise((r) => setTimeout(r, 50));
  }, path);
  // Lazily loaded parts of the screen render once their modules arrive.
  await page.waitForTimeout(300);
}

async function personIn(browser: import("@playwright/test").Browser, baseURL: string, language: string) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    permissions: ["geolocation"],
    geolocation: somewhereInNigeria(),
  });
  await acceptCookies(context, baseURL);
  await startAnonymous(context.request);
  const saved = await context.request.patch(`${baseURL}/api/me`, {
    data: { onboardingCompleted: true, nickname: `Words ${language}`, language },
    headers: { origin: baseURL },
  });
  expect(saved.ok()).toBe(true);
  return context;
}

for (const language of UI_LANGUAGES) {
  test(`no raw key on any screen or toast, navigating in ${language}`, async ({ browser, baseURL }) => {
    const context = await personIn(browser, baseURL as string, language);
    const page = await context.newPage();
    await page.goto("/");
    expect(await rawKeys(page), `document / in ${language}`).toEqual([]);
    for (const path of ROUTE_PATHS) {
      await clientNavigate(page, path);
      expect(await rawKeys(page), `${path} reached in the browser in ${language}`).toEqual([]);
    }
    // A toast raised after a client-side navigation by a part of the screen that loads later (/settings' Update
    // Location button): its words must be there too.
    await clientNavigate(page, "/settings");
    await page.locator("section[aria-labelledby=quick-actions] button:not([disabled])").first().click();
    await expect(page.locator(".toast-viewport li").first()).toBeVisible();
    expect(await rawKeys(page), `the location toast in ${language}`).toEqual([]);
    await context.close();
  });
}

test("no raw key on any screen loaded as a document, in Arabic and Hausa", async ({ browser, baseURL }) => {
  for (const language of ["arabic", "hausa"]) {
    const context = await personIn(browser, baseURL as string, language);
    const page = await context.newPage();
    for (const path of ROUTE_PATHS) {
      await page.goto(path);
      expect(await rawKeys(page), `${path} as a document in ${language}`).toEqual([]);
    }
    await context.close();
  }
});
