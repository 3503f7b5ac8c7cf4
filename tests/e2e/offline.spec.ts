// The offline worker keeps every file of the build (its precache list comes from the build's own manifest), so
// a screen the person never opened online still runs its scripts with no network.
import type { Page } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";

// Going offline on purpose makes the live connection fail; those errors are expected here.
// React Router asks for the routes of links on the page (lazy route discovery); offline that request fails.
test.use({
  allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|WebSocket connection to .* failed|Failed to fetch manifest patches/],
});

async function offlineWorkerReady(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          return Boolean(reg?.active && (await caches.match("/chat")));
        }),
      { timeout: 20_000 },
    )
    .toBe(true);
}

test("after one visit to the landing page, /chat and its lazily loaded parts run offline", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["geolocation"]);
  await context.setGeolocation({ latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 });
  await acceptCookies(context, baseURL!);
  expect((await context.request.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await context.request.patch("/api/me", { data: { nickname: "Ngozi", onboardingCompleted: true } })).ok()).toBe(true);

  await page.goto("/");
  await offlineWorkerReady(page);

  await context.setOffline(true);
  const offline = await page.goto("/chat");
  expect(offline?.fromServiceWorker()).toBe(true);
  await expect(page.getByText("OFFLINE", { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(page.getByText("Live chat needs JavaScript")).toHaveCount(0);
  // A part the chat loads only when asked for (its own chunk, named by no page's HTML) opens too.
  await page.getByRole("button", { name: /^People here/ }).click();
  await expect(page.getByRole("dialog", { name: "People here" })).toBeVisible();
  await expect(page.getByText("This needs a connection.")).toHaveCount(0);
});
