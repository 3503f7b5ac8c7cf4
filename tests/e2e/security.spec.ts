// The security centre in a real browser (issue 15): the bottom navigation's fourth tab, the notification
// bell in the header, and sessions and devices signed out from another browser, without JavaScript.
import type { APIRequestContext } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { acceptCookies, expect, latestOutboxMessage, MOBILE_UA, startAnonymous, test, verifyFreshPhone } from "./fixtures";

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

// A wrong code in the forms answers 400, which the browser logs as a failed load.
test.describe("two-factor", () => {
  test.use({ allowedConsoleErrors: [/status of 400/] });
  test("a person turns on two-factor with the QR code's secret, keeps backup codes, and signs in on a new phone with one", async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    await acceptCookies(context, baseURL!);
    const { phone } = await verifyFreshPhone(context.request, baseURL!);
    await page.goto("/security-settings");
    await page.getByRole("button", { name: "Set Up Two-Factor" }).click();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = (await page.locator("code.secret").textContent())!.trim();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
    const codeBox = page.getByRole("textbox", { name: "6-digit code from the app" });
    await expect(codeBox).toHaveAttribute("maxlength", "6");
    await codeBox.fill("000000");
    await page.getByRole("button", { name: "Verify and Enable" }).click();
    await expect(page.getByText("Invalid code. Please try again.").first()).toBeVisible();
    await page.getByRole("textbox", { name: "6-digit code from the app" }).fill(totp.generate());
    await page.getByRole("button", { name: "Verify and Enable" }).click();
    await expect(page.getByRole("heading", { name: /Two-factor authentication\s*Enabled/ })).toBeVisible();
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toContainText("2FA Enabled");
    const codes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole("link", { name: "I have saved my codes" }).click();
    await expect(page.getByText("Backup codes left: 10.")).toBeVisible();
    await expect(page.getByRole("list", { name: "Backup codes" })).toHaveCount(0);

    // A new phone: the phone code leads to the second step, and a backup code signs it in.
    const other = await browser.newContext({ userAgent: MOBILE_UA });
    await acceptCookies(other, baseURL!);
    const second = await other.newPage();
    await second.goto("/signup-verification?step=verify-phone");
    await second.getByRole("textbox", { name: "Phone number" }).fill(phone.local);
    await second.getByRole("button", { name: "Send Code" }).click();
    await expect(second.getByText(`to ${phone.e164}`)).toBeVisible();
    await second
      .getByRole("textbox", { name: "Verification code" })
      .fill((await latestOutboxMessage(other.request, phone.e164))!.match(/\b(\d{6})\b/)![1]);
    await second.getByRole("button", { name: "Verify" }).click();
    await expect(second).toHaveURL(/\/two-factor\?next=%2Fchat$/);
    expect((await other.request.get("/api/me")).status()).toBe(401);
    await second.getByRole("textbox", { name: "Authentication code" }).fill(codes[0].trim());
    await second.getByRole("button", { name: "Verify" }).click();
    await expect(second).toHaveURL(/\/chat$/);
    expect((await other.request.get("/api/me")).status()).toBe(200);
    await other.close();

    await page.reload();
    await expect(page.getByText("Backup codes left: 9.")).toBeVisible();
  });
});

test("panic mode leaves no LinkUp data in the browser and signs it out", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  const { user } = await verifyFreshPhone(context.request, baseURL!);
  await page.goto("/security-settings?tab=emergency");
  // What a chat leaves behind: the mesh database (history, outbox, keys), saved pages, stored flags.
  await page.evaluate(async (userId) => {
    await new Promise<void>((resolve, reject) => {
      // The page may have opened the mesh database already (the shell counts unread messages): write into it as
      // it is, or create it when it does not exist yet.
      const req = indexedDB.open(`linkup-mesh-${userId}`);
      req.onupgradeneeded = () => req.result.createObjectStore("outbox", { keyPath: "id" });
      req.onsuccess = () => {
        const tx = req.result.transaction("outbox", "readwrite");
        tx.objectStore("outbox").put({ id: "m1", text: "unsent" });
        tx.oncomplete = () => {
          req.result.close();
          resolve();
        };
      };
      req.onerror = () => reject(req.error);
    });
    await (await caches.open("linkup-pages")).put("/chat", new Response("cached chat"));
    localStorage.setItem("linkup-premium-interest", "true");
  }, user.id);

  await page.getByRole("button", { name: "Wipe This Device Now" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect
    .poll(() =>
      page.evaluate(async () => ({
        databases: (await indexedDB.databases()).map((d) => d.name).filter((n) => n?.startsWith("linkup")),
        caches: await caches.keys(),
        local: Object.keys(localStorage).filter((k) => k.startsWith("linkup-") && k !== "linkup-cookies-accepted"),
      })),
    )
    .toEqual({ databases: [], caches: [], local: [] });
  // The same cookie jar as the page: the session it held is gone.
  expect((await context.request.get("/api/me")).status()).toBe(401);
});

test("stealth mode gives the tab a neutral title and icon until it is turned off", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  await startAnonymous(context.request);
  await page.goto("/security-settings?tab=platform");
  await expect(page).toHaveTitle("Security Settings — LinkUp");
  await page.getByRole("button", { name: "Turn On Stealth Mode" }).click();
  await expect(page.getByRole("heading", { name: /Stealth mode\s*Active/ })).toBeVisible();
  await expect(page).toHaveTitle("Notes");
  // The icons travel in the document (web/app/lib/head-icons.ts): the neutral one is titled "Notes".
  await expect(page.locator("link[rel='icon']")).toHaveAttribute("href", /^data:image\/svg\+xml,.*Notes/);
  await page.goto("/chat");
  await expect(page).toHaveTitle("Notes");
  await page.goto("/security-settings?tab=platform");
  await page.getByRole("button", { name: "Turn Off Stealth Mode" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stealth mode is off." })).toBeVisible();
  await expect(page).toHaveTitle("Security Settings — LinkUp");
  await expect(page.locator("link[rel='icon']")).toHaveAttribute("href", /^data:image\/svg\+xml,.*LinkUp/);
});
