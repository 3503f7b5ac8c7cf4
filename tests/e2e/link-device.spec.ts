// Linking a second device (issue 30, docs/protocol.md §2a): a person's second browser, linked from the first by
// its code, reads and sends in a private chat that existed before; the contact is shown the new device in the chat
// before the first message sealed to it. A code typed wrong links nothing.
import { expect, test } from "./fixtures";
import { linkSecondDevice } from "./link-device";
import { bubble, openChat, person, place, send, watchErrors as watch } from "./people";

/** Aisha's browsers are small phones (360×640): the linking screens fit them. */
const PHONE = { width: 360, height: 640 };

test("a second browser linked by its code reads and sends in an existing private chat; the contact sees the new device first", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const at = place();
  const a = await person(browser, baseURL!, at, "Chidi");
  const b = await person(browser, baseURL!, at, "Aisha", PHONE);
  await openChat(a.page);
  await openChat(b.page);
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Add Contact" }).click();
  await a.page.getByRole("button", { name: "Message Aisha" }).click();
  await expect(a.page).toHaveURL(/room=dm/);
  const dm = new URL(a.page.url()).searchParams.get("room")!;
  await send(a.page, "before the laptop 1101");
  await openChat(b.page, `/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "before the laptop 1101")).toBeVisible();
  await send(b.page, "hello from my phone 1102");
  await expect(bubble(a.page, "hello from my phone 1102")).toBeVisible();

  // Aisha signs in on a second browser (a device with keys of its own). Not linked yet, it cannot send.
  const second = await browser.newContext({ permissions: ["geolocation"], geolocation: at, viewport: PHONE });
  await second.addCookies(await b.context.cookies());
  const b2 = await second.newPage();
  const b2Errors: string[] = [];
  watch(b2, b2Errors);
  await openChat(b2, `/chat?room=${encodeURIComponent(dm)}`);
  await send(b2, "too early 2202");
  await expect(bubble(b2, "too early 2202")).toContainText("not linked to your account yet");
  await expect(bubble(a.page, "too early 2202")).toHaveCount(0);

  // A code typed wrong links nothing, and says so.
  await b2.goto("/security-settings?tab=authentication");
  const here = b2.getByRole("region", { name: "Link this device" });
  await here.getByRole("textbox", { name: "Code from your other device" }).fill("ZZZZ ZZZZ ZZZZ ZZZZ");
  await here.getByRole("button", { name: "Link this device" }).click();
  await expect(here.getByRole("alert")).toHaveText("This code has expired or was already used. Start again with a new code.");

  await linkSecondDevice(b.page, b2);
  expect((await (await a.context.request.get(`${baseURL}/api/keys/${b.user.id}`)).json()).list.devices).toHaveLength(2);

  // Chidi's next message: the chat says Aisha has a new device before the message it is sealed to.
  await send(a.page, "for both of your devices 3303");
  const notice = a.page.getByRole("listitem").filter({ hasText: "Aisha has a new device that now receives this chat" });
  await expect(notice).toBeVisible();
  const items = await a.page.getByRole("list", { name: "Messages" }).getByRole("listitem").allTextContents();
  const noticeAt = items.findIndex((t) => t.includes("Aisha has a new device"));
  expect(noticeAt).toBeGreaterThanOrEqual(0);
  expect(noticeAt).toBeLessThan(items.findIndex((t) => t.includes("for both of your devices 3303")));

  // The linked browser reads it and answers; the message it waited with leaves too.
  await openChat(b2, `/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b2, "for both of your devices 3303")).toBeVisible();
  await expect(bubble(b2, "for both of your devices 3303").getByRole("img", { name: "Encrypted" })).toBeVisible();
  await send(b2, "from my laptop 4404");
  await expect(bubble(a.page, "from my laptop 4404")).toBeVisible();
  await expect(bubble(a.page, "from my laptop 4404").getByRole("img", { name: "Encrypted" })).toBeVisible();
  // Her first browser reads what the second sent (a device's own other devices are sealed to).
  await openChat(b.page, `/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "from my laptop 4404")).toBeVisible();

  // The second browser holds the account key now: it can link a third.
  await b2.goto("/security-settings?tab=authentication");
  await expect(b2.getByRole("button", { name: "Link a new device" })).toBeVisible();
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  expect(b2Errors.filter((e) => !/Failed to load resource.*404/.test(e))).toEqual([]);
  await a.context.close();
  await b.context.close();
  await second.close();
});
