// The advanced security center in a real browser (issue 15, docs/product/security.md): a score from the account's real
// state that moves when a protection is switched on, and the security events of this account.
import { readFile } from "node:fs/promises";
import { acceptCookies, expect, latestOutboxMessage, test, verifyFreshPhone, withAppLockAndPanicCode } from "./fixtures";

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

test("a person adds a passkey with the phone's authenticator, signs in with it as the second factor, and removes it", async ({
  browser,
  baseURL,
}) => {
  // WebAuthn refuses an IP address as the relying party: the same server, reached by name.
  const site = baseURL!.replace("127.0.0.1", "localhost");
  const context = await browser.newContext({ baseURL: site });
  await acceptCookies(context, site);
  const { phone } = await verifyFreshPhone(context.request, site);
  const page = await context.newPage();
  // Chromium's virtual authenticator stands in for the phone's fingerprint sensor (CDP WebAuthn domain).
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto("/security-settings?tab=biometric");
  await page.getByRole("textbox", { name: "Passkey name" }).fill("Ngozi's phone");
  await page.getByRole("button", { name: "Add a Passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey added. Each new sign-in will ask for it." })).toBeVisible();
  await expect(page.getByRole("list", { name: "Passkeys" }).getByRole("listitem")).toHaveText([/Ngozi's phone/]);
  await page.goto("/advanced-security");
  await expect(page.getByRole("progressbar", { name: "Security score 25%" })).toBeVisible();

  // Signed out, the phone code alone is not enough: the passkey finishes the sign-in.
  expect((await context.request.post("/api/auth/logout", { headers: { origin: site } })).ok()).toBe(true);
  const before = await latestOutboxMessage(context.request, phone.e164);
  await page.goto("/signup-verification?step=verify-phone");
  await page.getByRole("textbox", { name: "Phone number" }).fill(phone.local);
  await page.getByRole("button", { name: "Send Code" }).click();
  let code: string | undefined;
  await expect
    .poll(async () => {
      const body = await latestOutboxMessage(context.request, phone.e164);
      code = body && body !== before ? body.match(/\b(\d{6})\b/)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  await page.getByRole("textbox", { name: "Verification code" }).fill(code!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/two-factor\?next=%2Fchat$/);
  expect((await context.request.get("/api/me")).status()).toBe(401);
  await page.getByRole("button", { name: "Use Passkey" }).click();
  await expect(page).toHaveURL(/\/chat$/);
  expect((await context.request.get("/api/me")).status()).toBe(200);

  await page.goto("/security-settings?tab=biometric");
  await expect(page.getByText(/last used/)).toBeVisible();
  await page.getByRole("button", { name: "Remove passkey Ngozi's phone" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey removed." })).toBeVisible();
  await expect(page.getByRole("list", { name: "Passkeys" })).toHaveCount(0);
  await context.close();
});

test("the app lock asks for the device PIN after the chosen idle time, and a wrong PIN does not open it", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  await verifyFreshPhone(context.request, baseURL!);
  await page.goto("/security-settings?tab=biometric");
  await page.getByRole("combobox", { name: "Auto-lock after" }).selectOption("1");
  await page.getByLabel("PIN for this device (4 to 8 digits)").fill("2580");
  await page.getByRole("button", { name: "Save App Lock" }).click();
  await expect(page.getByRole("status").filter({ hasText: "App lock is on: after 1 minute without use." })).toBeVisible();
  // No stored value is the code itself (a bare number may still turn up inside a timestamp or a hash).
  expect(await page.evaluate(() => Object.values(localStorage).some((v) => v === "2580" || v.includes('"2580"')))).toBe(false);

  // Two minutes without use, as the clock on this device sees it.
  await page.evaluate(() => localStorage.setItem("linkup-last-active", String(Date.now() - 2 * 60_000)));
  await page.goto("/chat");
  const lock = page.getByRole("dialog", { name: "LinkUp is locked" });
  await expect(lock).toBeVisible();
  await lock.getByLabel("PIN", { exact: true }).fill("1111");
  await lock.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(lock.getByRole("alert")).toHaveText("Wrong PIN. Please try again.");
  await expect(lock).toBeVisible();
  await lock.getByLabel("PIN", { exact: true }).fill("2580");
  await lock.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(lock).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("dialog", { name: "LinkUp is locked" })).toHaveCount(0);
});

/** A verified person with a PIN and the panic code 9999 on this device, active now (so the lock stays away). */
async function withPanicCode(page: import("@playwright/test").Page, context: import("@playwright/test").BrowserContext, baseURL: string) {
  await withAppLockAndPanicCode(page, context, baseURL);
  // Everything the page sends: request URLs and bodies, and WebSocket frames, searched for the code as a whole value.
  const sent: string[] = [];
  page.on("request", (r) => sent.push(r.url(), r.postData() ?? ""));
  page.on("websocket", (ws) => ws.on("framesent", (f) => sent.push(String(f.payload))));
  return sent;
}

/** Whether the code went out as a whole value: a form field, a query parameter or a JSON string. */
function leaked(sent: string[], code: string): boolean {
  const hasValue = (v: unknown): boolean =>
    typeof v === "string" ? v.trim() === code : v && typeof v === "object" ? Object.values(v).some(hasValue) : false;
  return sent.some((s) => {
    if (/^https?:/.test(s) && [...new URL(s).searchParams.values()].some((v) => v.trim() === code)) return true;
    try {
      return hasValue(JSON.parse(s));
    } catch {
      return [...new URLSearchParams(s).values()].some((v) => v.trim() === code);
    }
  });
}

async function expectWiped(page: import("@playwright/test").Page, context: import("@playwright/test").BrowserContext, baseURL: string) {
  await expect(page).toHaveURL(`${baseURL}/`);
  expect((await context.request.get("/api/me")).status()).toBe(401);
  await expect
    .poll(() =>
      page.evaluate(async () => ({
        databases: (await indexedDB.databases()).map((d) => d.name).filter((n) => n?.startsWith("linkup")),
        local: Object.keys(localStorage).filter((k) => k.startsWith("linkup-") && k !== "linkup-cookies-accepted"),
      })),
    )
    .toEqual({ databases: [], local: [] });
}

test.describe("the panic code", () => {
  // The wipe ends the device on the server while the chat may still be checking that device's prekeys: that one
  // check answers 404 (nothing is lost: the device is gone).
  test.use({ allowedConsoleErrors: [/status of 404 .*\/api\/keys\/[^/]+\/prekeys$/] });

  test("the panic code typed at the app lock wipes the device and signs it out", async ({ page, context, baseURL }) => {
    await withAppLockAndPanicCode(page, context, baseURL!);
    // No stored value is the code itself (a bare number may still turn up inside a timestamp or a hash).
    expect(await page.evaluate(() => Object.values(localStorage).some((v) => v === "9999" || v.includes('"9999"')))).toBe(false);

    await page.evaluate(() => localStorage.setItem("linkup-last-active", String(Date.now() - 60 * 60_000)));
    await page.goto("/chat");
    const lock = page.getByRole("dialog", { name: "LinkUp is locked" });
    await lock.getByLabel("PIN", { exact: true }).fill("9999");
    await lock.getByRole("button", { name: "Unlock", exact: true }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    expect((await context.request.get("/api/me")).status()).toBe(401);
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("linkup-") && k !== "linkup-cookies-accepted")))
      .toEqual([]);
  });

  test("the panic code typed into the chat's message box wipes the device instead of being sent", async ({ page, context, baseURL }) => {
    const sent = await withPanicCode(page, context, baseURL!);
    // A town gives the person their area room to write in.
    const headers = { origin: baseURL! };
    expect((await context.request.patch("/api/me", { data: { locationText: "Ikeja" }, headers })).ok()).toBe(true);
    expect((await context.request.post("/api/rooms/nearby/join", { headers })).ok()).toBe(true);
    await page.goto("/chat");
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
    // An ordinary message still goes out, so the check below is about the code, not a silent box.
    // Letters only, unique per run: the area room keeps earlier runs' messages, and no digit may look like the code.
    const hello = `hello ${Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
    await page.getByRole("textbox", { name: "Message" }).fill(hello);
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    await expect(page.getByRole("listitem").filter({ hasText: hello })).toBeVisible();
    await expect.poll(() => sent.some((s) => s.includes(hello))).toBe(true);

    await page.getByRole("textbox", { name: "Message" }).fill("9999");
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    await expectWiped(page, context, baseURL!);
    expect(leaked(sent, "9999")).toBe(false);
  });

  test("the panic code typed into the search box wipes the device instead of searching", async ({ page, context, baseURL }) => {
    const sent = await withPanicCode(page, context, baseURL!);
    await page.goto("/faq");
    const search = page.getByRole("searchbox", { name: "Search questions" });
    // Another number is searched as usual.
    await search.fill("1234");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/[?&]q=1234/);
    await page.getByRole("searchbox", { name: "Search questions" }).fill("9999");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expectWiped(page, context, baseURL!);
    expect(leaked(sent, "9999")).toBe(false);
  });
});
