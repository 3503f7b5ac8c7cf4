// A person's own analytics (docs/decisions/037-hourly-and-personal-analytics.md): free people see the upgrade
// prompt; once support grants Premium through the staff API, the dashboard counts what they did. Admins also see
// the operator's Trouble counters (docs/decisions/053-nothing-lost.md).
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
  // The operator's trouble figures are the admins' alone (docs/decisions/053-nothing-lost.md).
  await expect(page.getByRole("heading", { name: "Trouble" })).toHaveCount(0);
});

test("an admin sees the Trouble section for the range: the API's counters, or in words that nothing went wrong", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page.request, baseURL as string);
  await page.goto("/analytics-dashboard?range=7d");
  const section = page.getByRole("region", { name: "Trouble" });
  await expect(section.getByRole("heading", { level: 2, name: "Trouble" })).toBeVisible();
  const { trouble } = (await (await page.request.get("/api/analytics/metrics?range=7d")).json()) as { trouble: Record<string, number> };
  const words: Record<string, string> = {
    queue_retried: "Queue messages retried",
    dead_lettered: "Queue messages dead-lettered",
    d1_write_failed: "Database writes that failed",
    sos_unfinished: "SOS found unfinished",
    webhook_failed: "Webhooks that failed to apply",
  };
  expect(Object.keys(trouble).sort()).toEqual(Object.keys(words).sort());
  if (Object.values(trouble).every((n) => n === 0)) {
    await expect(section).toContainText("Nothing went wrong in this range");
    await expect(section.getByRole("list")).toHaveCount(0);
  } else {
    const figures = section.getByRole("list", { name: "Trouble figures" });
    for (const [counter, label] of Object.entries(words)) await expect(figures).toContainText(`${label}: ${trouble[counter]}`);
  }
});
