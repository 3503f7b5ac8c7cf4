// The first five minutes on a phone: a newcomer who denies location (or skips onboarding, or leaves the town
// empty) is asked for a town in the chat itself and is in a live room the moment they give one.
import { expect, MOBILE_UA, test } from "./fixtures";

test.use({ viewport: { width: 360, height: 740 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

test.describe("a newcomer", () => {
  // The unknown town is refused with 409 on purpose (the browser logs the status).
  test.use({ allowedConsoleErrors: [/status of 409/] });

  test("a newcomer with location denied goes from the landing page into a live room and gets an @ai answer", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Enable Mobile Features" }).click();
    await page.getByRole("link", { name: "Start Mesh Chat" }).click();
    await expect(page).toHaveURL(/\/onboarding/);
    await page.getByRole("button", { name: "Skip for now" }).click();
    await expect(page).toHaveURL(/\/chat$/);

    // No position, no town: the chat asks, instead of 'Finding the room for your area…' forever.
    const chooser = page.getByRole("region", { name: "Choose your area" });
    await expect(chooser).toBeVisible();
    await expect(page.getByText("Finding the room for your area…")).toHaveCount(0);
    // The page is live once its JavaScript has taken over (the no-JavaScript note goes).
    await expect(page.getByText(/Live chat needs JavaScript/)).toHaveCount(0);
    await chooser.getByRole("button", { name: "Share my location" }).click();
    await expect(chooser.getByRole("alert")).toContainText("did not give LinkUp your location");

    // A town LinkUp does not know is refused with a way forward; a known one joins its room at once.
    await chooser.getByRole("combobox", { name: "Your town" }).fill("Atlantis");
    await chooser.getByRole("button", { name: "Join this town's room" }).click();
    await expect(chooser.getByRole("alert")).toContainText("does not know that town yet");
    await chooser.getByRole("combobox", { name: "Your town" }).fill("Ibadan");
    await chooser.getByRole("button", { name: "Join this town's room" }).click();
    await expect(chooser).toHaveCount(0);
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /Ibadan area/ }).first()).toBeVisible();

    // And the assistant answers in the room.
    await page.getByRole("textbox", { name: "Message" }).fill("@ai market rice");
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(page.getByRole("listitem").filter({ hasText: /rice/i }).filter({ hasText: /₦/ }).first()).toBeVisible();
  });
});

test.describe("declining the offline features", () => {
  test.use({ allowedConsoleErrors: [/status of 409/] });

  test("the cookie gate can be declined and LinkUp still works; only the offline worker waits", async ({ page, context }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Continue without offline features" }).click();
    // Past the gate: the landing itself, and the chat works.
    await expect(page.getByRole("button", { name: "Enable Mobile Features" })).toHaveCount(0);
    expect((await context.cookies()).find((c) => c.name === "linkup-cookies-accepted")?.value).toBe("declined");
    await page.getByRole("link", { name: "Start Mesh Chat" }).click();
    await page.getByRole("button", { name: "Skip for now" }).click();
    const chooser = page.getByRole("region", { name: "Choose your area" });
    await chooser.getByRole("combobox", { name: "Your town" }).fill("Jos");
    await chooser.getByRole("button", { name: "Join this town's room" }).click();
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
    await page.getByRole("textbox", { name: "Message" }).fill("Hello from Jos");
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(
      page
        .getByRole("listitem")
        .filter({ hasText: "Hello from Jos" })
        .getByRole("img", { name: /Sent|Delivered|Read/ }),
    ).toBeVisible();
    // No offline worker was registered without a yes; the chat's notice still offers one.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    await expect(page.getByRole("region", { name: "Cookie notice" }).getByRole("button", { name: "Accept" })).toBeVisible();
    // The landing does not ask again.
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Continue without offline features" })).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the town form of the chat works by a form post", async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "linkup-cookies-accepted", value: "true", url: baseURL! }]);
    expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
    expect((await page.request.patch("/api/me", { data: { onboardingCompleted: true } })).ok()).toBe(true);
    await page.goto("/chat");
    const chooser = page.getByRole("region", { name: "Choose your area" });
    await chooser.getByRole("combobox", { name: "Your town" }).fill("Kano");
    await chooser.getByRole("button", { name: "Join this town's room" }).click();
    await expect(page.getByRole("region", { name: "Choose your area" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Kano area/ }).first()).toBeVisible();
  });
});
