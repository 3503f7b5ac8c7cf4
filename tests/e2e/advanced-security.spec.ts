// The advanced security center in a real browser (issue 15, spec part 2 #6): a score from the account's real
// state that moves when a protection is switched on, and the security events of this account.
import { readFile } from "node:fs/promises";
import { acceptCookies, expect, latestOutboxMessage, test, verifyFreshPhone } from "./fixtures";

test("the score rises when stealth mode is turned on, and a sign-in elsewhere is listed as an event, without JavaScript", async ({
  browser,
  baseURL,
}) => {
  const desk = await browser.newContext({ javaScriptEnabled: false });
  await acceptCookies(desk, baseURL!);
  const { phone } = await verifyFreshPhone(desk.request, baseURL!);
  const page = await desk.newPage();
  await page.goto("/security-settings");
  await page.getByRole("link", { name: "Security score and events" }).click();
  await expect(page.getByRole("heading", { name: "Advanced Security" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Security score 13%" })).toBeVisible();
  await expect(page.getByText("No security events yet.")).toBeVisible();

  await page.getByRole("button", { name: "Turn on Stealth mode" }).click();
  await expect(page.getByRole("progressbar", { name: "Security score 25%" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off Stealth mode" })).toBeVisible();

  // The same phone proven in another browser: a new sign-in to this account.
  const other = await browser.newContext();
  const headers = { origin: baseURL! };
  const before = await latestOutboxMessage(other.request, phone.e164);
  expect((await other.request.post("/api/auth/register", { data: { phoneNumber: phone.local }, headers })).ok()).toBe(true);
  let code: string | undefined;
  await expect
    .poll(async () => {
      const body = await latestOutboxMessage(other.request, phone.e164);
      code = body && body !== before ? body.match(/\b(\d{6})\b/)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  expect((await other.request.post("/api/auth/verify", { data: { phoneNumber: phone.local, code }, headers })).ok()).toBe(true);
  await page.reload();
  await expect(page.getByRole("list", { name: "Security events" }).getByRole("listitem").first()).toContainText(
    "New sign-in to your account: A browser on the LinkUp web app",
  );
  for (const c of [desk, other]) await c.close();
});

// A wrong confirmation answers 400, which the browser logs as a failed load.
test.describe("my data", () => {
  test.use({ allowedConsoleErrors: [/status of 400/] });
  test("a person downloads their data, then deletes the account after typing the phrase", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    const { phone } = await verifyFreshPhone(context.request, baseURL!);
    await page.goto("/security-settings?tab=platform");
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download My Data" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("linkup-my-data.json");
    const data = JSON.parse(await readFile((await file.path())!, "utf8"));
    expect(data.profile.phone).toBe(phone.e164);
    expect(data.sessions).toHaveLength(1);

    const confirm = page.getByRole("textbox", { name: "Type DELETE MY ACCOUNT to confirm" });
    await confirm.fill("delete it");
    await page.getByRole("button", { name: "Delete My Account" }).click();
    await expect(page.getByText("Type DELETE MY ACCOUNT to confirm").first()).toBeVisible();
    expect((await context.request.get("/api/me")).status()).toBe(200);
    await page.getByRole("textbox", { name: "Type DELETE MY ACCOUNT to confirm" }).fill("DELETE MY ACCOUNT");
    await page.getByRole("button", { name: "Delete My Account" }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    expect((await context.request.get("/api/me")).status()).toBe(401);
  });
});
