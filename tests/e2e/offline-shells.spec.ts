// /emergency, /chat and /settings open with no network on their first offline visit, after one online visit to
// the landing page only: the offline worker keeps those pages from its install on
// (docs/decisions/066-phones-paired-by-code.md), so no screen falls back to the landing page or an error page.
import { expect, test } from "./fixtures";
import { OFFLINE_CONSOLE_ERRORS, offlineWorkerKeeps, onboardedVisitor } from "./offline-worker";

test.use({ allowedConsoleErrors: OFFLINE_CONSOLE_ERRORS });

test("after one visit to the landing page, /emergency, /chat and /settings open offline and say so", async ({ page, context, baseURL }) => {
  await onboardedVisitor(context, baseURL!);

  await page.goto("/");
  await offlineWorkerKeeps(page, ["/chat", "/emergency", "/settings"]);
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
