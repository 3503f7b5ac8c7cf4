// A private group's signed membership in real browsers (docs/protocol.md §6a, docs/decisions/073-group-epochs.md):
// the owner's device signs in the person who accepted, the owner removes her from Group Info, and her browser
// reads no new message, even when the server lets her socket back into the room.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, executeOnServedD1, expect, test } from "./fixtures";

// The removed member's socket and requests are refused by the server: Chromium reports them as console errors.
const REFUSED = /WebSocket connection to .* failed|status of 403/;

async function person(browser: Browser, baseURL: string, nickname: string) {
  const at = { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
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

test("the owner removes a member of a private group; her browser reads no new message, even when the server lets her back in", async ({
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
  // Kemi is not near Jide: invited through the API by her id, as the form invites the people it lists.
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(owner.page).toHaveURL(/room=group/);
  const group = new URL(owner.page.url()).searchParams.get("room")!;
  const invited = await owner.context.request.post(`${baseURL}/api/rooms/${encodeURIComponent(group)}/invitations`, {
    data: { userIds: [kemi.user.id] },
    headers: { origin: baseURL! },
  });
  expect(invited.ok()).toBe(true);

  // Kemi accepts; the owner's device signs her in and says so before its sender key goes to her.
  await kemi.page.goto("/chat");
  await kemi.page.getByRole("list", { name: "Group invitations" }).getByRole("button", { name: "Accept invitation to Fishermen" }).click();
  await expect(kemi.page).toHaveURL(new RegExp(`room=${encodeURIComponent(group)}`));
  await expect(kemi.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(owner.page, "boats leave at five");
  await expect(owner.page.getByText("Kemi now receives the messages of this group.")).toBeVisible();
  await expect(bubble(kemi.page, "boats leave at five")).toBeVisible();

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
  await expect(bubble(kemi.page, "boats leave at five")).toBeVisible();
  await expect(bubble(kemi.page, "the catch sells at 9000 a basket")).toHaveCount(0);
  await expect(bubble(kemi.page, "new meeting point at the jetty")).toHaveCount(0);
  for (const f of kemi.frames) expect(f).not.toContain("9000 a basket");

  expect(owner.errors, "Jide's console").toEqual([]);
  expect(kemi.errors, "Kemi's console").toEqual([]);
  await owner.context.close();
  await kemi.context.close();
});
