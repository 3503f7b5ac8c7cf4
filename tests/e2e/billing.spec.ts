// Checkout in a real browser with the local payment stand-in (development without Stripe): from /pricing
// through the test payment form to /chat?subscription=success, with the tier read back from the server.
import type { Page } from "@playwright/test";
import { acceptCookies, expect, latestOutboxMessage, payForPremium, startAnonymous, test, verifyFreshPhone } from "./fixtures";

// The decline answers 402 and a chat without a shared location asks for its area room (409): the browser
// logs both as failed loads.
test.use({ allowedConsoleErrors: [/status of (402|409)/], viewport: { width: 360, height: 780 } });

/** A verified person who finished onboarding, signed in in this page. */
async function verifiedPerson(page: Page, baseURL: string) {
  await acceptCookies(page.context(), baseURL);
  await startAnonymous(page.request);
  return (await verifyFreshPhone(page.request, baseURL)).phone;
}

async function tierFromServer(page: Page) {
  return page.evaluate(async () => ((await (await fetch("/api/me")).json()) as { user: { tier: string } }).user.tier);
}

test("a verified person pays for Premium from /pricing with the test card and lands in chat as Premium", async ({ page, baseURL }) => {
  await verifiedPerson(page, baseURL!);
  await page.goto("/pricing");
  await page.getByRole("region", { name: "Premium" }).getByRole("link", { name: "Start Free Trial" }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=premium$/);
  await expect(page.getByRole("heading", { name: "Subscribe to LinkUp Premium" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Order summary" })).toContainText("₦2,500 / month");
  await expect(page.getByRole("region", { name: "Need help?" })).toContainText("+2348000000000");

  // Changing the plan or the period asks for a new payment session for that price.
  await page
    .getByRole("navigation", { name: "Billing period" })
    .getByRole("link", { name: /Yearly/ })
    .click();
  await expect(page.getByRole("region", { name: "Order summary" })).toContainText("₦25,000 / year");
  await page.getByRole("navigation", { name: "Billing period" }).getByRole("link", { name: "Monthly" }).click();

  const form = page.getByRole("form", { name: "Test payment" });
  await expect(form).toContainText("Test mode: no real payment");
  await form.getByLabel("Card number").fill("4242 4242 4242 4242");
  await form.getByRole("button", { name: "Pay ₦2,500" }).click();

  await expect(page).toHaveURL(/\/chat\?subscription=success$/);
  await expect(page.getByRole("status").filter({ hasText: "LinkUp Premium is active" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Notifications (F8)" })).toContainText(
    "Welcome to LinkUp Premium! Your subscription is now active.",
  );
  expect(await tierFromServer(page)).toBe("premium");
  // Nothing sticks out of a 360 px phone screen on the way.
  await page.goto("/subscribe?plan=premium");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(page.getByRole("region", { name: "Payment" })).toContainText("You already have LinkUp Premium");
});

test("the decline card shows the 'Payment Failed' toast and leaves the person on Community", async ({ page, baseURL }) => {
  const phone = await verifiedPerson(page, baseURL!);
  await page.goto("/subscribe?plan=enterprise");
  await expect(page.getByRole("heading", { name: "Subscribe to LinkUp Enterprise" })).toBeVisible();
  const form = page.getByRole("form", { name: "Test payment" });
  await form.getByLabel("Card number").fill("4000 0000 0000 0002");
  await form.getByRole("button", { name: "Pay ₦15,000" }).click();
  const toast = page.getByRole("region", { name: "Notifications (F8)" }).getByRole("alert").filter({ hasText: "Payment Failed" });
  await expect(toast).toContainText("Your card was declined.");
  await expect(page).toHaveURL(/\/subscribe\?plan=enterprise$/);
  expect(await tierFromServer(page)).toBe("free");
  await expect.poll(async () => latestOutboxMessage(page.request, phone.e164)).toContain("Payment failed");
});

test("the free trial needs no card and starts from /subscribe", async ({ page, baseURL }) => {
  await verifiedPerson(page, baseURL!);
  await page.goto("/subscribe?plan=premium");
  await page.getByRole("region", { name: "Try Premium free for 7 days" }).getByRole("button", { name: "Start Free Trial" }).click();
  await expect(page).toHaveURL(/\/chat\?subscription=trial$/);
  await expect(page.getByRole("status").filter({ hasText: "Your LinkUp Premium trial is active." })).toBeVisible();
  expect(await tierFromServer(page)).toBe("premium");
});

test("an anonymous visitor is asked to verify their phone before paying", async ({ page, baseURL }) => {
  await acceptCookies(page.context(), baseURL!);
  await startAnonymous(page.request);
  await page.goto("/subscribe?plan=premium");
  await expect(page.getByRole("region", { name: "Payment" }).getByRole("link", { name: "Verify your phone" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Test payment" })).toHaveCount(0);
});

test("from the settings Premium tab a person cancels and resumes, upgrades at once and downgrades at the next cycle", async ({
  page,
  baseURL,
}) => {
  await acceptCookies(page.context(), baseURL!);
  await startAnonymous(page.request);
  await payForPremium(page.request, baseURL!);
  await page.goto("/settings?tab=premium");
  const panel = page.getByRole("heading", { name: "Premium Active" }).locator("..");
  await expect(panel).toContainText("Next billing:");
  // Cancelling asks first (issue 32).
  await panel.getByRole("link", { name: "Cancel subscription" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Yes, cancel subscription" }).click();
  await expect(panel).toContainText("Cancelled: your plan stays until the end of the period you paid for.");
  expect(await tierFromServer(page)).toBe("premium");
  await panel.getByRole("button", { name: "Resume subscription" }).click();
  await expect(panel.getByRole("link", { name: "Cancel subscription" })).toBeVisible();

  await panel.getByRole("button", { name: "Upgrade to Enterprise" }).click();
  const enterprise = page.getByRole("heading", { name: "Enterprise Active" }).locator("..");
  await expect(enterprise).toBeVisible();
  expect(await tierFromServer(page)).toBe("enterprise");
  await enterprise.getByRole("button", { name: "Downgrade to Premium" }).click();
  await expect(enterprise).toContainText("Changes to Premium at the next billing cycle.");
  expect(await tierFromServer(page)).toBe("enterprise");
});

test.describe("before JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("checkout works as plain forms: continue to payment, pay with the test card, land in chat as Premium", async ({ page, baseURL }) => {
    await verifiedPerson(page, baseURL!);
    await page.goto("/subscribe?plan=premium&billing=yearly");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    const form = page.getByRole("form", { name: "Test payment" });
    await form.getByLabel("Card number").fill("4000 0000 0000 0002");
    await form.getByRole("button", { name: "Pay ₦25,000" }).click();
    await expect(page.getByRole("region", { name: "Payment" }).getByRole("alert")).toContainText(
      "Payment Failed - Your card was declined.",
    );
    await page.getByRole("form", { name: "Test payment" }).getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("form", { name: "Test payment" }).getByRole("button", { name: "Pay ₦25,000" }).click();
    await expect(page).toHaveURL(/\/chat\?subscription=success$/);
    await expect(page.getByRole("status").filter({ hasText: "LinkUp Premium is active" })).toBeVisible();
  });
});
