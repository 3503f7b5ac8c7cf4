import { expect, test } from "./fixtures";

test("the blog lists the seeded articles, featured ones with three tags", async ({ page }) => {
  await page.goto("/blog");
  const featured = page.getByRole("region", { name: "Featured" }).getByRole("article");
  await expect(featured).toHaveCount(2);
  await expect(featured.first().getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByRole("region", { name: "Latest" }).getByRole("article").first().getByRole("listitem")).toHaveCount(2);
  await page.getByText("Read article").first().click();
  await expect(page.getByText("By LinkUp Team").first()).toBeVisible();
});

test("the FAQ searches and filters by category, and says when nothing matches", async ({ page }) => {
  await page.goto("/faq");
  await expect(page.getByRole("heading", { name: "Popular questions" })).toBeVisible();
  await page.getByRole("link", { name: "Emergency" }).click();
  await expect(page).toHaveURL(/category=emergency/);
  await expect(page.getByRole("heading", { name: "Popular questions" })).toHaveCount(0);
  const answers = page.getByRole("region", { name: "Answers" });
  await expect(answers.getByText("What happens when I press SOS?")).toBeVisible();
  await expect(answers.getByText("How do I ask the AI assistant?")).toHaveCount(0);
  await page.getByRole("link", { name: "All" }).click();
  await expect(page).toHaveURL(/category=all/);
  await page.getByRole("searchbox", { name: "Search questions" }).fill("hausa");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("Which languages can the assistant translate?")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search questions" }).fill("zzzz-no-such-thing");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No results found")).toBeVisible();
  await expect(page.getByText("Try adjusting your search or contact support for help")).toBeVisible();
});

test("pricing shows monthly and yearly naira prices and links to checkout", async ({ page }) => {
  await page.goto("/pricing");
  const premium = page.getByRole("region", { name: "Premium" });
  await expect(premium).toContainText("₦2,500");
  await page.getByRole("link", { name: /Yearly/ }).click();
  await expect(premium).toContainText("₦25,000");
  const enterprise = page.getByRole("region", { name: "Enterprise" });
  await expect(enterprise).toContainText("₦150,000");
  await expect(premium.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/subscribe?plan=premium");
  // Enterprise sells what the tier changes: the uncapped limits and the team it seats (docs/decisions/067-enterprise-teams.md).
  await expect(enterprise).toContainText("Voice messages and file transfers with no monthly cap");
  await expect(enterprise).toContainText("A team of up to 6 people, you included");
  await expect(enterprise).not.toContainText("not offered yet");
  await expect(enterprise).not.toContainText("Custom configuration");
});

test("Contact Sales sends an enquiry staff can call back, and says so", async ({ page }) => {
  await page.goto("/pricing");
  await page.getByRole("region", { name: "Enterprise" }).getByRole("link", { name: "Contact Sales" }).click();
  await expect(page.getByRole("heading", { name: "Contact Sales", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Prefer to start now? Subscribe to Enterprise yourself" })).toHaveAttribute(
    "href",
    "/subscribe?plan=enterprise",
  );
  await page.getByRole("textbox", { name: "Your phone number" }).fill("0803 555 0199");
  await page.getByRole("textbox", { name: "What does your organisation need?" }).fill("LinkUp for a school of 300 pupils");
  await page.getByRole("button", { name: "Send enquiry" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText(
    /Your enquiry [\w-]+ is with our team, who will call you on \+2348035550199 during support hours\./,
  );
});

test("social good shows its pledge and switches tabs, labelling goals as goals", async ({ page }) => {
  await page.goto("/social-good");
  await expect(page.getByText(/Pledge: 40% of LinkUp's revenue/)).toBeVisible();
  await expect(page.getByText(/Goal: ₦890 million/)).toBeVisible();
  await page.getByRole("link", { name: "Programs" }).click();
  await expect(page.getByRole("heading", { name: "Programmes we plan to fund" })).toBeVisible();
});

test("features, about and stories link where the product says", async ({ page }) => {
  await page.goto("/features");
  await expect(page.getByRole("link", { name: "Try the AI features" })).toHaveAttribute("href", "/ai-features");
  await page.goto("/testimonials");
  await expect(page.getByRole("heading", { name: "Example stories", level: 1 })).toBeVisible();
  await expect(page.getByText("Illustrative stories, not real users")).toBeVisible();
  await expect(page.getByText(/chooses Market prices, then maize, and types Kano/)).toBeVisible();
  await expect(page.locator("main")).not.toContainText("@ai market maize kano' on USSD");
  await page.getByRole("link", { name: "See all features" }).click();
  await expect(page.getByRole("heading", { name: "Platform features" })).toBeVisible();
  await page.goto("/about");
  await expect(page.getByRole("link", { name: "+2348000000000" })).toHaveAttribute("href", "tel:+2348000000000");
});
