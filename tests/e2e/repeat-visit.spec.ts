// Repeat visits paint from the device (docs/decisions/078-each-page-carries-its-own-words.md): after one visit the
// offline worker answers /emergency at once with the page it kept and brings the page's data up to date behind it;
// after a request that may change who is signed in, it paints no kept page until a page of the new person says so.
import type { Page } from "@playwright/test";
import { acceptCookies, expect, startAnonymous, test } from "./fixtures";

/** The worker runs, knows who is signed in, and keeps /emergency as that person's page. */
async function keptFor(page: Page, userId: string) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          if (!reg?.active) return null;
          const [who, kept] = await Promise.all([caches.match("/__linkup/who"), caches.match("/emergency")]);
          return who && kept ? `${await who.text()}|${kept.headers.get("x-linkup-page-owner")}` : null;
        }),
      { timeout: 30_000 },
    )
    .toBe(`${userId}|${userId}`);
}

const fromDevice = (page: Page) =>
  page.evaluate(() =>
    (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).serverTiming.some((e) => e.name === "linkup-device"),
  );

test("a repeat visit to /emergency paints the kept page, then shows the fresh data, and keeps that for next time", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  const me = await startAnonymous(context.request);
  expect((await context.request.patch("/api/me", { data: { onboardingCompleted: true }, headers: { origin: baseURL! } })).ok()).toBe(true);
  await page.goto("/emergency");
  await expect(page.getByRole("heading", { level: 1, name: "Emergency mode" })).toBeVisible();
  await keptFor(page, me.id);

  // The person's language changes elsewhere (another device): the kept page is still the English one.
  expect((await context.request.patch("/api/me", { data: { language: "french" }, headers: { origin: baseURL! } })).ok()).toBe(true);
  const repeat = await page.goto("/emergency");
  expect(repeat?.fromServiceWorker()).toBe(true);
  expect(await repeat?.text()).toContain('lang="en"');
  expect(await fromDevice(page)).toBe(true);
  // Updated after: the page asks for its data again and switches to French with its words.
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1, name: "Mode urgence" })).toBeVisible();

  // The worker fetched a fresh copy behind the kept one: the next visit paints French at once.
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.match("/emergency"))?.text())?.includes('lang="fr"')), { timeout: 30_000 })
    .toBe(true);
  const next = await page.goto("/emergency");
  expect(await fromDevice(page)).toBe(true);
  expect(await next?.text()).toContain('lang="fr"');
  await expect(page.getByRole("heading", { level: 1, name: "Mode urgence" })).toBeVisible();
});

test("after a new session starts in the browser, a repeat visit never paints the previous person's kept page", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  const first = await startAnonymous(context.request);
  expect((await context.request.patch("/api/me", { data: { onboardingCompleted: true }, headers: { origin: baseURL! } })).ok()).toBe(true);
  await page.goto("/emergency");
  await keptFor(page, first.id);

  // The first session's cookie is gone (it lapsed) and someone else starts a session from this browser's page: the
  // request passes the offline worker.
  await context.clearCookies();
  await acceptCookies(context, baseURL!);
  const second = await page.evaluate(async () => {
    const res = await fetch("/api/auth/anonymous", { method: "POST" });
    return ((await res.json()) as { user: { id: string } }).user.id;
  });
  expect(second).not.toBe(first.id);
  const visit = await page.goto("/emergency");
  expect(await fromDevice(page)).toBe(false);
  expect(visit?.headers()["x-linkup-page-owner"]).toBe(second);

  // Once the new person's page has said who it is for, their own repeat visits paint from the device again.
  await keptFor(page, second);
  await page.goto("/emergency");
  expect(await fromDevice(page)).toBe(true);
});
