import { acceptCookies, expect, MOBILE_UA, test } from "./fixtures";

test("the cookie gate shows only the welcome card until features are enabled, then the landing", async ({ page }) => {
  const before = (await (await page.request.get("/api/stats/public")).json()).users as number;
  await page.goto("/");
  const enable = page.getByRole("button", { name: "Enable Mobile Features" });
  await expect(enable).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Mesh Chat Now" })).toHaveCount(0);
  await enable.click();
  await expect(page.getByRole("link", { name: "Start Mesh Chat Now" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Premium Features Preview" })).toBeVisible();
  // Live figures from the database, not invented numbers.
  // Other tests add people meanwhile: the figure shown lies between the counts read around the page load.
  await expect(page.getByText("People on LinkUp")).toBeVisible();
  const after = (await (await page.request.get("/api/stats/public")).json()).users as number;
  const shown = Number(((await page.locator(".stat strong").first().textContent()) ?? "").replace(/\D/g, ""));
  expect(shown).toBeGreaterThanOrEqual(before);
  expect(shown).toBeLessThanOrEqual(after);
  // Consent registers the offline worker. It becomes active once it has kept every file of the build (about a
  // hundred) and the two offline pages, which takes a while on a busy machine.
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? ""), {
      timeout: 30_000,
    })
    .toContain("/sw.js");
});

test("the desktop landing has its signup form (only what it uses) and explore strip", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  await page.goto("/");
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Town", exact: true })).toBeVisible();
  // Nothing is asked that LinkUp would not use.
  for (const name of ["Phone", "Email"]) await expect(page.getByRole("textbox", { name, exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Enter LinkUp Platform" })).toBeVisible();
  const explore = page.getByRole("navigation", { name: "Explore" });
  for (const name of ["Features", "Mobile Demo", "Pricing", "Support"]) {
    await expect(explore.getByRole("link", { name })).toBeVisible();
  }
  await explore.getByRole("link", { name: "Mobile Demo" }).click();
  await expect(page).toHaveURL(/\/mobile-demo$/);
  await page.goBack();
  await expect(page.getByRole("link", { name: "Upgrade to Premium" })).toHaveAttribute("href", "/subscribe?plan=premium");
});

test("the landing signup starts a session with the profile and opens the chat", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  await page.goto("/");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Amaka");
  await page.getByRole("combobox", { name: "Town", exact: true }).fill("Enugu");
  await page.getByRole("button", { name: "Enter LinkUp Platform" }).click();
  await expect(page).toHaveURL(/\/(chat|onboarding)/);
  const me = await (await page.request.get("/api/me")).json();
  expect(me.user).toMatchObject({ nickname: "Amaka", locationText: "Enugu", authMode: "anonymous" });
  // The town it asked for is used: the person's area room is Enugu's.
  const rooms = await (await page.request.get("/api/rooms")).json();
  expect(rooms.nearby).toMatchObject({ name: "Enugu area" });
  // Signed in now, the landing no longer offers to join.
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Enter LinkUp Platform" })).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

  test("the mobile landing shows the mesh card, tiles and premium card", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Mesh Active" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Mesh Chat" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Premium Available" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
    await expect(page.getByRole("link", { name: "Support" })).toHaveAttribute("href", "/customer-service");
    // The desktop hero is not sent to a mobile user agent at all.
    await expect(page.getByRole("link", { name: "Start Mesh Chat Now" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Bottom navigation" })).toBeVisible();
  });

  test("the mobile menu opens and its links work", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    await page.goto("/");
    await page.getByLabel("Menu").click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeVisible();
    for (const name of ["Chat", "Mobile Demo", "FAQ", "Smart Notifications", "SOS", "Settings", "AI Support", "Blog"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await menu.getByRole("link", { name: "Join Free" }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test("a narrow desktop window switches to the mobile landing at 768 px", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Mesh Active" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Mesh Chat Now" })).toBeHidden();
  await page.setViewportSize({ width: 1024, height: 900 });
  await expect(page.getByRole("link", { name: "Start Mesh Chat Now" })).toBeVisible();
});

test.describe("unknown pages", () => {
  test.use({ allowedConsoleErrors: [/404/] });
  test("show '404 Page Not Found' with status 404", async ({ page }) => {
    const res = await page.goto("/this/does/not/exist");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("a screen that fails to load", () => {
  test.use({ allowedConsoleErrors: [/status of 500|the screen failed to load/] });
  test("shows 'Oops! Something went wrong'; Try Again loads the screen once the server answers", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    await page.goto("/");
    // The server fails the screen's data while navigating (as a crashed loader would).
    await page.route("**/ai-features.data*", (route) => route.fulfill({ status: 500, contentType: "text/plain", body: "boom" }));
    await page.getByRole("banner").getByRole("link", { name: "AI Features" }).first().click();
    await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toBeVisible();
    await expect(page.getByText("boom")).toHaveCount(0);
    // The failure never reached the server, so there is no request of its own to quote: no reference is shown.
    await expect(page.getByTestId("request-id")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");

    await page.unroute("**/ai-features.data*");
    await page.getByRole("link", { name: "Try Again" }).click();
    await expect(page).toHaveURL(/\/ai-features$/);
    await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the landing renders and the cookie gate works by form post", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Enable Mobile Features" }).click();
    await expect(page.getByRole("link", { name: "Start Mesh Chat Now" })).toBeVisible();
    await expect(page.getByText("People on LinkUp")).toBeVisible();
  });
});

test("the floating Upgrade button and the first promo arrive on schedule and a dismissed promo stays away", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  await page.clock.install();
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Upgrade", exact: true })).toHaveCount(0);
  await page.clock.runFor(5_000);
  await expect(page.getByRole("link", { name: "Upgrade", exact: true })).toHaveAttribute("href", /^tel:/);
  await page.clock.runFor(5_000);
  const promo = page.getByRole("complementary", { name: "Try Premium free for 7 days" });
  await expect(promo).toBeVisible();
  await promo.getByRole("button", { name: "Dismiss" }).click();
  await expect(promo).toHaveCount(0);
  await page.reload();
  await page.clock.runFor(12_000);
  await expect(page.getByRole("complementary", { name: "Try Premium free for 7 days" })).toHaveCount(0);
});
