// The production build served locally the way production runs it: ENVIRONMENT unset, Twilio not configured.
// No development convenience may show (docs/decisions/010-production-is-not-development.md).
import { serveBuilt } from "../serve-built.mjs";
import { expect, test } from "./fixtures";

let server: Awaited<ReturnType<typeof serveBuilt>>;

test.describe.configure({ mode: "serial" });
// Chromium reports the 404 of /dev/outbox as a console error; that 404 is what this test wants.
test.use({ allowedConsoleErrors: [/status of 404/] });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await serveBuilt({ name: "e2e-production", fromBuild: process.env.E2E_BUILD_DIR, unsetVars: ["ENVIRONMENT"] });
});

test.afterAll(async () => {
  await server?.stop();
});

test("shows no development convenience and refuses what it cannot do", async ({ page, request }) => {
  const url = server.url;
  // The dev outbox, its API and page, does not exist.
  expect((await request.get(`${url}/api/dev/outbox`)).status()).toBe(404);
  expect((await page.goto(`${url}/dev/outbox`))?.status()).toBe(404);

  // Health names what is missing, never values, and says degraded.
  const health = await request.get(`${url}/api/health`);
  const body = (await health.json()) as { status: string; missing: string[] };
  expect(body.status).toBe("degraded");
  expect(body.missing).toContain("TWILIO_ACCOUNT_SID");

  // Phone verification says clearly that it cannot send a code.
  const started = await request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } });
  expect(started.status()).toBe(201);
  const register = await request.post(`${url}/api/auth/register`, {
    headers: { origin: url },
    data: { phoneNumber: "+2348031112222", channel: "whatsapp" },
  });
  expect(register.status()).toBe(503);
  expect(await register.json()).toMatchObject({ code: "messaging_unavailable", error: expect.stringMatching(/not available/) });

  // The WhatsApp page explains the bot but offers no fake phone to chat from.
  await page.goto(`${url}/whatsapp-demo`);
  await expect(page.getByRole("heading", { name: "LinkUp on WhatsApp" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Your phone number" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "dev outbox" })).toHaveCount(0);
  await expect(page.getByText("WhatsApp is not connected on this server yet.")).toBeVisible();

  // The USSD callback refuses every request until its shared secret is set.
  const ussd = await request.post(`${url}/ussd`, {
    form: { sessionId: "prod", serviceCode: "*384#", phoneNumber: "+2348031112222", text: "" },
  });
  expect(ussd.status()).toBe(403);
});

test("shows no placeholder support line or USSD code when none is configured (docs/decisions/060-every-claim-true.md)", async ({
  page,
}) => {
  const url = server.url;
  await page.goto(`${url}/customer-service`);
  await expect(page.getByText("Monday to Friday: 8:00-20:00 WAT")).toBeVisible();
  await expect(page.getByRole("link", { name: /^Call / })).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText("+2348000000000");
  await page.goto(`${url}/support`);
  await expect(page.getByRole("heading", { name: "Support hours" })).toBeVisible();
  await expect(page.locator("main")).not.toContainText("+2348000000000");
  await page.goto(`${url}/download`);
  await expect(page.getByRole("heading", { name: "Install LinkUp", level: 1 })).toBeVisible();
  await expect(page.locator("main")).not.toContainText("*384*1234#");
});
