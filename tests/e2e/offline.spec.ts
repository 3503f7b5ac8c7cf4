// The offline worker keeps every file of the build (its precache list comes from the build's own manifest), so
// a screen the person never opened online still runs its scripts with no network.
import { expect, test } from "./fixtures";
import { OFFLINE_CONSOLE_ERRORS, offlineWorkerKeeps, onboardedVisitor } from "./offline-worker";

test.use({ allowedConsoleErrors: OFFLINE_CONSOLE_ERRORS });

test("after one visit to the landing page, /chat and its lazily loaded parts run offline", async ({ page, context, baseURL }) => {
  await onboardedVisitor(context, baseURL!);

  await page.goto("/");
  await offlineWorkerKeeps(page, ["/chat"]);

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
