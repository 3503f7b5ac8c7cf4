// /emergency, /chat and /settings open with no network on their first offline visit, after one online visit to
// the landing page only: the offline worker keeps those pages from its install on
// (docs/decisions/066-phones-paired-by-code.md), so no screen falls back to the landing page or an error page.
import type { Page } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";

// Going offline on purpose makes the live connection and React Router's route discovery fail.
test.use({
  allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|WebSocket connection to .* failed|Failed to fetch manifest patches/],
});

async function pagesKept(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          if (!reg?.active) return false;
          for (const url of ["/chat", "/emergency", "/settings"]) if (!(await caches.match(url))) return false;
          return true;
        }),
      { timeout: 30_000 },
    )
    .toBe(true);
}

test("after one visit to the landing page, /emergency, /chat and /settings open offline and say so", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["geolocation"]);
  await context.setGeolocation({ latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 });
  await acceptCookies(context, baseURL!);
  expect((await context.request.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await context.request.patch("/api/me", { data: { nickname: "Ngozi", onboardingCompleted: true } })).ok()).toBe(true);

  await page.goto("/");
  await pagesKept(page);
  await context.setOffline(true);

  const emergency = await page.goto("/emergency");
  expect(emergency?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { level: 1, name: "Emergency mode" })).toBeVisible();
  await expect(page.getByText("Oops! Something went wrong")).toHaveCount(0);
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expect(page.getByText("Offline: no internet connection")).toBeVisible();

  const settings = await page.goto("/settings");
  expect(settings?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByText("Oops! Something went wrong")).toHaveCount(0);
  await expect(page.getByText("Offline: no internet connection")).toBeVisible();

  const chat = await page.goto("/chat");
  expect(chat?.fromServiceWorker()).toBe(true);
  await expect(page.getByText("OFFLINE", { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message", exact: true })).toBeVisible();
  await expect(page.getByText("Oops! Something went wrong")).toHaveCount(0);
});
