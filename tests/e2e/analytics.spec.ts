// A person's own analytics (docs/decisions/037-hourly-and-personal-analytics.md): free people see the upgrade
// prompt; once support grants Premium through the staff API, the dashboard counts what they did.
import { expect, grantTier, signInAsAdmin, startAnonymous, test, verifyFreshPhone } from "./fixtures";

test.use({ javaScriptEnabled: false });

test("a free person gets the upgrade prompt; granted Premium, they see their own AI commands counted", async ({
  page,
  browser,
  baseURL,
}) => {
  await startAnonymous(page.request);
  const { user } = await verifyFreshPhone(page.request, baseURL as string);
  await page.goto("/analytics-dashboard");
  await expect(page.getByRole("main")).toContainText("Your own analytics are a Premium feature");
  await expect(page.getByRole("link", { name: "See Premium" })).toHaveAttribute("href", "/pricing");

  const support = await browser.newContext();
  await signInAsAdmin(support.request, baseURL as string);
  await grantTier(support.request, baseURL as string, user.id, "premium");
  await support.close();

  for (const message of ["@ai market rice lagos", "@ai market garri ibadan"]) {
    const asked = await page.request.post("/api/ai/chat", { data: { message }, headers: { origin: baseURL as string } });
    expect(asked.ok()).toBe(true);
  }
  await page.goto("/analytics-dashboard?range=1h");
  await expect(page.getByRole("heading", { level: 1, name: "Your Activity" })).toBeVisible();
  const figures = page.getByRole("list", { name: "Your Activity" });
  await expect(figures.getByRole("listitem").filter({ hasText: "AI commands" })).toHaveText("2 AI commands");
  await expect(figures.getByRole("listitem").filter({ hasText: "Messages sent" })).toHaveText("0 Messages sent");
  await expect(page.getByRole("list", { name: "AI commands by kind" })).toHaveText("@ai market: 2");
});
