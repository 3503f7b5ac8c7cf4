// Market prices people report (docs/decisions/068-market-prices-people-report.md), on a 360 × 640 phone: a person
// reports a price on /market-prices with JavaScript off (the form posts), and the screen and a later
// '@ai price of …' quote the median of the reports with how many there are.
import type { Browser } from "@playwright/test";
import { acceptCookies, expect, MOBILE_UA, startAnonymous, test, verifyFreshPhone } from "./fixtures";

const PHONE = { viewport: { width: 360, height: 640 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true };
test.use(PHONE);

/** Another verified person who reports a price through the API, as the form does. */
async function reporter(browser: Browser, baseURL: string, priceNgn: number) {
  const context = await browser.newContext({ baseURL });
  await startAnonymous(context.request);
  await verifyFreshPhone(context.request, baseURL);
  const res = await context.request.post("/api/market/reports", {
    data: { item: "Ofada rice", unit: "50kg", priceNgn, market: "Mile 12" },
    headers: { origin: baseURL },
  });
  expect(res.status()).toBe(201);
  await context.close();
}

test("a person reports a price from a small phone without JavaScript, and the screen and '@ai' quote the median with its count", async ({
  browser,
  page,
  baseURL,
}) => {
  const base = baseURL as string;
  await reporter(browser, base, 76_000);
  await reporter(browser, base, 80_000);

  const noScript = await browser.newContext({ ...PHONE, baseURL: base, javaScriptEnabled: false });
  await acceptCookies(noScript, base);
  await startAnonymous(noScript.request);
  await verifyFreshPhone(noScript.request, base);
  const form = await noScript.newPage();
  await form.goto("/market-prices");
  await expect(form.getByRole("heading", { level: 1, name: "Market prices" })).toBeVisible();
  const report = form.getByRole("region", { name: "Report a price" });
  await report.getByRole("textbox", { name: "Item" }).fill("ofada rice");
  await report.getByRole("textbox", { name: /^Unit/ }).fill("50 kg");
  await report.getByRole("textbox", { name: "Price in naira" }).fill("78,000");
  await report.getByRole("textbox", { name: "Market or area" }).fill("Mile 12");
  await report.getByRole("button", { name: "Report price" }).click();
  await expect(report.getByRole("status")).toHaveText("Thank you, your price is in. You earned 10 points.");
  const quotes = form.getByRole("list", { name: "Reported prices" });
  const quote = quotes.getByRole("listitem").filter({ hasText: "ofada rice at Mile 12" });
  await expect(quote).toContainText("₦78,000 for 50 kg ofada rice at Mile 12");
  await expect(quote).toContainText("median of 3 reports");
  // Nothing runs off the side of a 360-pixel screen.
  expect(await form.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Asked by its everyday name, the item is found (docs/decisions/068-market-prices-people-report.md).
  await form.goto(`/market-prices?item=rice&market=${encodeURIComponent("Mile 12")}`);
  await expect(
    form.getByRole("list", { name: "Reported prices" }).getByRole("listitem").filter({ hasText: "ofada rice at Mile 12" }),
  ).toContainText("₦78,000 for 50 kg ofada rice at Mile 12");
  await noScript.close();

  // Anyone asking later hears the same figure.
  await acceptCookies(page.context(), base);
  await startAnonymous(page.request);
  await page.goto("/ai-features");
  await page.getByRole("textbox", { name: "Ask the assistant" }).fill("@ai price of ofada rice");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page.getByRole("status", { name: "Assistant answer" })).toContainText(
    "₦78,000 for 50 kg ofada rice at Mile 12, median of 3 reports",
  );
});

test("a person without a verified phone is told how to report, and the screen says when nothing is reported", async ({ page, baseURL }) => {
  await acceptCookies(page.context(), baseURL as string);
  await startAnonymous(page.request);
  await page.goto("/market-prices?item=breadfruit");
  await expect(page.getByRole("region", { name: "Market prices" }).getByRole("status")).toHaveText(
    "No prices reported for that in the last 14 days.",
  );
  const report = page.getByRole("region", { name: "Report a price" });
  await expect(report).toContainText("Reporting a price needs a verified phone");
  await expect(report.getByRole("link", { name: "Verify your phone" })).toHaveAttribute("href", "/signup");
  await expect(report).toContainText("on WhatsApp send PRICE rice 50kg 78000 Mile 12");
});
