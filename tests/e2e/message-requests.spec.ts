// Message requests in two real browsers (docs/decisions/050-consent-before-a-stranger-reaches-you.md): a stranger's
// direct chat waits in the recipient's chat list with Accept, Decline and Block; accepting lets the chat go both ways.
import { acceptCookies, expect, test } from "./fixtures";
import { bubble, openChat, person, send } from "./people";

test("a stranger's direct chat is a request: it shows with Accept, and accepting lets the chat go both ways", async ({
  browser,
  baseURL,
}) => {
  // Far apart (Sokoto and Calabar): no area room in common, and no group.
  const a = await person(browser, baseURL!, { latitude: 13.06, longitude: 5.24 }, "Hauwa");
  const b = await person(browser, baseURL!, { latitude: 4.95, longitude: 8.32 }, "Efe");
  // B has opened LinkUp once, so B's device has published the keys A seals to.
  await openChat(b.page);
  await openChat(a.page);
  expect(a.errors).toEqual([]);

  // A knows B's id (from a shared link, say) and opens a direct chat: a request.
  const opened = await a.context.request.post(`${baseURL}/api/rooms/dm`, { data: { userId: b.user.id } });
  expect(opened.status()).toBe(201);
  const dm = ((await opened.json()) as { room: { id: string } }).room.id;
  await openChat(a.page, `/chat?room=${encodeURIComponent(dm)}`);
  await expect(a.page.getByRole("status").filter({ hasText: "Message request sent." })).toBeVisible();
  expect(a.errors).toEqual([]);
  await send(a.page, "Hello, I found your stall on the market list");
  await expect(bubble(a.page, "I found your stall")).toBeVisible();
  // No ringing before consent, and none for someone without a verified phone: Efe has none, so no call button
  // (issue 32; the room refuses such a call anyway).
  await expect(a.page.getByRole("button", { name: "Voice call Efe" })).toHaveCount(0);
  expect(a.errors).toEqual([]);

  // B's chat list, rendered by the server: the request, clearly marked, with its answers.
  await openChat(b.page);
  const requests = b.page.getByRole("region", { name: "Message requests" });
  await expect(requests).toContainText("Hauwa wants to message you.");
  await expect(requests.getByRole("button", { name: "Accept message request from Hauwa" })).toBeVisible();
  await expect(requests.getByRole("button", { name: "Decline message request from Hauwa" })).toBeVisible();
  await expect(requests.getByRole("button", { name: "Block Hauwa" })).toBeVisible();
  await expect(b.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Hauwa.*Request/ })).toBeVisible();

  // B reads it first: the message is there, and what accepting means.
  await requests.getByRole("link", { name: "Read the message request from Hauwa" }).click();
  await expect(b.page).toHaveURL(/room=dm/);
  await expect(bubble(b.page, "I found your stall")).toBeVisible();
  const bar = b.page.getByRole("region", { name: "Message request from Hauwa" });
  await expect(bar).toContainText("Accept to reply");

  await bar.getByRole("button", { name: "Accept message request from Hauwa" }).click();
  await expect(bar).toHaveCount(0);
  await send(b.page, "Welcome, the stall opens at eight");
  await expect(bubble(a.page, "the stall opens at eight")).toBeVisible();

  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("before JavaScript, the request is shown by the server and Decline works as a plain form", async ({ browser, baseURL }) => {
  const a = await person(browser, baseURL!, { latitude: 12.0, longitude: 8.52 }, "Sani");
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await acceptCookies(context, baseURL!);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, { data: { nickname: "Ifeoma", onboardingCompleted: true } });
  const b = (await patched.json()).user as { id: string };
  const opened = await a.context.request.post(`${baseURL}/api/rooms/dm`, { data: { userId: b.id } });
  expect(opened.status()).toBe(201);

  const page = await context.newPage();
  await page.goto("/chat");
  // The only chat this person has opens on screen, marked as a request, with its answers.
  await expect(page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: "Sani · Request" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Message request from Sani" })).toContainText("Accept to reply");
  await page.getByRole("button", { name: "Decline message request from Sani" }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole("button", { name: "Decline message request from Sani" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Sani/ })).toHaveCount(0);
  // Declined: Sani cannot ask again for now, and is told so.
  const again = await a.context.request.post(`${baseURL}/api/rooms/dm`, { data: { userId: b.id } });
  expect(again.status()).toBe(403);
  expect(((await again.json()) as { error: string }).error).toMatch(/^They declined your message request\./);
  await a.context.close();
  await context.close();
});
