// The remaining screens of the route table (docs/product/screens.md) (issue 18): install, and more as they land.
import { acceptCookies, expect, MOBILE_UA, test, verifyFreshPhone } from "./fixtures";

test("the landing's App Store button leads to the install page, which says LinkUp installs from the browser", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL as string);
  await page.goto("/");
  await expect(page.getByText("Not in the stores: LinkUp installs from your browser.")).toBeVisible();
  await page.getByRole("link", { name: /^App Store/ }).click();
  await expect(page).toHaveURL(/\/download/);
  await expect(page.getByRole("heading", { name: "Install LinkUp", level: 1 })).toBeVisible();
  await expect(page.getByText(/not in the App Store or Google Play/)).toBeVisible();
  await expect(page.getByRole("region", { name: "iPhone and iPad" })).toContainText("Add to Home Screen");
  await expect(page.getByRole("region", { name: "Android" })).toContainText("Install app");
  await expect(page.getByRole("img", { name: `QR code of ${baseURL}/download` }).locator("svg")).toBeVisible();
  await expect(page.getByRole("region", { name: "Phone cannot install apps?" })).toContainText("*384*1234#");
  await page.goto("/");
  await page.getByRole("link", { name: /^Google Play/ }).click();
  await expect(page).toHaveURL(/\/download/);
});

test("the install button appears when the browser offers to install, and opens the browser's prompt", async ({ page }) => {
  await page.goto("/download");
  await expect(page.getByRole("button", { name: "Install LinkUp" })).toHaveCount(0);
  // Chromium offers the prompt only to a served origin with engagement; the page sees the same event this way,
  // offered again until the hydrated page listens (as the browser would offer it on a later visit).
  await expect(async () => {
    await page.evaluate(() => {
      const e = new Event("beforeinstallprompt", { cancelable: true }) as Event & Record<string, unknown>;
      e.prompt = async () => {
        (window as unknown as { prompted: boolean }).prompted = true;
      };
      e.userChoice = Promise.resolve({ outcome: "accepted" });
      window.dispatchEvent(e);
    });
    await expect(page.getByRole("button", { name: "Install LinkUp" })).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.getByRole("button", { name: "Install LinkUp" }).click();
  await expect(page.getByText("LinkUp is installed on this device.")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
});

test("the QR install page shows, hides and downloads the QR code of the install link", async ({ page, baseURL }) => {
  await page.goto("/download");
  await page.getByRole("link", { name: "More ways to share the install link" }).click();
  await expect(page.getByRole("heading", { name: "Install LinkUp on your phone" })).toBeVisible();
  const qr = page.getByRole("img", { name: `QR code of ${baseURL}/download` });
  await expect(qr).toBeVisible();
  await page.getByText("QR code", { exact: true }).click();
  await expect(qr).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Direct URL" })).toHaveValue(`${baseURL}/download`);
  await expect(page.getByRole("link", { name: "Open in browser" })).toHaveAttribute("href", `${baseURL}/download`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download QR (SVG)" }).click();
  expect((await download).suggestedFilename()).toBe("linkup-install-qr.svg");
  await expect(page.getByRole("button", { name: "Copy URL" })).toBeVisible();
});

test("community lists the room next door with its members, shows the area's SOS, and joins the room into the chat", async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  const url = baseURL as string;
  await acceptCookies(context, url);
  // A spot of its own (a random point in the far north), so rooms of other tests are not next door.
  const here = { latitude: 11 + Math.random(), longitude: 4 + Math.random() * 2 };
  const neighbour = await playwright.request.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
  expect((await neighbour.post("/api/auth/anonymous")).ok()).toBe(true);
  // About 7 km north: the next area room.
  expect((await neighbour.put("/api/me/location", { data: { ...here, latitude: here.latitude + 0.065 } })).ok()).toBe(true);
  const joined = await neighbour.post("/api/rooms/nearby/join");
  const nextDoor = (await joined.json()).room as { id: string; name: string };
  const sos = await neighbour.post("/api/emergency/broadcast", {
    data: { message: "Bridge washed away on the Sokoto road", emergencyType: "flood", clientRequestId: `e2e-community-${Date.now()}` },
  });
  expect(sos.status()).toBe(201);

  expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await page.request.put("/api/me/location", { data: here })).ok()).toBe(true);
  expect((await page.request.patch("/api/me", { data: { onboardingCompleted: true } })).ok()).toBe(true);
  await page.goto("/customer-service");
  await page.getByRole("link", { name: "Community" }).click();
  await expect(page.getByRole("heading", { name: "Community", level: 1 })).toBeVisible();
  const near = page.getByRole("list", { name: "Rooms near you" });
  const row = near.getByRole("listitem").filter({ hasText: nextDoor.name });
  await expect(row).toContainText("1 member");
  await expect(row).toContainText("km away");
  await expect(page.getByRole("list", { name: "Active SOS" })).toContainText("Bridge washed away on the Sokoto road");
  await row.getByRole("button", { name: `Join ${nextDoor.name}` }).click();
  await expect(page).toHaveURL(`/chat?room=${encodeURIComponent(nextDoor.id)}`);
  await page.goto("/community");
  await expect(near.getByRole("listitem").filter({ hasText: nextDoor.name })).toContainText("2 members");
  await expect(near.getByRole("link", { name: `Open ${nextDoor.name}` })).toBeVisible();
  await neighbour.dispose();
});

test("rewards: the landing's Rewards link shows level and points from the server, and the daily bonus is claimed once", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL as string);
  expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Explore" }).getByRole("link", { name: "Rewards" }).click();
  await expect(page.getByRole("heading", { name: "Level 1", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Achievements" }).getByRole("listitem")).toHaveCount(6);
  await page.getByRole("button", { name: "Claim 50 points" }).click();
  await expect(page.getByRole("status").filter({ hasText: "+50 points!" })).toBeVisible();
  await page.reload();
  await expect(page.getByText("50 points · 950 to level 2")).toBeVisible();
  await expect(page.getByText("Claimed today.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Claim/ })).toHaveCount(0);
  await page.getByRole("link", { name: "Leaderboard" }).click();
  await expect(page.getByRole("heading", { name: "Leaderboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Leaders" }).getByRole("listitem").filter({ hasText: "(you)" })).toContainText("50 points");
  await page.getByRole("navigation", { name: "Where" }).getByRole("link", { name: "Your area" }).click();
  await expect(page.getByText("Set your town in")).toBeVisible();
});

test("API docs: the landing's API Docs link, the reference from the server's schemas, and a key created, used and revoked", async ({
  page,
  context,
  baseURL,
  playwright,
}) => {
  const url = baseURL as string;
  await acceptCookies(context, url);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Explore" }).getByRole("link", { name: "API Docs" }).click();
  await expect(page.getByRole("heading", { name: "API Documentation", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Assistant" })).toContainText("/api/ai/translate");
  await expect(page.getByRole("region", { name: "Assistant" })).toContainText("targetLanguage (body, string, required)");
  await expect(page.getByRole("region", { name: "Not offered" })).toContainText("/api/messages/send");
  await page.getByRole("tab", { name: "Python" }).click();
  await expect(page.getByLabel("Python example")).toContainText("requests.post(");
  await expect(page.getByRole("cell", { name: "1,000 calls/day" })).toBeVisible();
  await expect(page.getByText("Start chatting and verify your phone to create API keys.")).toBeVisible();

  await verifyFreshPhone(page.request, url);
  await page.reload();
  await page.getByRole("textbox", { name: "Key name" }).fill("Market bot");
  await page.getByRole("button", { name: "Create API key" }).click();
  const key = await page.getByRole("textbox", { name: "New API key" }).inputValue();
  expect(key).toMatch(/^linkup_/);
  const client = await playwright.request.newContext({ baseURL: url, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  expect((await client.get("/api/market/prices")).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "New API key" })).toHaveCount(0);
  const row = page.getByRole("list", { name: "API keys" }).getByRole("listitem").filter({ hasText: "Market bot" });
  await expect(row).toContainText("1 call today");
  await row.getByRole("button", { name: "Revoke Market bot" }).click();
  await expect(page.getByRole("list", { name: "API keys" })).toHaveCount(0);
  expect((await client.get("/api/market/prices")).status()).toBe(401);
  await client.dispose();
});

test("story pages: the founder's story and Why LinkUp from About, the showcase and design gallery from Features, with live figures", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL as string);
  const stats = (await (await page.request.get("/api/stats/public")).json()) as { users: number; emergencyBroadcasts: number };
  await page.goto("/about");
  await page.getByRole("link", { name: "The founder's story" }).click();
  await expect(page.getByRole("heading", { name: "The founder's story", level: 1 })).toBeVisible();
  await expect(page.getByText("Goal: ₦890 million of economic impact")).toBeVisible();
  // The settings speak the complete catalogs only (core/i18n/languages.ts), not every language the picker lists.
  await expect(page.getByText("The settings speak 7 languages")).toBeVisible();
  await expect(page.getByRole("region", { name: "So far" })).toContainText(`${stats.users.toLocaleString("en-NG")} `);
  await expect(page.getByRole("link", { name: "Join LinkUp" })).toHaveAttribute("href", "/signup");
  await expect(page.getByRole("link", { name: "Try LinkUp on WhatsApp" })).toHaveAttribute("href", "/whatsapp-demo");

  await page.goto("/about");
  await page.getByRole("link", { name: "Why LinkUp" }).click();
  await expect(page.getByRole("heading", { name: "Why LinkUp", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "What LinkUp does not do" })).toContainText("cannot run a Bluetooth mesh");

  await page.goto("/features");
  await page.getByRole("link", { name: "Product showcase" }).click();
  await expect(page.getByRole("heading", { name: "Product showcase", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "LinkUp today" })).toContainText("Counted live");

  await page.goto("/features");
  await page.getByRole("link", { name: "Design gallery" }).click();
  await expect(page.getByRole("heading", { name: "Design gallery", level: 1 })).toBeVisible();
  const screens = page.getByRole("list", { name: "Screens" }).getByRole("listitem");
  await expect(screens).toHaveCount(12);
  await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Safety" }).click();
  await expect(screens).toHaveCount(2);
  await screens.getByRole("link", { name: "Open Emergency" }).click();
  await expect(page).toHaveURL(/\/emergency$/);
});

test("/enhanced-chat is the chat: the route table calls /chat the enhanced chat, so it leads there with its query", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL as string);
  const res = await page.request.get("/enhanced-chat?room=nearby%3As0h1k", { maxRedirects: 0 });
  expect(res.status()).toBe(301);
  expect(res.headers().location).toBe("/chat?room=nearby%3As0h1k");
  expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await page.request.patch("/api/me", { data: { onboardingCompleted: true } })).ok()).toBe(true);
  await page.goto("/enhanced-chat");
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole("group", { name: "Quick replies" })).toBeVisible();
});

test("an SOS nearby can be answered from the emergency page: 'I'm coming to help' tells the sender", async ({
  page,
  context,
  baseURL,
  playwright,
}) => {
  const url = baseURL as string;
  await acceptCookies(context, url);
  const here = { latitude: 12 + Math.random(), longitude: 9 + Math.random() };
  const sender = await playwright.request.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
  expect((await sender.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await sender.put("/api/me/location", { data: here })).ok()).toBe(true);
  const sos = await sender.post("/api/emergency/broadcast", {
    data: { message: "Market fire near the gate", emergencyType: "fire", location: here, clientRequestId: `e2e-respond-${Date.now()}` },
  });
  expect(sos.status()).toBe(201);
  expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await page.request.put("/api/me/location", { data: here })).ok()).toBe(true);
  await page.goto("/emergency");
  await page.getByRole("button", { name: "I'm coming to help: Market fire near the gate" }).click();
  await expect(page.getByRole("region", { name: "Notifications (F8)" })).toContainText("The sender knows help is coming.");
  const inbox = (await (await sender.get("/api/notifications")).json()) as { notifications: { title: string }[] };
  expect(inbox.notifications.map((n) => n.title)).toContain("Help is coming");
  await sender.dispose();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true });

  test("the menu's Machine Learning shows the models the assistant runs and live counts of questions answered; Rewards is in the menu", async ({
    page,
    context,
    baseURL,
  }) => {
    await acceptCookies(context, baseURL as string);
    expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
    const asked = await page.request.post("/api/ai/chat", { data: { message: "translate good morning to Yoruba" } });
    expect(asked.ok()).toBe(true);
    const { allTime } = (await (await page.request.get("/api/stats/assistant")).json()) as { allTime: { aiCommands: number } };
    expect(allTime.aiCommands).toBeGreaterThan(0);
    await page.goto("/");
    await page.getByLabel("Menu").click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu.getByRole("link", { name: "Rewards", exact: true })).toHaveAttribute("href", "/gamification");
    await menu.getByRole("link", { name: "Machine Learning", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Machine Learning", level: 1 })).toBeVisible();
    const answered = page
      .getByRole("row", { name: /^Questions answered/ })
      .getByRole("cell")
      .last();
    expect(Number((await answered.textContent())?.replace(/\D/g, ""))).toBeGreaterThanOrEqual(allTime.aiCommands);
    await expect(page.getByRole("cell", { name: "@cf/meta/m2m100-1.2b" })).toBeVisible();
    await page.getByRole("tab", { name: "Prediction" }).click();
    await expect(page.getByText("We have not measured the accuracy of these suggestions")).toBeVisible();
    await expect(page.getByRole("link", { name: "Try it in the chat" })).toHaveAttribute("href", "/chat");
  });
});
