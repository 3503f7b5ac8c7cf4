// Browser-test fixtures (epic-stack style): a console.error fails the test; helpers for cookies and users.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
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

/**
 * Makes a user premium straight in the served Worker's local D1 file (payments have no screen to do it yet).
 * The tier still comes from the server: the pages read it from the database like any other.
 */
export async function setTier(userId: string, tier: "free" | "premium" | "enterprise") {
  const state = process.env.E2E_STATE_DIR;
  if (!state) throw new Error("E2E_STATE_DIR is not set: run the browser tests with `npm run test:e2e`");
  const dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`No local D1 database in ${dir}`);
  const db = createClient({ url: `file:${join(dir, file)}` });
  try {
    // workerd holds the file too: wait out its short write locks instead of failing on SQLITE_BUSY.
    await db.execute("PRAGMA busy_timeout = 10000");
    const result = await db.execute({ sql: "UPDATE users SET subscription_tier = ? WHERE id = ?", args: [tier, userId] });
    expect(result.rowsAffected).toBe(1);
  } finally {
    db.close();
  }
}
