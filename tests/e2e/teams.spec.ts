// Enterprise teams in a real browser on a small phone (docs/decisions/067-enterprise-teams.md): an Enterprise owner
// starts a team and invites a person, who joins by the code and reads the team room; someone outside is refused;
// removing the member takes away the room, the seat and its features.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, expect, grantTier, latestOutboxMessage, signInAsAdmin, test, verifyFreshPhone } from "./fixtures";
import { bubble, racedStatement, send } from "./people";

// Small phone; the outsider's socket refused by the server is reported by Chromium as a console error.
const REFUSED_SOCKET = /WebSocket connection to .* failed|status of 403/;
test.use({ viewport: { width: 360, height: 640 } });
// Both tests sign in as the one admin phone, whose code a second sign-in at the same moment would replace.
test.describe.configure({ mode: "serial" });

// Everyone in one area, so each has an area room and the chat list to look at.
const at = { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };

async function person(browser: Browser, baseURL: string, nickname: string) {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, permissions: ["geolocation"], geolocation: at });
  await acceptCookies(context, baseURL);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const { user, phone } = await verifyFreshPhone(context.request, baseURL);
  const headers = { origin: baseURL };
  expect((await context.request.patch(`${baseURL}/api/me`, { data: { nickname, onboardingCompleted: true }, headers })).ok()).toBe(true);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && !REFUSED_SOCKET.test(m.text()) && !racedStatement(m) && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors, user, phone };
}

const fitsScreen = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test("an Enterprise owner invites a person who joins by the code and reads the team room; an outsider is refused; removal takes it all away", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await person(browser, baseURL!, "Ngozi");
  const member = await person(browser, baseURL!, "Amaka");
  const outsider = await person(browser, baseURL!, "Bola");
  const support = await browser.newContext();
  await signInAsAdmin(support.request, baseURL!);
  await grantTier(support.request, baseURL!, owner.user.id, "enterprise");

  // The owner finds the team page from Settings and starts a team.
  await owner.page.goto("/settings");
  await owner.page.getByRole("link", { name: "Team", exact: true }).click();
  await expect(owner.page).toHaveURL(/\/team$/);
  await owner.page.getByLabel("Team name").fill("Kano Growers");
  await owner.page.getByRole("button", { name: "Create team" }).click();
  await expect(owner.page.getByRole("heading", { name: "Kano Growers" })).toBeVisible();
  await expect(owner.page.getByText("1 of 6 seats used")).toBeVisible();
  await fitsScreen(owner.page);

  // An invitation without a phone: a code for whoever the owner gives it to.
  await owner.page.getByRole("button", { name: "Create invitation" }).click();
  const code = (await owner.page.getByRole("status").getByLabel("Invitation code").textContent()) ?? "";
  expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
  await expect(owner.page.getByText("2 of 6 seats used")).toBeVisible();

  // The person joins by the code and enters the team room.
  await member.page.goto("/team");
  await member.page.getByLabel("Invitation code").fill(code);
  await member.page.getByRole("button", { name: "Join team" }).click();
  await expect(member.page.getByText("Welcome to Kano Growers.")).toBeVisible();
  await fitsScreen(member.page);
  await member.page.getByRole("link", { name: "Open the team room" }).click();
  await expect(member.page).toHaveURL(/room=group/);
  const room = new URL(member.page.url()).searchParams.get("room")!;
  await expect(member.page.getByRole("heading", { name: "Kano Growers" })).toBeVisible();
  await expect(member.page.getByText("LIVE", { exact: true })).toBeVisible();
  // The team room is left with the team, so the chat offers the team page instead of "Leave group".
  await expect(member.page.getByRole("link", { name: "Team page: members and invitations" })).toBeVisible();
  await expect(member.page.getByRole("button", { name: "Leave group Kano Growers" })).toHaveCount(0);

  await owner.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(owner.page, "meeting at 4 at the depot");
  await expect(bubble(member.page, "meeting at 4 at the depot")).toBeVisible();

  // The seat gives the member the Enterprise tier.
  const memberSettings = await member.context.newPage();
  await memberSettings.goto("/settings?tab=premium");
  await expect(memberSettings.getByRole("heading", { name: "Enterprise Active" })).toBeVisible();
  await expect(memberSettings.getByText("Your Enterprise comes from your seat in a team")).toBeVisible();

  // Someone outside the team: no team room in their list, and the room's socket is refused by the server.
  await outsider.page.goto("/chat");
  await expect(outsider.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(outsider.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Kano Growers/ })).toHaveCount(0);
  const outcome = await outsider.page.evaluate(
    (id) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/rooms/${encodeURIComponent(id)}`);
        ws.onopen = () => resolve("entered");
        ws.onclose = () => resolve("refused");
      }),
    room,
  );
  expect(outcome).toBe("refused");
  expect((await outsider.context.request.get(`${baseURL}/api/rooms/${encodeURIComponent(room)}/members`)).status()).toBe(403);

  // The owner removes the member: the seat is free again.
  await owner.page.goto("/team");
  await owner.page.getByRole("button", { name: "Remove Amaka from the team" }).click();
  await expect(owner.page.getByText("1 of 6 seats used")).toBeVisible();
  await expect(owner.page.getByRole("button", { name: "Remove Amaka from the team" })).toHaveCount(0);

  // New team messages no longer reach them, now or after a reload.
  await owner.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(owner.page, "new price list after the change");
  await expect(bubble(owner.page, "new price list after the change").getByRole("img", { name: "Sent" })).toBeVisible();
  await member.page.goto("/chat");
  await expect(member.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(member.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Kano Growers/ })).toHaveCount(0);
  await member.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(bubble(member.page, "new price list after the change")).toHaveCount(0);

  // And the seat's features are gone.
  await memberSettings.goto("/settings?tab=premium");
  await expect(memberSettings.getByRole("heading", { name: "Go Premium" })).toBeVisible();
  await member.page.goto("/team");
  await expect(member.page.getByRole("heading", { name: "Join a team" })).toBeVisible();

  for (const p of [owner, member, outsider]) expect(p.errors).toEqual([]);
  for (const c of [owner.context, member.context, outsider.context, support]) await c.close();
});

// The "done when" (issue 33): two phones invited by number, one finding the invitation in the notification
// centre, the other in the WhatsApp message; both read the team room; the removed one reads no new message.
test("an Enterprise owner invites two phones by number; both join and read the team room; the removed one no longer reads new messages", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const owner = await person(browser, baseURL!, "Halima");
  const first = await person(browser, baseURL!, "Emeka");
  const second = await person(browser, baseURL!, "Funke");
  const support = await browser.newContext();
  await signInAsAdmin(support.request, baseURL!);
  await grantTier(support.request, baseURL!, owner.user.id, "enterprise");

  await owner.page.goto("/team");
  await owner.page.getByLabel("Team name").fill("Aba Weavers");
  await owner.page.getByRole("button", { name: "Create team" }).click();
  await expect(owner.page.getByRole("heading", { name: "Aba Weavers" })).toBeVisible();

  // Both invitations by phone number, as a person types it.
  for (const invitee of [first, second]) {
    await owner.page.getByLabel("Phone number (optional)").fill(invitee.phone.local);
    await owner.page.getByRole("button", { name: "Create invitation" }).click();
    await expect(owner.page.getByText(`For ${invitee.phone.e164}`)).toBeVisible();
  }
  await expect(owner.page.getByText("3 of 6 seats used")).toBeVisible();

  // The first finds it in the notification centre; its action opens /team with the code filled in.
  await first.page.goto("/notifications");
  const note = first.page.getByRole("listitem").filter({ hasText: "Aba Weavers" });
  await expect(note).toContainText("Halima invites you to the team Aba Weavers");
  await note.getByRole("link", { name: "Action" }).click();
  await expect(first.page).toHaveURL(/\/team\?code=/);
  await first.page.getByRole("button", { name: "Join team" }).click();
  await expect(first.page.getByText("Welcome to Aba Weavers.")).toBeVisible();

  // The second reads the code in the WhatsApp message and types it.
  const whatsapp = (await latestOutboxMessage(support.request, second.phone.e164)) ?? "";
  expect(whatsapp).toContain("Aba Weavers");
  const code = whatsapp.match(/\b([A-Z2-9]{5}-[A-Z2-9]{5})\b/)?.[1] ?? "";
  expect(code).not.toBe("");
  await second.page.goto("/team");
  await second.page.getByLabel("Invitation code").fill(code);
  await second.page.getByRole("button", { name: "Join team" }).click();
  await expect(second.page.getByText("Welcome to Aba Weavers.")).toBeVisible();

  // Both enter the team room and read the owner's message.
  let room = "";
  for (const invitee of [first, second]) {
    await invitee.page.getByRole("link", { name: "Open the team room" }).click();
    await expect(invitee.page).toHaveURL(/room=group/);
    room = new URL(invitee.page.url()).searchParams.get("room")!;
    await expect(invitee.page.getByText("LIVE", { exact: true })).toBeVisible();
  }
  await owner.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(owner.page, "looms arrive on Monday");
  for (const invitee of [first, second]) await expect(bubble(invitee.page, "looms arrive on Monday")).toBeVisible();

  // The owner removes the second; the first stays.
  await owner.page.goto("/team");
  await owner.page.getByRole("button", { name: "Remove Funke from the team" }).click();
  await expect(owner.page.getByText("2 of 6 seats used")).toBeVisible();

  // A new message reaches the one who stays, and not the one removed, whose open room was closed.
  await owner.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(owner.page, "new dye prices from Tuesday");
  await expect(bubble(first.page, "new dye prices from Tuesday")).toBeVisible();
  await expect(bubble(second.page, "new dye prices from Tuesday")).toHaveCount(0);
  await second.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(bubble(second.page, "new dye prices from Tuesday")).toHaveCount(0);
  await expect(second.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Aba Weavers/ })).toHaveCount(0);

  for (const p of [owner, first, second]) expect(p.errors).toEqual([]);
  for (const c of [owner.context, first.context, second.context, support]) await c.close();
});
