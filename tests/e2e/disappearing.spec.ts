// Disappearing messages in a real browser (docs/decisions/040-disappearing-messages.md): two people in a direct
// chat turn on a timer and watch a message vanish from both screens and both browsers' storage. The build is
// served a second time with the development-only DISAPPEARING_TEST_HOUR_MS, so "1 hour" lasts seconds.
import type { Browser, Page } from "@playwright/test";
import { serveBuilt } from "../serve-built.mjs";
import { acceptCookies, expect, test } from "./fixtures";

let server: Awaited<ReturnType<typeof serveBuilt>>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await serveBuilt({
    name: "e2e-disappearing",
    fromBuild: process.env.E2E_BUILD_DIR,
    vars: { DISAPPEARING_TEST_HOUR_MS: "10000" },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

async function person(browser: Browser, at: { latitude: number; longitude: number }, nickname: string) {
  const context = await browser.newContext({ baseURL: server.url, permissions: ["geolocation"], geolocation: at });
  await acceptCookies(context, server.url);
  expect((await context.request.post("/api/auth/anonymous", { headers: { origin: server.url } })).ok()).toBe(true);
  const patched = await context.request.patch("/api/me", {
    headers: { origin: server.url },
    data: { nickname, onboardingCompleted: true },
  });
  expect(patched.ok()).toBe(true);
  const page = await context.newPage();
  return { context, page, user: (await patched.json()).user as { id: string } };
}

async function openChat(page: Page, path = "/chat") {
  await page.goto(path);
  await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
}

const bubble = (page: Page, text: string) => page.getByRole("list", { name: "Messages" }).getByRole("listitem").filter({ hasText: text });

/** The texts this browser keeps in its chat history (IndexedDB), read in the page. */
async function storedTexts(page: Page, userId: string): Promise<string[]> {
  return page.evaluate(
    (name) =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => {
          const all = req.result.transaction("messages", "readonly").objectStore("messages").getAll();
          all.onsuccess = () => resolve((all.result as { text: string | null }[]).map((m) => m.text ?? ""));
          all.onerror = () => reject(all.error);
        };
        req.onerror = () => reject(req.error);
      }),
    `linkup-mesh-${userId}`,
  );
}

test("two people turn on a timer in their private chat and the message vanishes from both devices", async ({ browser }) => {
  const at = { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
  const a = await person(browser, at, "Ngozi");
  const b = await person(browser, at, "Yusuf");
  await openChat(a.page);
  await openChat(b.page);
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Add Contact" }).click();
  await a.page.getByRole("button", { name: "Message Yusuf" }).click();
  await expect(a.page).toHaveURL(/room=dm/);
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  const dm = new URL(a.page.url()).searchParams.get("room") ?? "";
  await openChat(b.page, `/chat?room=${encodeURIComponent(dm)}`);

  // Ngozi sets the chat's timer in its info panel; the room tells both of them.
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Group Info" }).click();
  const control = a.page.getByRole("region", { name: "Disappearing messages" });
  await control.getByLabel("Timer").selectOption({ label: "1 hour" });
  await control.getByRole("button", { name: "Set timer" }).click();
  await expect(control.getByRole("status")).toHaveText("Timer set");
  await a.page.getByRole("dialog", { name: "Group Info" }).getByRole("button", { name: "Close" }).click();
  for (const page of [a.page, b.page]) await expect(bubble(page, "Ngozi turned on disappearing messages: 1 hour")).toBeVisible();

  const words = "meet me at the north gate";
  await a.page.getByRole("textbox", { name: "Message" }).fill(words);
  await a.page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(bubble(b.page, words)).toBeVisible();
  await expect(bubble(a.page, words)).toBeVisible();
  expect(await storedTexts(b.page, b.user.id)).toContain(words);

  // At its expiry it leaves both screens and both browsers' storage, and a reload does not bring it back.
  await expect(bubble(b.page, words)).toHaveCount(0, { timeout: 30_000 });
  await expect(bubble(a.page, words)).toHaveCount(0, { timeout: 30_000 });
  expect(await storedTexts(a.page, a.user.id)).not.toContain(words);
  expect(await storedTexts(b.page, b.user.id)).not.toContain(words);
  await openChat(b.page, `/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "Ngozi turned on disappearing messages: 1 hour")).toBeVisible();
  await expect(bubble(b.page, words)).toHaveCount(0);
  await a.context.close();
  await b.context.close();
});
