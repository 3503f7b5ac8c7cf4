// Browser-test fixtures (epic-stack style): a console.error fails the test; helpers for cookies and users.
import { type APIRequestContext, type BrowserContext, test as base, expect } from "@playwright/test";

export const MOBILE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

type Fixtures = {
  /** Console errors matching one of these are tolerated (e.g. an expected 4xx the page reports). */
  allowedConsoleErrors: RegExp[];
  failOnConsoleError: undefined;
};

export const test = base.extend<Fixtures>({
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
