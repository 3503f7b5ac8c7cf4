// The security centre in a real browser (issue 15): the bottom navigation's fourth tab, the notification
// bell in the header, and sessions and devices signed out from another browser, without JavaScript.
import type { APIRequestContext } from "@playwright/test";
import { acceptCookies, expect, latestOutboxMessage, MOBILE_UA, test, verifyFreshPhone } from "./fixtures";

/** Signs the context of `request` in with an already verified phone (a second browser of the same person). */
async function signInAgain(request: APIRequestContext, baseURL: string, phone: { local: string; e164: string }) {
  const headers = { origin: baseURL };
  const before = await latestOutboxMessage(request, phone.e164);
  expect((await request.post("/api/auth/register", { data: { phoneNumber: phone.local }, headers })).ok()).toBe(true);
  let code: string | undefined;
  await expect
    .poll(async () => {
      const body = await latestOutboxMessage(request, phone.e164);
      code = body && body !== before ? body.match(/\b(\d{6})\b/)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  expect((await request.post("/api/auth/verify", { data: { phoneNumber: phone.local, code }, headers })).ok()).toBe(true);
}

test("on a phone the fourth tab is Security, and the header's bell shows the unread count and opens notifications", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  await page.setViewportSize({ width: 390, height: 844 });
  // Verifying a phone leaves one unread security notice ('Phone verified').
  await verifyFreshPhone(context.request, baseURL!);
  await page.goto("/chat");
  const nav = page.getByRole("navigation", { name: "Bottom navigation" });
  await expect(nav.getByRole("link")).toHaveText([/Chat/, /Mesh/, /AI/, /Security/, /Settings/]);
  await page.getByRole("link", { name: "Notifications 1 unread" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { name: /Notifications\s*1 unread/ })).toBeVisible();
  await nav.getByRole("link", { name: "Security" }).click();
  await expect(page).toHaveURL(/\/security-settings$/);
  await expect(page.getByRole("heading", { name: "Security Settings" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Security tabs" }).getByRole("link")).toHaveText([
    "Authentication",
    "Biometric",
    "Emergency",
    "Platform",
  ]);
});

test("a person signs another browser out from the sessions list, then all the others, with JavaScript off", async ({
  browser,
  baseURL,
}) => {
  const desk = await browser.newContext({ javaScriptEnabled: false });
  const phone1 = await browser.newContext({ userAgent: MOBILE_UA });
  for (const c of [desk, phone1]) await acceptCookies(c, baseURL!);
  const { phone } = await verifyFreshPhone(desk.request, baseURL!);
  await signInAgain(phone1.request, baseURL!, phone);

  const page = await desk.newPage();
  await page.goto("/security-settings");
  const list = page.getByRole("list", { name: "Signed-in sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").first()).toContainText("This device");
  await expect(list.getByRole("listitem").nth(1)).toContainText("Chrome on Android");
  await page.getByRole("button", { name: /^Sign out Chrome on Android/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "That session is signed out." })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  expect((await phone1.request.get("/api/me")).status()).toBe(401);

  // The phone signs in twice more (two browsers); one press ends both and keeps this one.
  const phone2 = await browser.newContext({ userAgent: MOBILE_UA });
  await signInAgain(phone1.request, baseURL!, phone);
  await signInAgain(phone2.request, baseURL!, phone);
  await page.reload();
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await page.getByRole("button", { name: "Sign Out All Other Sessions" }).click();
  await expect(page.getByRole("status").filter({ hasText: "All other sessions are signed out." })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Sign Out All Other Sessions" })).toBeDisabled();
  expect((await phone1.request.get("/api/me")).status()).toBe(401);
  expect((await phone2.request.get("/api/me")).status()).toBe(401);
  expect((await desk.request.get("/api/me")).status()).toBe(200);
  for (const c of [desk, phone1, phone2]) await c.close();
});
