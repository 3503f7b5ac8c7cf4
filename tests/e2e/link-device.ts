// Linking a second browser of the same person from the first, as a person does it on /security-settings
// (docs/protocol.md §2a): the code read off the old device, typed on the new one, the digits compared, and yes.
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export async function linkSecondDevice(oldPage: Page, newPage: Page): Promise<void> {
  await oldPage.goto("/security-settings?tab=authentication");
  await newPage.goto("/security-settings?tab=authentication");
  await oldPage.getByRole("button", { name: "Link a new device" }).click();
  const shown = oldPage.getByRole("region", { name: "Code for your new device" });
  await expect(shown.getByRole("img", { name: "QR code that opens the link page with this code" })).toBeVisible();
  const code = (await shown.locator("code").textContent()) ?? "";
  expect(code).toMatch(/^([0-9A-Z]{4} ){3}[0-9A-Z]{4}$/);
  await fitsTheScreen(oldPage);

  const here = newPage.getByRole("region", { name: "Link this device" });
  await expect(here).toBeVisible();
  await fitsTheScreen(newPage);
  await here.getByRole("textbox", { name: "Code from your other device" }).fill(code.toLowerCase());
  await here.getByRole("button", { name: "Link this device" }).click();
  const waiting = here.getByRole("status");
  await expect(waiting).toContainText("It should show:");
  const digits = (await waiting.locator("code").textContent()) ?? "";
  expect(digits).toMatch(/^\d{4} \d{4}$/);

  const confirm = oldPage.getByRole("group", { name: "Confirm the new device" });
  await expect(confirm.locator("code")).toHaveText(digits);
  await confirm.getByRole("button", { name: "Yes, link it" }).click();
  await expect(oldPage.getByText("Linked. Your new device can now read and send your private chats.")).toBeVisible();
  await expect(newPage.getByText("This device is linked. Your private chats open here now.")).toBeVisible();
}

/** Every control of the linking screens fits a 360-pixel-wide screen: nothing wider than the viewport. */
export async function fitsTheScreen(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const section = page.getByRole("region", { name: /Code for your new device|Link this device/ }).first();
  const box = await section.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}
