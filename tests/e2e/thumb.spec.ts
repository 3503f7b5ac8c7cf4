// "Made for a thumb" (issue 12): the main screens pass axe with no serious or moderate violations, controls
// are big enough to hit with a thumb, and no page scrolls sideways on a 360 px phone.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import routes from "../../web/app/routes";
import { acceptCookies, expect, MOBILE_UA, startAnonymous, test, verifyFreshPhone } from "./fixtures";

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core/axe.min.js");

type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };

async function axeViolations(page: Page) {
  // Evaluated, not injected as a <script>: the page's Content-Security-Policy rightly refuses inline scripts.
  await page.evaluate(readFileSync(AXE, "utf8"));
  const result = await page.evaluate(
    () =>
      (window as unknown as { axe: { run: (o: object) => Promise<AxeResult> } }).axe.run({
        resultTypes: ["violations"],
      }) as Promise<AxeResult>,
  );
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "moderate" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

  for (const path of [
    "/",
    "/chat",
    "/emergency",
    "/onboarding",
    "/settings",
    "/pricing",
    "/notifications",
    "/security-settings",
    "/security",
  ]) {
    test(`axe finds no serious or moderate violations on ${path}`, async ({ page, context, baseURL }) => {
      await acceptCookies(context, baseURL!);
      await startAnonymous(page.request);
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test("the header and bottom navigation use SVG icons with accessible names, not emoji", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Bottom navigation" });
    for (const name of ["Chat", "Mesh", "AI", "Security", "Settings"]) {
      // A badge may follow the label in the link's name ('Mesh 2 people here').
      const link = nav.getByRole("link", { name: new RegExp(`^${name}\\b`) });
      await expect(link.locator("svg[aria-hidden='true']")).toHaveCount(1);
    }
    await expect(page.locator(".site-header summary[aria-label='Menu'] svg")).toHaveCount(1);
    await expect(
      page
        .locator(".site-header")
        .getByRole("link", { name: /^Notifications/ })
        .locator("svg[aria-hidden='true']"),
    ).toHaveCount(1);
    const text = await page.locator(".site-header, .bottom-nav").allTextContents();
    expect(text.join(" ")).not.toMatch(/\p{Extended_Pictographic}|[☰◉]/u);
    // The landing's feature tiles too: emoji show as empty boxes on phones without an emoji font.
    const tiles = await page.locator(".icon").allTextContents();
    expect(tiles.join("")).toBe("");
    expect(await page.locator(".icon svg").count()).toBeGreaterThan(0);
  });

  test("a live room on a phone: 44 × 44 px targets, readable message meta, an SOS card whose map link passes axe", async ({
    browser,
    baseURL,
  }) => {
    const url = baseURL!;
    // Somewhere in Nigeria, away from other tests' rooms; both people share the ~5 km area cell.
    const at = { latitude: 9 + Math.random(), longitude: 5 + Math.random() };
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      userAgent: MOBILE_UA,
      isMobile: true,
      hasTouch: true,
      permissions: ["geolocation"],
      geolocation: at,
    });
    await acceptCookies(context, url);
    const headers = { origin: url };
    expect((await context.request.post(`${url}/api/auth/anonymous`, { headers })).ok()).toBe(true);
    expect((await context.request.put(`${url}/api/me/location`, { data: at, headers })).ok()).toBe(true);
    expect((await context.request.patch(`${url}/api/me`, { data: { onboardingCompleted: true }, headers })).ok()).toBe(true);
    const page = await context.newPage();
    await page.goto("/chat");
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
    await page.getByRole("textbox", { name: "Message" }).fill("Good morning everyone");
    await page.getByRole("textbox", { name: "Message" }).press("Enter");

    // A neighbour's SOS arrives as a card with a map link.
    const neighbour = await browser.newContext();
    expect((await neighbour.request.post(`${url}/api/auth/anonymous`, { headers })).ok()).toBe(true);
    const sos = await neighbour.request.post(`${url}/api/emergency/broadcast`, {
      headers,
      data: { message: "Flood water rising on our street", emergencyType: "flood", location: at, clientRequestId: `thumb-${Date.now()}` },
    });
    expect(sos.ok()).toBe(true);
    const card = page.getByRole("listitem").filter({ hasText: "Flood water rising on our street" });
    await expect(card.locator(".msg-location")).toBeVisible();
    await neighbour.close();

    const small = await page.evaluate(() =>
      [
        ...document.querySelectorAll(
          "nav[aria-label='Bottom navigation'] a, .site-header a, .site-header summary, .chat-header a, .chat-header button, .chip",
        ),
      ]
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ({ el: `${el.tagName} ${el.getAttribute("aria-label") ?? el.textContent?.trim()}`, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width < 44 || box.height < 44)
        .map(({ el, box }) => `${el}: ${Math.round(box.width)}×${Math.round(box.height)}`),
    );
    expect(small).toEqual([]);
    const metaSizes = await page
      .locator(".msg-foot, .msg-sender")
      .evaluateAll((els) => els.map((el) => Number.parseFloat(getComputedStyle(el).fontSize)));
    expect(metaSizes.length).toBeGreaterThan(0);
    for (const size of metaSizes) expect(size).toBeGreaterThanOrEqual(12);
    // Contrast of the card, its map link and the meta text, measured by axe on the live page.
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});

test.describe("at 360 px wide", () => {
  test.use({ viewport: { width: 360, height: 740 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

  // Every route of web/app/routes.ts (the catch-all as an unknown path), signed in as a newcomer.
  const paths = routes.map((r) => (r.index ? "/" : r.path === "*" ? "/no-such-page" : `/${r.path}`));

  // The unknown path is a 404; the staff and admin screens answer a newcomer 403 (with a page that says why).
  test.use({ allowedConsoleErrors: [/status of (404 \(Not Found\)|403 \(Forbidden\))/] });

  test("no page scrolls sideways", async ({ page, context, baseURL }) => {
    test.setTimeout(180_000);
    await acceptCookies(context, baseURL!);
    await startAnonymous(page.request);
    const wide: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
      if (width > 360) wide.push(`${path}: ${width}px`);
    }
    expect(wide).toEqual([]);
  });
});

test.describe("at 360 × 640", () => {
  test("the message box stays in sight above the bottom navigation after an AI reply and smart-reply chips", async ({
    browser,
    baseURL,
  }) => {
    const url = baseURL!;
    const at = { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
    const phone = { viewport: { width: 360, height: 640 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true };
    const context = await browser.newContext({ ...phone, permissions: ["geolocation"], geolocation: at });
    await acceptCookies(context, url);
    const headers = { origin: url };
    // Smart replies are for verified people.
    await verifyFreshPhone(context.request, url);
    expect((await context.request.put(`${url}/api/me/location`, { data: at, headers })).ok()).toBe(true);
    const page = await context.newPage();
    await page.goto("/chat");
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();

    // A neighbour writes: smart-reply chips appear under the list.
    const neighbour = await browser.newContext({ ...phone, permissions: ["geolocation"], geolocation: at });
    await acceptCookies(neighbour, url);
    expect((await neighbour.request.post(`${url}/api/auth/anonymous`, { headers })).ok()).toBe(true);
    expect((await neighbour.request.patch(`${url}/api/me`, { data: { onboardingCompleted: true }, headers })).ok()).toBe(true);
    const other = await neighbour.newPage();
    await other.goto("/chat");
    await expect(other.getByText("LIVE", { exact: true })).toBeVisible();
    await other.getByRole("textbox", { name: "Message" }).fill("Is the market open today?");
    await other.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(page.getByRole("group", { name: "Smart replies" }).getByRole("button").first()).toBeVisible();

    // An AI question and its answer.
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("@ai help");
    await box.press("Enter");
    await expect(page.locator(".msg-ai")).toHaveCount(1, { timeout: 15_000 });

    // Without any scrolling: the box is inside the window and nothing (the navigation) lies over it.
    const seen = await box.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { inside: r.top >= 0 && r.bottom <= window.innerHeight, onTop: hit === el };
    });
    expect(seen).toEqual({ inside: true, onTop: true });
    // The list scrolls by itself, so the page does not have to.
    const list = await page.locator(".chat-body").evaluate((el) => getComputedStyle(el).overflowY);
    expect(list).toBe("auto");
    await neighbour.close();
    await context.close();
  });
});
