// A small phone, a first visit, a first SOS (issue 32, items 1–8): what a newcomer trips on at 360 × 640, with the
// browser's location refused unless a test needs two people in one area room.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { acceptCookies, expect, latestOutboxMessage, MOBILE_UA, startAnonymous, test, verifyFreshPhone } from "./fixtures";

const PHONE = { viewport: { width: 360, height: 640 }, userAgent: MOBILE_UA, isMobile: true, hasTouch: true };

// A chat with no area yet asks for one (409), a refused position logs nothing else.
test.use({ ...PHONE, allowedConsoleErrors: [/status of 409/] });

/** A point of its own per test (about 100 km apart), so parallel tests never share an area room. */
function place() {
  return { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
}

/** A person on a small phone; `at` grants the browser's position there, otherwise it is refused. */
async function person(browser: Browser, baseURL: string, nickname: string, at?: { latitude: number; longitude: number }) {
  const context = await browser.newContext({ ...PHONE, ...(at ? { permissions: ["geolocation"], geolocation: at } : {}) });
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

async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** Whether the element's centre is the element itself (or inside it) on screen: nothing lies over it. */
const onTop = (page: Page, selector: string) =>
  page
    .locator(selector)
    .last()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth && !!hit && el.contains(hit);
    });

test("item 1 and 3: at 360 × 640 the newest message, the whole composer and the ⋮ menu fit, and messages get half the screen", async ({
  browser,
  baseURL,
}) => {
  const a = await person(browser, baseURL!, "Amaka", place());
  await a.page.goto("/chat");
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  for (let i = 1; i <= 8; i++) await send(a.page, `Message number ${i}`);
  await expect(a.page.locator(".msg").filter({ hasText: "Message number 8" })).toBeVisible();

  // The list's box takes at least half the screen, and lies wholly above the composer.
  const list = await a.page.locator(".chat-body").boundingBox();
  const composer = await a.page.locator(".composer").boundingBox();
  expect(list!.height).toBeGreaterThanOrEqual(320);
  expect(list!.y + list!.height).toBeLessThanOrEqual(composer!.y + 1);
  // The newest message and the message box are on screen and nothing covers them.
  await expect.poll(() => onTop(a.page, ".msg")).toBe(true);
  expect(await onTop(a.page, ".composer-input")).toBe(true);
  expect(await onTop(a.page, ".composer button[type=submit]")).toBe(true);
  // SOS is in reach without scrolling the chip row.
  expect(await onTop(a.page, ".composer .btn-danger")).toBe(true);
  // The box shows its whole placeholder ("Type a messag" was cut).
  const fits = await a.page.locator(".composer-input").evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return { placeholder: el.placeholder, fits: ctx.measureText(el.placeholder).width <= room };
  });
  expect(fits).toEqual({ placeholder: "Type a message", fits: true });
  // The page itself does not scroll: the list does.
  expect(await a.page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);

  // Item 3: the ⋮ menu opens inside the screen, every item whole.
  await a.page.getByRole("button", { name: "More options" }).or(a.page.locator("summary[aria-label='More options']")).click();
  const items = a.page.locator(".overflow-menu li");
  await expect(items.first()).toBeVisible();
  for (const box of await items.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(360);
    expect(box.top).toBeGreaterThanOrEqual(0);
  }
  await a.context.close();
});

test("item 2: a private message from someone new appears live: the chat in the list, its badge and a toast", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const ada = await person(browser, baseURL!, "Ada", at);
  const bayo = await person(browser, baseURL!, "Bayo", at);
  await bayo.page.goto("/chat");
  await expect(bayo.page.getByText("LIVE", { exact: true })).toBeVisible();
  await ada.page.goto("/chat");
  await expect(ada.page.getByText("LIVE", { exact: true })).toBeVisible();

  // Ada writes to Bayo privately for the first time; Bayo's screen is not reloaded.
  const opened = await ada.context.request.post(`${baseURL}/api/rooms/dm`, {
    data: { userId: bayo.user.id },
    headers: { origin: baseURL! },
  });
  expect(opened.ok()).toBe(true);
  const room = ((await opened.json()) as { room: { id: string } }).room.id;
  await ada.page.goto(`/chat?room=${encodeURIComponent(room)}`);
  await expect(ada.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(ada.page, "Hello Bayo, I am new here");

  await expect(bayo.page.getByRole("status").filter({ hasText: "New message from Ada" })).toBeVisible();
  const chip = bayo.page.getByRole("navigation", { name: "Rooms" }).locator(".room-chip", { has: bayo.page.locator(".room-unread") });
  await expect(chip).toBeVisible();
  await expect(chip.locator(".room-unread")).toContainText("1");
  await chip.click();
  await expect(bayo.page.locator(".msg").filter({ hasText: "Hello Bayo, I am new here" })).toBeVisible();
  await ada.context.close();
  await bayo.context.close();
});

/** Records everything the status words say while a page loads, from the server's HTML on. */
async function recordStatusWords(context: BrowserContext) {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __said: string[] }).__said = seen;
    const look = () => {
      for (const el of document.querySelectorAll(".live-badge, .chat-statusbar, .node-count, .status-bar")) seen.push(el.textContent ?? "");
    };
    document.addEventListener("DOMContentLoaded", () => {
      look();
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
}
const statusWords = async (page: Page) => (await page.evaluate(() => (window as unknown as { __said: string[] }).__said)).join(" | ");
const WRONG_WHILE_ONLINE = ["OFFLINE", "Relay not connected", "No connection", "— nodes"];

test("item 4: a first arrival while online says it is connecting, never that it is offline", async ({ browser, baseURL }) => {
  const a = await person(browser, baseURL!, "Efe", place());
  await recordStatusWords(a.context);
  await a.page.goto("/chat");
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(a.page.locator(".node-count")).toHaveText("1 node");
  const said = await statusWords(a.page);
  expect(said).toContain("CONNECTING…");
  for (const wrong of WRONG_WHILE_ONLINE) expect(said).not.toContain(wrong);
  await a.context.close();
});

test("item 4: with location refused, 'Choose your area' has the screen and 'Share my location' explains itself where you look", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  await startAnonymous(context.request);
  expect((await context.request.patch("/api/me", { data: { onboardingCompleted: true }, headers: { origin: baseURL! } })).ok()).toBe(true);
  await recordStatusWords(context);
  await page.goto("/chat");
  const chooser = page.getByRole("region", { name: "Choose your area" });
  await expect(chooser).toBeVisible();
  // The chooser spans the screen (it was squeezed beside an empty list, under the composer).
  const box = await chooser.boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(300);
  expect(await onTop(page, ".area-chooser h2")).toBe(true);
  // "Share my location" with the position refused: the reason shows right there, on screen, uncovered.
  await chooser.getByRole("button", { name: "Share my location" }).click();
  const why = chooser.getByRole("alert");
  await expect(why).toHaveText("This browser did not give LinkUp your location. Type your town instead.");
  await expect(why).toBeInViewport({ ratio: 1 });
  expect(await onTop(page, ".area-chooser [role=alert]")).toBe(true);
  // Nothing claimed the chat was offline meanwhile: there was no room to be offline from.
  const said = await statusWords(page);
  for (const wrong of WRONG_WHILE_ONLINE) expect(said).not.toContain(wrong);
});

test("item 5: an SOS raises a banner on another screen with vibration, 'I'm coming to help' answers in the chat, no 'Hello' chips", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const sender = await person(browser, baseURL!, "Chidi", at);
  const helper = await person(browser, baseURL!, "Dayo", at);
  await helper.context.addInitScript(() => {
    const calls: unknown[] = [];
    (window as unknown as { __vibrations: unknown[] }).__vibrations = calls;
    Object.defineProperty(navigator, "vibrate", {
      configurable: true,
      value: (pattern: unknown) => {
        calls.push(pattern);
        return true;
      },
    });
  });
  await helper.page.goto("/chat");
  await expect(helper.page.getByText("LIVE", { exact: true })).toBeVisible();
  await sender.page.goto("/chat");
  await expect(sender.page.getByText("LIVE", { exact: true })).toBeVisible();
  // The helper has moved on to their settings (the chat's connection stays with the tab).
  await helper.page.getByRole("navigation", { name: "Bottom navigation" }).getByRole("link", { name: "Settings" }).click();
  await expect(helper.page).toHaveURL(/\/settings/);

  await sender.page.locator(".composer .btn-danger").click();
  await sender.page.getByRole("alertdialog", { name: "Send SOS" }).getByRole("button", { name: "Send SOS now" }).click();

  const banner = helper.page.getByRole("alert", { name: "SOS nearby" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("SOS from Chidi");
  await expect(banner).toBeInViewport();
  await expect
    .poll(() => helper.page.evaluate(() => (window as unknown as { __vibrations: unknown[] }).__vibrations.length))
    .toBeGreaterThan(0);

  await banner.getByRole("link", { name: "Open the chat" }).click();
  const sos = helper.page.locator(".msg-emergency").last();
  await expect(sos).toBeVisible();
  await expect(helper.page.getByRole("alert", { name: "SOS nearby" })).toHaveCount(0);
  // Under an SOS the chips offer no small talk.
  await expect(helper.page.getByRole("group", { name: "Quick replies" }).getByRole("button", { name: "Hello" })).toHaveCount(0);
  await sos.getByRole("button", { name: "I'm coming to help" }).click();
  await expect(sender.page.locator(".msg").filter({ hasText: "I'm coming to help, Chidi." })).toBeVisible();
  await sender.context.close();
  await helper.context.close();
});

test("item 5: /emergency asks before it alerts anyone, and a typed town is not called 'contacts only'", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  await startAnonymous(context.request);
  expect((await context.request.patch("/api/me", { data: { onboardingCompleted: true }, headers: { origin: baseURL! } })).ok()).toBe(true);
  await page.goto("/emergency");
  await page.getByLabel("Emergency message").fill("My neighbour collapsed, please come");
  // Location refused, then a town typed: the warning says what will really happen.
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByText("Without a location, only your emergency contacts are alerted.")).toBeVisible();
  await page.getByLabel("Where (landmark or address, optional)").fill("Ikeja");
  await expect(page.getByText("The town you typed (Ikeja) finds your area room, so people near you are alerted too.")).toBeVisible();
  await expect(page.getByText("Without a location, only your emergency contacts are alerted.")).toHaveCount(0);

  // With the page's scripts running Start asks first (before them, the form posts as without JavaScript).
  await expect(page.getByRole("button", { name: "Start Emergency Broadcast" })).toHaveAttribute("type", "button");
  await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Confirm SOS" });
  await expect(confirm).toBeVisible();
  await expect(page.locator(".sos-result")).toHaveCount(0);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.locator(".sos-result")).toHaveCount(0);
  // With the page's scripts running Start asks first (before them, the form posts as without JavaScript).
  await expect(page.getByRole("button", { name: "Start Emergency Broadcast" })).toHaveAttribute("type", "button");
  await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
  await page.getByRole("alertdialog", { name: "Confirm SOS" }).getByRole("button", { name: "Send SOS now" }).click();
  await expect(page.locator(".sos-result")).toContainText("SOS sent.");
});

test("item 6: upgrading without a verified phone comes back to the same checkout after verifying", async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  await startAnonymous(context.request);
  expect((await context.request.patch("/api/me", { data: { onboardingCompleted: true }, headers: { origin: baseURL! } })).ok()).toBe(true);
  await page.goto("/subscribe?plan=premium&interval=yearly");
  await page.getByRole("link", { name: "Verify your phone" }).click();
  const rest = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");
  await page.getByRole("textbox", { name: "Phone number" }).fill(`0816${rest}`);
  await page.getByRole("button", { name: "Send Code" }).click();
  let code: string | undefined;
  await expect
    .poll(async () => (code = (await latestOutboxMessage(page.request, `+234816${rest}`))?.match(/\b(\d{6})\b/)?.[1]))
    .toBeTruthy();
  await page.getByRole("textbox", { name: "Verification code" }).fill(code!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=premium&interval=yearly$/);
  await expect(page.getByRole("link", { name: "Verify your phone" })).toHaveCount(0);
});

test("item 7: the app lock covers the screen left open once the idle time passes, without a navigation", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  await verifyFreshPhone(context.request, baseURL!);
  await page.clock.install();
  await page.goto("/security-settings?tab=biometric");
  await page.getByRole("combobox", { name: "Auto-lock after" }).selectOption("1");
  await page.getByLabel("PIN for this device (4 to 8 digits)").fill("2580");
  await page.getByRole("button", { name: "Save App Lock" }).click();
  await expect(page.getByRole("status").filter({ hasText: "App lock is on: after 1 minute without use." })).toBeVisible();
  await expect(page.getByRole("dialog", { name: "LinkUp is locked" })).toHaveCount(0);
  // A minute and a half with nobody touching the phone, on this same screen.
  await page.clock.fastForward("01:30");
  await expect(page.getByRole("dialog", { name: "LinkUp is locked" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save App Lock" })).toHaveCount(0);
});

async function verifiedPerson(browser: Browser, baseURL: string, nickname: string, init?: (context: BrowserContext) => Promise<unknown>) {
  const context = await browser.newContext({ ...PHONE, permissions: ["microphone"] });
  await acceptCookies(context, baseURL);
  if (init) await init(context);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const { user } = await verifyFreshPhone(context.request, baseURL);
  expect((await context.request.patch(`${baseURL}/api/me`, { data: { nickname }, headers: { origin: baseURL } })).ok()).toBe(true);
  return { context, page: await context.newPage(), id: user.id };
}

test("item 8: no call button for someone who cannot take calls; without a microphone the reason is LinkUp's own", async ({
  browser,
  baseURL,
}) => {
  const url = baseURL!;
  // A phone with no microphone at all: the browser answers "Requested device not found".
  const ada = await verifiedPerson(browser, url, "Ada", (context) =>
    context.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Requested device not found", "NotFoundError"));
    }),
  );
  const bola = await verifiedPerson(browser, url, "Bola");
  const anon = await person(browser, url, "Kemi");

  // Kemi has no verified phone: her chat has no call button.
  const toKemi = await ada.context.request.post(`${url}/api/rooms/dm`, { data: { userId: anon.user.id }, headers: { origin: url } });
  expect(toKemi.ok()).toBe(true);
  const kemiRoom = ((await toKemi.json()) as { room: { id: string } }).room.id;
  await ada.page.goto(`/chat?room=${encodeURIComponent(kemiRoom)}`);
  await expect(ada.page.getByText(/^(LIVE|CONNECTING…)$/)).toBeVisible();
  await expect(ada.page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(ada.page.getByRole("button", { name: /^Voice call/ })).toHaveCount(0);

  // Bola can be called; Ada's phone has no microphone.
  const toBola = await ada.context.request.post(`${url}/api/rooms/dm`, { data: { userId: bola.id }, headers: { origin: url } });
  const bolaRoom = ((await toBola.json()) as { room: { id: string } }).room.id;
  expect(
    (
      await bola.context.request.post(`${url}/api/rooms/requests/${encodeURIComponent(bolaRoom)}/accept`, { headers: { origin: url } })
    ).ok(),
  ).toBe(true);
  await ada.page.goto(`/chat?room=${encodeURIComponent(bolaRoom)}`);
  await expect(ada.page.getByText("LIVE", { exact: true })).toBeVisible();
  await ada.page.getByRole("button", { name: "Voice call Bola" }).click();
  await expect(ada.page.getByText("LinkUp found no microphone it can use on this phone", { exact: false }).first()).toBeVisible();
  await expect(ada.page.getByText("Requested device not found")).toHaveCount(0);
  await ada.context.close();
  await bola.context.close();
  await anon.context.close();
});
