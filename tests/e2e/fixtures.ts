// Browser-test fixtures (epic-stack style): a console.error fails the test; helpers for cookies and users.
import { execFileSync } from "node:child_process";
import { type APIRequestContext, type BrowserContext, test as base, expect, type Page } from "@playwright/test";

export const MOBILE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

/**
 * A page starts its scripts once its first frame is on screen (docs/decisions/042-paint-before-scripts.md), so
 * the load event no longer waits for them. `goto` and `reload` wait, as the load event used to, until React
 * Router's module script has run; a page whose scripts are not held (JavaScript off, an API answer) returns at once.
 */
function waitForHeldScripts(proto: Page) {
  for (const name of ["goto", "reload"] as const) {
    const original = proto[name] as (this: Page, ...args: unknown[]) => ReturnType<Page["goto"]>;
    Object.defineProperty(proto, name, {
      configurable: true,
      value: async function (this: Page, ...args: unknown[]) {
        const res = await original.apply(this, args);
        if ((await this.locator("script[data-paint-first]").count()) > 0)
          await this.waitForFunction(() => "__reactRouterRouteModules" in window);
        return res;
      },
    });
  }
}

type Fixtures = {
  /** Console errors matching one of these are tolerated (e.g. an expected 4xx the page reports). */
  allowedConsoleErrors: RegExp[];
  failOnConsoleError: undefined;
  heldScripts: undefined;
};

let patched = false;

export const test = base.extend<Fixtures>({
  heldScripts: [
    async ({ page }, use) => {
      // Every Page shares the class, so pages of contexts a test opens itself are covered too.
      if (!patched) waitForHeldScripts(Object.getPrototypeOf(page));
      patched = true;
      await use(undefined);
    },
    { auto: true },
  ],
  allowedConsoleErrors: [[], { option: true }],
  failOnConsoleError: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error" && !allowedConsoleErrors.some((re) => re.test(msg.text()))) errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(undefined);
      expect(errors, "console errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Accepts cookies for a context, as 'Enable Mobile Features' does. */
export async function acceptCookies(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: "linkup-cookies-accepted", value: "true", url: baseURL }]);
}

/** Starts an anonymous user in the context's cookie jar. */
export async function startAnonymous(request: APIRequestContext) {
  const res = await request.post("/api/auth/anonymous");
  expect(res.ok()).toBe(true);
  return (await res.json()).user as { id: string; nickname: string };
}

/** The newest message the dev outbox holds for a phone. */
export async function latestOutboxMessage(request: APIRequestContext, phone: string) {
  const res = await request.get("/api/dev/outbox?limit=50");
  expect(res.ok()).toBe(true);
  const { messages } = (await res.json()) as { messages: { to: string; body: string }[] };
  return messages.find((m) => m.to === phone)?.body;
}

/** Verifies a fresh phone for the signed-in user of `request` (code read from the dev outbox) and finishes onboarding. */
export async function verifyFreshPhone(request: APIRequestContext, baseURL: string) {
  const rest = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");
  const phone = { local: `0817${rest}`, e164: `+234817${rest}` };
  const headers = { origin: baseURL };
  expect((await request.post("/api/auth/register", { data: { phoneNumber: phone.local, nickname: "Ngozi" }, headers })).ok()).toBe(true);
  let code: string | undefined;
  await expect
    .poll(async () => {
      code = (await latestOutboxMessage(request, phone.e164))?.match(/\b(\d{6})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  const verified = await request.post("/api/auth/verify", { data: { phoneNumber: phone.local, code }, headers });
  expect(verified.ok()).toBe(true);
  expect((await request.patch("/api/me", { data: { onboardingCompleted: true }, headers })).ok()).toBe(true);
  return { phone, user: (await verified.json()).user as { id: string; nickname: string } };
}

/**
 * Makes the signed-in user Premium the way a person does: a verified phone, then checkout paid with the local
 * payment stand-in's success card (the same webhook path as Stripe's events).
 */
export async function payForPremium(request: APIRequestContext, baseURL: string) {
  const person = await verifyFreshPhone(request, baseURL);
  const headers = { origin: baseURL };
  const session = await request.post("/api/create-subscription", { data: { priceId: "price_premium_monthly" }, headers });
  expect(session.ok()).toBe(true);
  const { clientSecret } = (await session.json()) as { clientSecret: string };
  const paid = await request.post("/api/dev/payments/confirm", { data: { clientSecret, cardNumber: "4242424242424242" }, headers });
  expect(paid.ok()).toBe(true);
  return person;
}

/** The phone ADMIN_PHONES names for browser tests (tests/serve-built.mjs). */
export const ADMIN = { local: "08099990001", e164: "+2348099990001" };

/** Signs `request` in as the admin ADMIN_PHONES names (the code read from the dev outbox). */
export async function signInAsAdmin(request: APIRequestContext, baseURL: string) {
  await startAnonymous(request);
  const headers = { origin: baseURL };
  expect((await request.post("/api/auth/register", { data: { phoneNumber: ADMIN.local, nickname: "Boss" }, headers })).ok()).toBe(true);
  let code: string | undefined;
  await expect.poll(async () => (code = (await latestOutboxMessage(request, ADMIN.e164))?.match(/\b(\d{6})\b/)?.[1])).toBeTruthy();
  expect((await request.post("/api/auth/verify", { data: { phoneNumber: ADMIN.local, code }, headers })).ok()).toBe(true);
}

/** Grants a person a complimentary tier through the staff API, as support does, from an admin's `request`. */
export async function grantTier(adminRequest: APIRequestContext, baseURL: string, userId: string, tier: "premium" | "enterprise") {
  const endsAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const res = await adminRequest.post("/api/admin/subscriptions/complimentary", {
    data: { userId, tier, endsAt, reason: "Browser test" },
    headers: { origin: baseURL },
  });
  expect(res.status()).toBe(201);
}

/**
 * Runs SQL on the served Worker's local D1 (tests/run-e2e.mjs passes its state folder). The served workerd holds
 * the same SQLite file, so a write that meets one of its own can be refused as busy: tried again a few times, and
 * wrangler's own words are kept when it still fails.
 */
export async function executeOnServedD1(sqlText: string) {
  let lastError = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      execFileSync(
        "npx",
        [
          "wrangler",
          "d1",
          "execute",
          "DB",
          "--local",
          "-c",
          "wrangler.toml",
          "--persist-to",
          process.env.E2E_STATE_DIR as string,
          "--yes",
          "--command",
          sqlText,
        ],
        { stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
      );
      return;
    } catch (error) {
      const failed = error as { stderr?: Buffer; stdout?: Buffer; message: string };
      lastError = `${failed.message}\n${failed.stdout?.toString() ?? ""}\n${failed.stderr?.toString() ?? ""}`;
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }
  throw new Error(`wrangler d1 execute failed five times: ${lastError}`);
}
