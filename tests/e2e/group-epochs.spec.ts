// A private group's signed membership in real browsers (docs/protocol.md §6a, docs/decisions/073-group-epochs.md,
// 081-no-silent-join.md): an invitation made in the app lets the person in once they accept; someone the server
// puts in the group on its own gets nothing until the owner presses "Let in"; the owner removes her from Group
// Info, and her browser reads no new message, even when the server lets her socket back into the room.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, executeOnServedD1, expect, test } from "./fixtures";

// The removed member's socket and requests are refused by the server: Chromium reports them as console errors.
const REFUSED = /WebSocket connection to .* failed|status of 403/;

type Place = { latitude: number; longitude: number };
const somewhere = (): Place => ({ latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 });

async function person(browser: Browser, baseURL: string, nickname: string, at: Place = somewhere()) {
  const context = await browser.newContext({ permissions: ["geolocation"], geolocation: at });
  await acceptCookies(context, baseURL);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, { data: { nickname, onboardingCompleted: true } });
  expect(patched.ok()).toBe(true);
  const user = (await patched.json()).user as { id: string };
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && !REFUSED.test(m.text()) && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  const frames: string[] = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => frames.push(String(f.payload))));
  return { context, page, user, errors, frames };
}

async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
}

/** The message left the device (receipts may have moved it on to delivered or read). */
const LEFT = /^(Sent|Delivered|Read)$/;

const bubble = (page: Page, text: string) => page.getByRole("listitem").filter({ hasText: text });

test("an invitation made in the app lets the person in once they accept, with no Let in asked", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const here = somewhere();
  const owner = await person(browser, baseURL!, "Jide", here);
  const kemi = await person(browser, baseURL!, "Kemi", here);
  for (const p of [owner, kemi]) {
    await p.page.goto("/chat");
    await expect(p.page.getByText("LIVE", { exact: true })).toBeVisible();
  }
  await expect(owner.page.getByText("2 nodes")).toBeVisible();
  // Jide invites Kemi from the New Group form: his device signs the invitation.
  await owner.page.getByLabel("More options").click();
  await owner.page.getByRole("button", { name: "New Group" }).click();
  const form = owner.page.getByRole("form", { name: "New group" });
  await form.getByLabel("Group name").fill("Net menders");
  await form.getByRole("checkbox", { name: "Kemi" }).check();
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(owner.page).toHaveURL(/room=group/);
  const group = new URL(owner.page.url()).searchParams.get("room")!;
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();

  await kemi.page.reload();
  await kemi.page
    .getByRole("list", { name: "Group invitations" })
    .getByRole("button", { name: "Accept invitation to Net menders" })
    .click();
  await expect(kemi.page).toHaveURL(new RegExp(`room=${encodeURIComponent(group)}`));
  await expect(kemi.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(owner.page, "bring the blue thread");
  await expect(owner.page.getByText("Kemi now receives the messages of this group.")).toBeVisible();
  await expect(bubble(kemi.page, "bring the blue thread")).toBeVisible();
  await expect(owner.page.getByText(/wants to join/)).toHaveCount(0);
  await expect(owner.page.getByRole("button", { name: "Let Kemi in" })).toHaveCount(0);

  expect(owner.errors, "Jide's console").toEqual([]);
  expect(kemi.errors, "Kemi's console").toEqual([]);
  await owner.context.close();
  await kemi.context.close();
});

test("someone the server adds gets nothing until the owner lets her in; removed, her browser reads no new message, even when the server lets her back in", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const owner = await person(browser, baseURL!, "Jide");
  const kemi = await person(browser, baseURL!, "Kemi");
  await owner.page.goto("/chat");
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();

  await owner.page.getByLabel("More options").click();
  await owner.page.getByRole("button", { name: "New Group" }).click();
  const form = owner.page.getByRole("form", { name: "New group" });
  await form.getByLabel("Group name").fill("Fishermen");
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(owner.page).toHaveURL(/room=group/);
  const group = new URL(owner.page.url()).searchParams.get("room")!;
  await expect(owner.page.getByText("LIVE", { exact: true })).toBeVisible();

  // Nobody invited Kemi: the server puts her in the group on its own (as a malicious server could).
  await executeOnServedD1(`INSERT INTO room_members (room_id, user_id, role) VALUES ('${group}', '${kemi.user.id}', 'member')`);
  await kemi.page.goto(`/chat?room=${encodeURIComponent(group)}`);
  await expect(kemi.page.getByText("LIVE", { exact: true })).toBeVisible();
  const joinedAt = kemi.frames.length;
  await send(owner.page, "boats leave at five");
  // The owner's chat asks; nothing is sealed to her meanwhile.
  await expect(owner.page.getByText("Kemi wants to join this group. They get nothing until you let them in.")).toBeVisible();
  await expect(bubble(owner.page, "boats leave at five").getByRole("img", { name: LEFT })).toBeVisible();
  await expect.poll(() => kemi.frames.slice(joinedAt).some((f) => f.includes(group) && f.includes("ciphertext"))).toBe(true);
  expect(kemi.frames.slice(joinedAt).some((f) => f.includes('"type":"key"') && f.includes(kemi.user.id))).toBe(false);
  await expect(bubble(kemi.page, "boats leave at five")).toHaveCount(0);
  await expect(owner.page.getByText("Kemi now receives the messages of this group.")).toHaveCount(0);

  // Jide presses Let in: his device signs her in, says so, and only then hands her its key.
  await owner.page.getByRole("button", { name: "Let Kemi in" }).click();
  await expect(owner.page.getByText("You let Kemi in.")).toBeVisible();
  await expect(owner.page.getByRole("button", { name: "Let Kemi in" })).toHaveCount(0);
  await send(owner.page, "nets mended by noon");
  await expect(owner.page.getByText("Kemi now receives the messages of this group.")).toBeVisible();
  await expect(bubble(kemi.page, "nets mended by noon")).toBeVisible();
  await expect(bubble(kemi.page, "boats leave at five")).toHaveCount(0);

  // The owner removes her from Group Info.
  await owner.page.getByLabel("More options").click();
  await owner.page.getByRole("button", { name: "Group Info" }).click();
  const info = owner.page.getByRole("dialog", { name: "Group Info" });
  await info.getByRole("button", { name: "Remove Kemi" }).click();
  await expect(info.getByRole("list", { name: "Members" })).not.toContainText("Kemi");
  await info.getByRole("button", { name: "Close" }).click();
  await send(owner.page, "new meeting point at the jetty");
  await expect(bubble(owner.page, "new meeting point at the jetty").getByRole("img", { name: LEFT })).toBeVisible();
  await kemi.page.goto("/chat");
  await expect(kemi.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Fishermen/ })).toHaveCount(0);

  // The server puts her back in the room (as a malicious server could): her socket gets the room's envelopes,
  // but the owner's device signs her nothing, says so, and seals under a key she never received.
  await executeOnServedD1(`INSERT INTO room_members (room_id, user_id, role) VALUES ('${group}', '${kemi.user.id}', 'member')`);
  await kemi.page.goto(`/chat?room=${encodeURIComponent(group)}`);
  await expect(kemi.page.getByText("LIVE", { exact: true })).toBeVisible();
  const framesBefore = kemi.frames.length;
  await send(owner.page, "the catch sells at 9000 a basket");
  await expect(owner.page.getByText("The server lists Kemi in this group again after they were removed; they get nothing.")).toBeVisible();
  await expect(bubble(owner.page, "the catch sells at 9000 a basket").getByRole("img", { name: LEFT })).toBeVisible();
  // Her browser has the envelope (ciphertext) and cannot open it; the message after her removal stays closed too.
  await expect.poll(() => kemi.frames.slice(framesBefore).some((f) => f.includes(group) && f.includes("ciphertext"))).toBe(true);
  await kemi.page.reload();
  await expect(kemi.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(bubble(kemi.page, "nets mended by noon")).toBeVisible();
  await expect(bubble(kemi.page, "the catch sells at 9000 a basket")).toHaveCount(0);
  await expect(bubble(kemi.page, "new meeting point at the jetty")).toHaveCount(0);
  for (const f of kemi.frames) expect(f).not.toContain("9000 a basket");

  expect(owner.errors, "Jide's console").toEqual([]);
  expect(kemi.errors, "Kemi's console").toEqual([]);
  await owner.context.close();
  await kemi.context.close();
});
