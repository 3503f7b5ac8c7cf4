// Browser-test fixtures (epic-stack style): a console.error fails the test; helpers for cookies and users.
import { type APIRequestContext, type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";

export const MOBILE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

/**
 * A page starts its scripts once its first frame is on screen (docs/decisions/042-paint-before-scripts.md), so
 * the load event no longer waits for them. `goto` and `reload` wait, as the load event used to, until React
 * Router's module script has run and, once the page's words are in (docs/decisions/078), its router has started
 * hydrating; a page whose scripts are not held (JavaScript off, an API answer) returns at once.
 */
function waitForHeldScripts(proto: Page) {
  for (const name of ["goto", "reload"] as const) {
    const original = proto[name] as (this: Page, ...args: unknown[]) => ReturnType<Page["goto"]>;
    Object.defineProperty(proto, name, {
      configurable: true,
      value: async function (this: Page, ...args: unknown[]) {
        const res = await original.apply(this, args);
        if ((await this.locator("script[data-paint-first]").count()) > 0)
          await this.waitForFunction(() => "__reactRouterRouteModules" in window && "__reactRouterDataRouter" in window);
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
        if (msg.type() !== "error") return;
        // The address a failed load names comes with its words, so a test may allow one refusal by where it came from.
        const said = msg.location().url ? `${msg.text()} ${msg.location().url}` : msg.text();
        if (!allowedConsoleErrors.some((re) => re.test(said))) errors.push(said);
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(undefined);
      expect(errors, "console errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** A cheap phone (issue 32): 360 × 640, a phone's browser, touch. The browser's location is refused unless granted. */
export const SMALL_PHONE = { viewport: { width: 360, height: 640 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true };

/** A point of its own per test (about 100 km apart), so parallel tests never share an area room. */
export function somewhereInNigeria() {
  return { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
}

/** Accepts cookies for a context, as 'Enable Mobile Features' does. */
export async function acceptCookies(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: "linkup-cookies-accepted", value: "true", url: baseURL }]);
}

/** Starts an anonymous user in the context's cookie jar. */
export async function startAnonymous(request: APIRequestContext) {
  const res = await request.post("/api/auth/anonymous");
  // The answer's status and words, should the start ever be refused, say why in the test's failure.
  expect(res.ok(), `${res.status()} ${res.ok() ? "" : await res.text()}`).toBe(true);
  return (await res.json()).user as { id: string; nickname: string };
}

/** A newcomer who has been through onboarding: cookies accepted, an anonymous identity, onboarding done. */
export async function startNewcomer(context: BrowserContext, baseURL: string) {
  await acceptCookies(context, baseURL);
  const user = await startAnonymous(context.request);
  expect((await context.request.patch("/api/me", { data: { onboardingCompleted: true }, headers: { origin: baseURL } })).ok()).toBe(true);
  return user;
}

/**
 * A person on a small phone in a context of their own, with a nickname and onboarding done; `at` grants the
 * browser's position there, otherwise it is refused.
 */
export async function smallPhonePerson(browser: Browser, baseURL: string, nickname: string, at?: { latitude: number; longitude: number }) {
  const context = await browser.newContext({ ...SMALL_PHONE, ...(at ? { permissions: ["geolocation"], geolocation: at } : {}) });
  await acceptCookies(context, baseURL);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, {
    data: { nickname, onboardingCompleted: true },
    headers: { origin: baseURL },
  });
  expect(patched.ok()).toBe(true);
  const user = (await patched.json()).user as { id: string; nickname: string };
  const page = await context.newPage();
  return { context, page, user };
}

/** A person with a verified phone (so they can be called) on a small phone, microphone allowed. */
export async function smallPhoneVerifiedPerson(
  browser: Browser,
  baseURL: string,
  nickname: string,
  init?: (context: BrowserContext) => Promise<unknown>,
) {
  const context = await browser.newContext({ ...SMALL_PHONE, permissions: ["microphone"] });
  await acceptCookies(context, baseURL);
  if (init) await init(context);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const { user } = await verifyFreshPhone(context.request, baseURL);
  expect((await context.request.patch(`${baseURL}/api/me`, { data: { nickname }, headers: { origin: baseURL } })).ok()).toBe(true);
  return { context, page: await context.newPage(), id: user.id };
}

/** Whether the element's centre is the element itself (or inside it) on screen: nothing lies over it. */
export const onTop = (page: Page, selector: string) =>
  page
    .locator(selector)
    .last()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth && !!hit && el.contains(hit);
    });

/** The newest message the dev outbox holds for a phone. */
export async function latestOutboxMessage(request: APIRequestContext, phone: string) {
  return (await outboxMessages(request, phone))[0]?.body;
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

/** The messages the dev outbox holds for `phone`, newest first (its newest 50 of all). */
async function outboxMessages(request: APIRequestContext, phone: string): Promise<{ id: string; body: string }[]> {
  const res = await request.get("/api/dev/outbox?limit=50");
  expect(res.ok()).toBe(true);
  const { messages } = (await res.json()) as { messages: { id: string; to: string; body: string }[] };
  return messages.filter((m) => m.to === phone);
}

/**
 * Signs `request` in as the admin ADMIN_PHONES names (the code read from the dev outbox). Tests running side by
 * side sign in as the same admin, and each sign-in's code is its own: the codes sent since this one asked are
 * tried, newest first, until one is this session's.
 */
export async function signInAsAdmin(request: APIRequestContext, baseURL: string) {
  await startAnonymous(request);
  const headers = { origin: baseURL };
  const seen = new Set((await outboxMessages(request, ADMIN.e164)).map((m) => m.id));
  expect((await request.post("/api/auth/register", { data: { phoneNumber: ADMIN.local, nickname: "Boss" }, headers })).ok()).toBe(true);
  await expect
    .poll(async () => {
      for (const m of await outboxMessages(request, ADMIN.e164)) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        const code = m.body.match(/\b(\d{6})\b/)?.[1];
        if (code && (await request.post("/api/auth/verify", { data: { phoneNumber: ADMIN.local, code }, headers })).ok()) return true;
      }
      return false;
    })
    .toBe(true);
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
 * Runs SQL inside the served Worker, as a server that writes what no API writes (docs/architecture.md §12):
 * tests/run-e2e.mjs passes the key the harness made for this run.
 */
export async function executeOnServedD1(sqlText: string) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/dev/sql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-sql-token": process.env.E2E_SQL_TOKEN ?? "" },
    body: JSON.stringify({ sql: sqlText }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** A verified person with the app lock's PIN 2580 and the panic code 9999 on this device, active now (no lock yet). */
export async function withAppLockAndPanicCode(page: Page, context: BrowserContext, baseURL: string) {
  await acceptCookies(context, baseURL);
  await verifyFreshPhone(context.request, baseURL);
  await page.goto("/security-settings?tab=biometric");
  await page.getByLabel("PIN for this device (4 to 8 digits)").fill("2580");
  await page.getByLabel(/^Panic code/).fill("9999");
  await page.getByRole("button", { name: "Save App Lock" }).click();
  await expect(page.getByRole("status").filter({ hasText: "App lock is on" })).toBeVisible();
  await page.evaluate(() => localStorage.setItem("linkup-last-active", String(Date.now())));
}
