// Issue 32's leftovers on a 360 × 640 phone with the browser's location refused: "End call" in a real call, the SOS
// banner on a fresh page load (with and without JavaScript, and live while open), /emergency's confirmation
// without JavaScript, Pidgin as a translation target, first-aid steps and prices in the asker's language.
import type { APIRequestContext, Page } from "@playwright/test";
import {
  expect,
  onTop,
  SMALL_PHONE,
  smallPhonePerson,
  smallPhoneVerifiedPerson,
  somewhereInNigeria,
  startNewcomer,
  test,
} from "./fixtures";

test.use({ ...SMALL_PHONE });

/** Puts a person's server-side position here and joins them to its area room, as the chat does. */
async function livesAt(request: APIRequestContext, baseURL: string, at: { latitude: number; longitude: number }) {
  const headers = { origin: baseURL };
  expect((await request.put(`${baseURL}/api/me/location`, { data: at, headers })).ok()).toBe(true);
  expect((await request.post(`${baseURL}/api/rooms/nearby/join`, { headers })).ok()).toBe(true);
}

async function sendSos(request: APIRequestContext, baseURL: string, at: { latitude: number; longitude: number }, message: string) {
  const res = await request.post(`${baseURL}/api/emergency/broadcast`, {
    data: { message, emergencyType: "medical", location: at, clientRequestId: `leftover-${Date.now()}-${Math.random()}` },
    headers: { origin: baseURL },
  });
  expect(res.ok()).toBe(true);
}

test("item 1: in a real call at 360 × 640 'End call' is on screen, uncovered, and ends the call for both", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const url = baseURL!;
  const ada = await smallPhoneVerifiedPerson(browser, url, "Ada");
  const bola = await smallPhoneVerifiedPerson(browser, url, "Bola");
  const opened = await ada.context.request.post(`${url}/api/rooms/dm`, { data: { userId: bola.id }, headers: { origin: url } });
  const room = ((await opened.json()) as { room: { id: string } }).room.id;
  const accepted = await bola.context.request.post(`${url}/api/rooms/requests/${encodeURIComponent(room)}/accept`, {
    headers: { origin: url },
  });
  expect(accepted.ok()).toBe(true);
  for (const p of [bola, ada]) {
    await p.page.goto(`/chat?room=${encodeURIComponent(room)}`);
    await expect(p.page.getByText("LIVE", { exact: true })).toBeVisible();
  }
  await ada.page.getByRole("button", { name: "Voice call Bola" }).click();
  const adaCall = ada.page.getByRole("region", { name: "Voice call with Bola" });
  const bolaCall = bola.page.getByRole("region", { name: "Voice call with Ada" });
  await bolaCall.getByRole("button", { name: "Accept" }).click();
  await expect(adaCall.getByRole("status")).toHaveText("Connected", { timeout: 20_000 });
  await expect(bolaCall.getByRole("status")).toHaveText("Connected", { timeout: 20_000 });

  // On both small screens the button is whole, on screen and nothing (the composer, the action row) lies over it.
  for (const page of [ada.page, bola.page]) {
    const end = page.getByRole("button", { name: "End call" });
    await expect(end).toBeInViewport({ ratio: 1 });
    expect(await onTop(page, ".call-panel .call-controls .btn-danger")).toBe(true);
  }
  await adaCall.getByRole("button", { name: "End call" }).click();
  await expect(bolaCall.getByRole("status")).toHaveText("Call ended");
  await expect(adaCall.getByRole("status")).toHaveText("Call ended");
  await expect(ada.page.getByRole("button", { name: "End call" })).toHaveCount(0);
  await expect(bola.page.getByRole("button", { name: "End call" })).toHaveCount(0);
  await ada.context.close();
  await bola.context.close();
});

test("item 2: /settings opened after an SOS nearby shows its banner, from the page's data, with and without JavaScript", async ({
  browser,
  baseURL,
}) => {
  const url = baseURL!;
  const at = somewhereInNigeria();
  const sender = await smallPhonePerson(browser, url, "Chidi");
  const helper = await smallPhonePerson(browser, url, "Dayo");
  await livesAt(sender.context.request, url, at);
  await livesAt(helper.context.request, url, at);
  await sendSos(sender.context.request, url, at, "My mother fell down the stairs");

  // A fresh load of a screen that is not the chat: no mesh node in this tab, yet the banner is there.
  await helper.page.goto("/settings");
  const banner = helper.page.getByRole("alert", { name: "SOS nearby" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("SOS from Chidi");
  await expect(banner).toContainText("My mother fell down the stairs");
  await expect(banner).toBeInViewport();
  await expect(banner.getByRole("link", { name: "Open the chat" })).toHaveAttribute("href", /\/chat\?room=nearby%3A/);

  // The same page before any script: the server's HTML carries the banner, and its answer is a form that posts.
  const bare = await browser.newContext({ ...SMALL_PHONE, javaScriptEnabled: false, storageState: await helper.context.storageState() });
  const page = await bare.newPage();
  await page.goto("/settings");
  const still = page.getByRole("alert", { name: "SOS nearby" });
  await expect(still).toContainText("SOS from Chidi");
  await still.getByRole("button", { name: "I'm coming to help" }).click();
  await expect(page).toHaveURL(/\/emergency/);
  await expect(page.getByRole("status").filter({ hasText: "The sender knows help is coming." })).toBeVisible();
  // Answered: the banner does not come back on the next page.
  await page.goto("/settings");
  await expect(page.getByRole("alert", { name: "SOS nearby" })).toHaveCount(0);
  await bare.close();
  await sender.context.close();
  await helper.context.close();
});

/** Plays the push service: delivers a push message to the page's service worker through Chromium's DevTools protocol. */
async function deliverPush(page: Page, data: unknown) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => registrations.push(...e.registrations));
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.length).toBeGreaterThan(0);
  const origin = new URL(page.url()).origin;
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId: registrations[0].registrationId,
    data: JSON.stringify(data),
  });
}

test("item 2: an SOS sent while /settings is open (no chat in this tab) raises the banner live, from the push", async ({
  browser,
  baseURL,
}) => {
  const url = baseURL!;
  const at = somewhereInNigeria();
  const sender = await smallPhonePerson(browser, url, "Emeka");
  const helper = await smallPhonePerson(browser, url, "Funke");
  await livesAt(sender.context.request, url, at);
  await livesAt(helper.context.request, url, at);
  await helper.page.goto("/settings");
  await expect(helper.page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(helper.page.getByRole("alert", { name: "SOS nearby" })).toHaveCount(0);

  await sendSos(sender.context.request, url, at, "Fire at the junction");
  // The push the server sends every nearby person (its payload as workers/notifications builds it).
  await deliverPush(helper.page, {
    type: "emergency",
    title: "SOS nearby: Medical",
    body: "Emeka: Fire at the junction",
    url: "/emergency",
  });
  const banner = helper.page.getByRole("alert", { name: "SOS nearby" });
  await expect(banner).toContainText("SOS from Emeka");
  await expect(banner).toContainText("Fire at the junction");
  await expect(helper.page).toHaveURL(/\/settings/);
  await sender.context.close();
  await helper.context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("item 3: /emergency asks to confirm before it sends, and Cancel sends nothing", async ({ page, context, baseURL }) => {
    await startNewcomer(context, baseURL!);
    await page.goto("/emergency");
    await page.getByLabel("Emergency message").fill("Armed men at the market gate");
    await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Confirm SOS" });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("Armed men at the market gate");
    await expect(page.locator(".sos-result")).toHaveCount(0);
    // Cancel: back to the form with the words kept, and nothing sent.
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("alertdialog", { name: "Confirm SOS" })).toHaveCount(0);
    await expect(page.getByLabel("Emergency message")).toHaveValue("Armed men at the market gate");
    const none = (await (await context.request.get("/api/emergency/nearby")).json()) as { items: unknown[] };
    expect(none.items).toEqual([]);

    await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
    await page.getByRole("alertdialog", { name: "Confirm SOS" }).getByRole("button", { name: "Send SOS now" }).click();
    await expect(page.locator(".sos-result")).toContainText("SOS sent.");
    const sent = (await (await context.request.get("/api/emergency/nearby")).json()) as { items: { message: string }[] };
    expect(sent.items.map((i) => i.message)).toEqual(["Armed men at the market gate"]);
  });
});

/** Asks the assistant in the chat's composer and answers the newest reply's text. */
async function askInChat(page: Page, question: string) {
  await page.goto("/chat");
  // Connected to the area room (the node count shows in any language) before typing.
  await expect(page.locator(".node-count")).toHaveText(/1/);
  const box = page.locator(".composer-input");
  await box.fill(question);
  await page.locator(".composer button[type=submit]").click();
  const reply = page.locator(".msg-ai").last();
  await expect(reply).toBeVisible({ timeout: 20_000 });
  return reply;
}

test("item 4: Pidgin is offered as a translation target and the answer is Pidgin", async ({ page, context, baseURL }) => {
  await startNewcomer(context, baseURL!);
  await page.goto("/ai-features");
  const form = page.getByRole("region", { name: "Translation" });
  await form.getByRole("combobox", { name: "Translate to" }).selectOption({ label: "Nigerian Pidgin" });
  await form.getByRole("textbox", { name: "Text to translate" }).fill("How are you?");
  await form.getByRole("button", { name: "Translate", exact: true }).click();
  await expect(form.getByRole("status").or(form.locator("output"))).toContainText("How you dey?");
  // In the chat, '@ai' knows Pidgin as a target by the names people type.
  await livesAt(context.request, baseURL!, somewhereInNigeria());
  const reply = await askInChat(page, "@ai translate thank you to pidgin");
  await expect(reply).toContainText("Nigerian Pidgin: Tank you well well");
});

test("item 5: first-aid steps asked in Hausa are in Hausa, marked as awaiting a native speaker's review", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ ...SMALL_PHONE, locale: "ha-NG" });
  await startNewcomer(context, baseURL!);
  const headers = { origin: baseURL! };
  expect((await context.request.patch(`${baseURL}/api/me`, { data: { language: "hausa" }, headers })).ok()).toBe(true);
  await livesAt(context.request, baseURL!, somewhereInNigeria());
  const page = await context.newPage();
  const reply = await askInChat(page, "@ai emergency jini yana zuba");
  // The steps themselves, not the English text under a Hausa heading.
  await expect(reply).not.toContainText("Press firmly on the wound");
  await expect(reply).toContainText("Danna rauni da ƙarfi");
  await expect(reply).toContainText("mai jin harshen");
  await context.close();
});

test("item 6: market prices are worded in the asker's language, the figures as they are", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ ...SMALL_PHONE, locale: "fr-FR" });
  await startNewcomer(context, baseURL!);
  const headers = { origin: baseURL! };
  expect((await context.request.patch(`${baseURL}/api/me`, { data: { language: "french" }, headers })).ok()).toBe(true);
  await livesAt(context.request, baseURL!, somewhereInNigeria());
  const page = await context.newPage();
  const reply = await askInChat(page, "@ai prix du riz a Lagos");
  await expect(reply).toContainText("📊 Prix du marché");
  await expect(reply).toContainText(/₦[\d,]+ le /);
  await expect(reply).not.toContainText("Market prices");
  await expect(reply).not.toContainText(" per ");
  await context.close();
});
