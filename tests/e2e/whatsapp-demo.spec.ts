// /whatsapp-demo in a real browser against the built Worker: the page explains the bot and, locally, chats with
// the real webhook (each message signed like Twilio signs it); later messages come from the dev outbox.
import { expect, test } from "./fixtures";

test("chats with the WhatsApp bot locally: HELP, a question, a shared location and an SOS with its later report", async ({ page }) => {
  const phone = `+234803${String(Date.now()).slice(-7)}`;
  await page.goto("/whatsapp-demo");
  await expect(page.getByRole("heading", { name: "LinkUp on WhatsApp" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "SOS <what happened>" })).toBeVisible();

  await page.getByLabel("Your phone number").fill(phone);
  await page.getByRole("button", { name: "HELP" }).click();
  await expect(page.getByText("LinkUp on WhatsApp:", { exact: false }).last()).toBeVisible();
  await expect(page.locator(".msg-theirs").first()).toContainText("STOP / START");

  await page.getByLabel("Message").fill("@ai translate good morning to hausa");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.locator(".msg-theirs").first()).toHaveText(/Hausa: Barka da safiya/);

  await page.getByRole("button", { name: "Share location" }).click();
  await expect(page.locator(".msg-theirs").first()).toContainText("Location saved");

  await page.getByLabel("Message").fill("SOS fire near the market");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.locator(".msg-theirs").first()).toContainText("Sending your SOS now");
  // The reach report is sent afterwards (REST path, dev outbox locally).
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByText(/SOS sent\. Nearby with LinkUp open or by push alert: \d+/)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
});

test("a location shared first goes from the phone number typed, so the SOS after it leaves at once", async ({ page }) => {
  const phone = `+234803${String(Date.now() + 1).slice(-7)}`;
  await page.goto("/whatsapp-demo");
  await page.getByLabel("Your phone number").fill(phone);
  await page.getByRole("button", { name: "Share location" }).click();
  await expect(page.locator(".msg-theirs").first()).toContainText("Location saved");
  await expect(page.getByRole("heading", { name: `Later messages to ${phone}` })).toBeVisible();

  await page.getByLabel("Message").fill("SOS a man collapsed at the bus stop");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.locator(".msg-theirs").first()).toContainText("Sending your SOS now");
});
