// The account merge cannot walk around the second factor (issue 27, finding 1; docs/decisions/046): a victim's
// phone code in an attacker's hands signs no browser in as the victim, whichever way the attacker types it.
import type { APIRequestContext } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { acceptCookies, expect, latestOutboxMessage, test, verifyFreshPhone } from "./fixtures";

/** Turns two-factor on for the person signed in on `request`, as the security settings screen does. */
async function enableTwoFactor(request: APIRequestContext, baseURL: string) {
  const headers = { origin: baseURL };
  const setup = await (await request.post("/api/security/two-factor/setup", { data: {}, headers })).json();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.setup.secret), digits: 6, period: 30 });
  expect((await request.post("/api/security/two-factor/enable", { data: { code: totp.generate() }, headers })).ok()).toBe(true);
}

/** A new code for `phone`, as the attacker reads it off the intercepted message. */
async function newCode(request: APIRequestContext, phone: string, before: string | undefined) {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const body = await latestOutboxMessage(request, phone);
      code = body && body !== before ? body.match(/\b(\d{6})\b/)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code as string;
}

// The refused replay answers 400, which the browser logs as a failed load.
test.use({ allowedConsoleErrors: [/status of 400/] });

test("a victim's phone code signs no browser in as the victim, with two browsers and a second factor", async ({ browser, baseURL }) => {
  const site = baseURL!;
  const headers = { origin: site };
  const victimContext = await browser.newContext();
  await acceptCookies(victimContext, site);
  const victim = await verifyFreshPhone(victimContext.request, site);
  await enableTwoFactor(victimContext.request, site);

  // Browser 1, anonymous, asks for a code to the victim's phone through the sign-up screen; the code is intercepted.
  const one = await browser.newContext();
  await acceptCookies(one, site);
  const page1 = await one.newPage();
  const before = await latestOutboxMessage(one.request, victim.phone.e164);
  await page1.goto("/signup-verification?step=verify-phone");
  await page1.getByRole("textbox", { name: "Phone number" }).fill(victim.phone.local);
  await page1.getByRole("button", { name: "Send Code" }).click();
  const stolen = await newCode(one.request, victim.phone.e164, before);

  // Browser 1 then verifies the attacker's own number; browser 2 signs in to the attacker's account.
  const attacker = await verifyFreshPhone(one.request, site);
  const two = await browser.newContext();
  await acceptCookies(two, site);
  const page2 = await two.newPage();
  const prior = await latestOutboxMessage(two.request, attacker.phone.e164);
  await page2.goto("/signup-verification?step=verify-phone");
  await page2.getByRole("textbox", { name: "Phone number" }).fill(attacker.phone.local);
  await page2.getByRole("button", { name: "Send Code" }).click();
  await page2.getByRole("textbox", { name: "Verification code" }).fill(await newCode(two.request, attacker.phone.e164, prior));
  await page2.getByRole("button", { name: "Verify" }).click();
  await expect(page2).not.toHaveURL(/signup-verification/);

  // The stolen code, typed in browser 1: refused, and neither browser is the victim.
  const replay = await one.request.post("/api/auth/verify", { data: { phoneNumber: victim.phone.local, code: stolen }, headers });
  expect(replay.status()).toBe(400);
  for (const context of [one, two]) {
    const me = await (await context.request.get("/api/me")).json();
    expect(me.user.id).toBe(attacker.user.id);
    expect(me.user.phone).toBe(attacker.phone.e164);
  }
  await page2.goto("/settings");
  await expect(page2.getByText(victim.phone.e164)).toHaveCount(0);

  // A fresh anonymous browser typing a new code of the victim's phone reaches only the second-factor screen.
  const three = await browser.newContext();
  await acceptCookies(three, site);
  const page3 = await three.newPage();
  const last = await latestOutboxMessage(three.request, victim.phone.e164);
  await page3.goto("/signup-verification?step=verify-phone");
  await page3.getByRole("textbox", { name: "Phone number" }).fill(victim.phone.local);
  await page3.getByRole("button", { name: "Send Code" }).click();
  await page3.getByRole("textbox", { name: "Verification code" }).fill(await newCode(three.request, victim.phone.e164, last));
  await page3.getByRole("button", { name: "Verify" }).click();
  await expect(page3).toHaveURL(/\/two-factor/);
  expect((await three.request.get("/api/me")).status()).toBe(401);

  // The victim is still signed in as themselves, with one session: theirs.
  const sessions = await (await victimContext.request.get("/api/security/sessions")).json();
  expect(sessions.sessions).toHaveLength(1);
  for (const c of [victimContext, one, two, three]) await c.close();
});
