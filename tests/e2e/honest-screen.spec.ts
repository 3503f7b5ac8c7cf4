// "The screen tells the truth" (issue 12): the status strip and the bottom navigation's badges say only what
// is true of this device and this room.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, expect, MOBILE_UA, test } from "./fixtures";
import { place, send } from "./people";

/** A point of its own per test (about 100 km apart), so parallel tests never share an area room. */
// Going offline on purpose makes the browser log failed requests and sockets.
test.use({ allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED/, /net::ERR_FAILED/, /WebSocket connection to .* failed/] });

// A phone: the bottom navigation shows on narrow screens only.
const PHONE = { viewport: { width: 390, height: 844 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true };

async function person(browser: Browser, baseURL: string, at: { latitude: number; longitude: number }, nickname: string) {
  const context = await browser.newContext({ ...PHONE, permissions: ["geolocation"], geolocation: at });
  await acceptCookies(context, baseURL);
  const headers = { origin: baseURL };
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`, { headers })).ok()).toBe(true);
  expect((await context.request.put(`${baseURL}/api/me/location`, { data: at, headers })).ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, { data: { nickname, onboardingCompleted: true }, headers });
  expect(patched.ok()).toBe(true);
  const page = await context.newPage();
  return { context, page };
}

async function openChat(page: Page) {
  await page.goto("/chat");
  await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
}

const strip = (page: Page) => page.getByRole("status", { name: "Device status" });
const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Bottom navigation" }).getByRole("link", { name: new RegExp(`^${name}\\b`) });

test("the status strip says what is true: the browser's state for a visitor, the relay, people and outbox in the chat", async ({
  browser,
  baseURL,
}) => {
  // A visitor: no chat, no relay; the strip speaks of the browser's connection only, and of no signal.
  const visitor = await browser.newContext();
  const landing = await visitor.newPage();
  await landing.goto("/");
  await expect(strip(landing)).toContainText("Online");
  await expect(strip(landing)).not.toContainText("Mesh connected");
  await expect(strip(landing)).not.toContainText("Signal");
  await visitor.setOffline(true);
  await expect(strip(landing)).toContainText("Offline: no internet connection");
  await visitor.close();

  // In the chat: the room's relay, the people in it, and what waits in the outbox.
  const at = place();
  const a = await person(browser, baseURL!, at, "Ada");
  const b = await person(browser, baseURL!, at, "Bayo");
  await openChat(a.page);
  await expect(strip(a.page)).toContainText("Relay connected");
  await expect(strip(a.page)).toContainText("1 person here");
  await openChat(b.page);
  await expect(strip(a.page)).toContainText("2 people here");
  await expect(a.page.locator(".node-count")).toHaveText("2 nodes");
  await expect(strip(a.page)).not.toContainText("Signal");

  await a.context.setOffline(true);
  await expect(a.page.getByText("OFFLINE", { exact: true })).toBeVisible();
  await expect(strip(a.page)).toContainText("Relay not connected");
  await expect(strip(a.page)).not.toContainText("Mesh connected");
  await send(a.page, "Waiting for the network");
  await expect(strip(a.page)).toContainText("1 message waiting to send");
  await a.context.setOffline(false);
  await expect(strip(a.page)).toContainText("Relay connected");
  await expect(strip(a.page)).not.toContainText("waiting to send");
  await a.context.close();
  await b.context.close();
});

test("badges count what their tab shows: unread chat messages, the room's people, unread notifications", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Chioma");
  const b = await person(browser, baseURL!, at, "Danjuma");
  await openChat(a.page);
  await openChat(b.page);
  // The Mesh tab agrees with the chat header's node count.
  await expect(a.page.locator(".node-count")).toHaveText("2 nodes");
  await expect(tab(a.page, "Mesh")).toHaveAccessibleName("Mesh 2 people here");
  await expect(tab(a.page, "Chat")).toHaveAccessibleName("Chat");

  // Away from the chat, messages arriving in the room count on the Chat tab.
  await tab(a.page, "Settings").click();
  await expect(a.page).toHaveURL(/\/settings/);
  await send(b.page, "First news");
  await send(b.page, "Second news");
  await expect(tab(a.page, "Chat")).toHaveAccessibleName("Chat 2 unread messages");
  // A reload keeps the count (this device still holds them unread); a notification counts on the header's bell,
  // not on Chat.
  const sos = await b.context.request.post(`${baseURL}/api/emergency/broadcast`, {
    data: { message: "Flood on the main road", emergencyType: "other", location: at, clientRequestId: `sos-${Date.now()}` },
    headers: { origin: baseURL! },
  });
  expect(sos.ok()).toBe(true);
  await a.page.reload();
  await expect(a.page.locator(".site-header").getByRole("link", { name: /^Notifications/ })).toHaveAccessibleName(
    /^Notifications\s*1 unread$/,
  );
  await expect(tab(a.page, "Chat")).toHaveAccessibleName("Chat 3 unread messages");

  // Opening the chat reads them: the badge goes.
  await tab(a.page, "Chat").click();
  await expect(a.page.getByRole("listitem").filter({ hasText: "Second news" })).toBeVisible();
  await expect(tab(a.page, "Chat")).toHaveAccessibleName("Chat");
  await a.context.close();
  await b.context.close();
});

test("a private chat starts from a sender's name or the people list, and an online person is not called absent", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Efe");
  const b = await person(browser, baseURL!, at, "Funmi");
  await openChat(a.page);
  await openChat(b.page);
  await send(b.page, "Anyone selling yam?");

  // The people list is one tap away: the header's node count.
  await a.page.getByRole("button", { name: /^People here: 2 nodes/ }).click();
  const people = a.page.getByRole("dialog", { name: "People here" });
  await expect(people.getByRole("button", { name: "Message Funmi" })).toBeVisible();
  await people.getByRole("button", { name: "Close" }).click();

  // Tapping a sender's name offers a private chat with them.
  const bubble = a.page.getByRole("listitem").filter({ hasText: "Anyone selling yam?" });
  await bubble.getByRole("button", { name: "Funmi" }).click();
  await bubble.getByRole("button", { name: "Message Funmi" }).click();
  await expect(a.page).toHaveURL(/room=dm%3A/);
  await expect(a.page.getByRole("heading", { level: 1, name: "Funmi" })).toBeVisible();
  // Funmi is still in the area room, not in this chat: she is online, not absent.
  await expect(a.page.getByText("Online nearby (in your area room)")).toBeVisible();
  await expect(a.page.getByText("Not in this chat right now")).toHaveCount(0);
  await a.context.close();
  await b.context.close();
});
