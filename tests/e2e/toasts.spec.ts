// "Toasts belong to the moment" (issue 12): a toast ends with the moment it describes, a flag in the address
// does not say 'saved' twice, and neither toasts nor the cookie notice cover the chat's message box.
import type { Locator, Page } from "@playwright/test";
import { acceptCookies, expect, latestOutboxMessage, MOBILE_UA, test } from "./fixtures";

// A wrong code is refused with 400, which the browser logs as a failed load.
test.use({ allowedConsoleErrors: [/status of 400/] });

const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

test("a failed-code toast goes once the right code is accepted", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  const rest = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");
  const phone = { local: `0815${rest}`, e164: `+234815${rest}` };
  await page.goto("/signup-verification?step=verify-phone");
  await page.getByRole("textbox", { name: "Phone number" }).fill(phone.local);
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(page.getByText(`to ${phone.e164}`)).toBeVisible();
  let code: string | undefined;
  await expect
    .poll(async () => {
      code = (await latestOutboxMessage(page.request, phone.e164))?.match(/\b(\d{6})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
  await page.getByRole("textbox", { name: "Verification code" }).fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(toasts(page).getByText("Invalid verification code. Please try again.")).toBeVisible();

  await page.getByRole("textbox", { name: "Verification code" }).fill(code!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/(chat|onboarding)/);
  // Gone well before the toast's own 5 s (the new page ends it once it renders): the refusal no longer describes
  // anything on screen.
  await expect(toasts(page).getByText("Invalid verification code")).toHaveCount(0, { timeout: 2000 });
});

test("'Settings saved' is said once: not again after a reload", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  expect((await page.request.post("/api/auth/anonymous", { headers: { origin: baseURL! } })).ok()).toBe(true);
  await page.goto("/settings?tab=network");
  await page.getByRole("checkbox", { name: /Mesh networking/ }).uncheck();
  await page.getByRole("button", { name: "Save Network Settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved" })).toBeVisible();
  await expect(page).not.toHaveURL(/saved=1/);
  await page.reload();
  await expect(page.getByRole("checkbox", { name: /Mesh networking/ })).not.toBeChecked();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved" })).toHaveCount(0);
});

test.describe("on a small phone", () => {
  test.use({ viewport: { width: 360, height: 640 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

  /** The message box can be tapped: the element at its centre is the box itself, nothing laid over it. */
  async function reachable(box: Locator) {
    await box.scrollIntoViewIfNeeded();
    return box.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
    });
  }

  test("a toast and the cookie notice never cover the message box", async ({ browser, baseURL }) => {
    const at = { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
    const context = await browser.newContext({
      viewport: { width: 360, height: 640 },
      userAgent: MOBILE_UA,
      isMobile: true,
      hasTouch: true,
      permissions: ["geolocation"],
      geolocation: at,
    });
    const headers = { origin: baseURL! };
    expect((await context.request.post(`${baseURL}/api/auth/anonymous`, { headers })).ok()).toBe(true);
    expect((await context.request.patch(`${baseURL}/api/me`, { data: { onboardingCompleted: true }, headers })).ok()).toBe(true);
    const page = await context.newPage();
    // No cookie consent: the chat shows its cookie notice.
    await page.goto("/chat");
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Cookie notice" })).toBeVisible();
    const box = page.getByRole("textbox", { name: "Message" });
    expect(await reachable(box)).toBe(true);
    // A toast (a file picked by a visitor without a verified phone, which the server refuses) shows without
    // covering it either.
    await page
      .locator(".composer input[type='file']")
      .setInputFiles({ name: "note.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
    await expect(toasts(page).getByText("Premium Feature")).toBeVisible();
    expect(await reachable(box)).toBe(true);
    await context.close();
  });
});
