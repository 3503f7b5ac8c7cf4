// Chat without internet, phone to phone (docs/decisions/066-phones-paired-by-code.md): three browser contexts stand
// for three phones on one local network. After one online visit every request to the server is refused and the
// room's WebSocket is closed; the phones pair by pasting codes (A with B, B with C), and messages, a private
// message and an SOS travel over WebRTC data channels alone. When B reaches the relay again it hands in what A sent,
// and the room keeps it once, also when A's own outbox sends it later.
import type { Browser, BrowserContext, Page, WebSocketRoute } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";
import { bubble, place } from "./people";

test.setTimeout(240_000);

// Refused requests and closed sockets are what this test does on purpose.
const EXPECTED_OFFLINE_ERRORS = [
  /ERR_INTERNET_DISCONNECTED/,
  /net::ERR_FAILED/,
  /WebSocket connection to .* failed/,
  /Failed to fetch manifest patches/,
  /Failed to load resource/,
];
const consoleErrors: string[] = [];
test.beforeEach(() => {
  consoleErrors.length = 0;
});
test.afterEach(() => {
  expect(consoleErrors, "console errors during the test").toEqual([]);
});

interface Phone {
  name: string;
  context: BrowserContext;
  page: Page;
  user: { id: string; nickname: string };
  /** Every request to the server refused, the room's sockets closed (and new ones closed at once). */
  cut(): Promise<void>;
  /** The network back: requests and sockets pass again, and the browser says it is online. */
  restore(): Promise<void>;
}

async function phone(browser: Browser, baseURL: string, at: { latitude: number; longitude: number }, name: string): Promise<Phone> {
  const context = await browser.newContext({ permissions: ["geolocation"], geolocation: at });
  await acceptCookies(context, baseURL);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, { data: { nickname: name, onboardingCompleted: true } });
  expect(patched.ok()).toBe(true);
  const user = (await patched.json()).user as { id: string; nickname: string };
  context.on("page", (page) => {
    page.on("console", (m) => {
      if (m.type() === "error" && !EXPECTED_OFFLINE_ERRORS.some((re) => re.test(m.text()))) consoleErrors.push(`${name}: ${m.text()}`);
    });
    page.on("pageerror", (e) => consoleErrors.push(`${name}: ${e.message}`));
  });
  let cut = false;
  const sockets: WebSocketRoute[] = [];
  await context.routeWebSocket(/\/ws\//, (ws) => {
    if (cut) {
      void ws.close({ code: 1001 }).catch(() => {});
      return;
    }
    ws.connectToServer();
    sockets.push(ws);
  });
  const refuse = (route: import("@playwright/test").Route) => route.abort("internetdisconnected");
  const page = await context.newPage();
  return {
    name,
    context,
    page,
    user,
    async cut() {
      cut = true;
      await context.route("**/*", refuse);
      for (const ws of sockets.splice(0)) await ws.close({ code: 1001 }).catch(() => {});
    },
    async restore() {
      cut = false;
      await context.unroute("**/*", refuse);
      await page.evaluate(() => window.dispatchEvent(new Event("online")));
    },
  };
}

async function openPairing(p: Phone) {
  const panel = p.page.getByRole("dialog", { name: "Pair a nearby phone" });
  if (!(await panel.isVisible())) {
    await p.page.getByLabel("More options").click();
    await p.page.getByRole("button", { name: "Pair a nearby phone" }).click();
  }
  await expect(panel).toBeVisible();
  return panel;
}

/** `x` shows its code, `y` pastes it and shows its answer, `x` pastes the answer: both list each other as connected. */
async function pair(x: Phone, y: Phone) {
  const xPanel = await openPairing(x);
  const yPanel = await openPairing(y);
  await xPanel.getByRole("button", { name: "Show my pairing code" }).click();
  const xCode = xPanel.getByRole("textbox", { name: "Pairing code", exact: true });
  await expect(xCode).toHaveValue(/^LU1\./);
  const offer = await xCode.inputValue();
  await yPanel.getByRole("textbox", { name: "Paste a pairing code" }).fill(offer);
  await yPanel.getByRole("button", { name: "Use this code" }).click();
  await expect(yPanel.getByText(`Now let ${x.name}'s phone scan this code`)).toBeVisible();
  const answer = await yPanel.getByRole("textbox", { name: "Pairing code", exact: true }).inputValue();
  expect(answer).toMatch(/^LU1\./);
  expect(answer).not.toBe(offer);
  await xPanel.getByRole("textbox", { name: "Paste a pairing code" }).fill(answer);
  await xPanel.getByRole("button", { name: "Use this code" }).click();
  await expect(xPanel.getByRole("list", { name: "Paired phones" }).getByRole("listitem").filter({ hasText: y.name })).toContainText(
    "connected",
  );
  await expect(yPanel.getByRole("list", { name: "Paired phones" }).getByRole("listitem").filter({ hasText: x.name })).toContainText(
    "connected",
  );
  // The screen says a first pairing trusts the key it sees, and each phone's key, as the other lists it, is the key
  // that phone shows as its own: two people can compare them.
  for (const [me, myPanel, otherPanel] of [
    [x, xPanel, yPanel],
    [y, yPanel, xPanel],
  ] as const) {
    await expect(myPanel.getByText("A first pairing trusts the key the code shows.", { exact: false })).toBeVisible();
    const own = myPanel.getByText("This phone's key:").locator("code");
    await expect(own).toHaveText(/^[0-9A-F]{4} [0-9A-F]{4} [0-9A-F]{4}$/);
    const listed = otherPanel
      .getByRole("list", { name: "Paired phones" })
      .getByRole("listitem")
      .filter({ hasText: me.name })
      .locator("code");
    await expect(listed).toHaveText((await own.textContent())!);
  }
}

test("three phones with no server: paired by code, a message and an SOS cross two hops, a private one stays sealed, the room keeps them once", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await phone(browser, baseURL!, at, "Adaeze");
  const b = await phone(browser, baseURL!, at, "Babatunde");
  const c = await phone(browser, baseURL!, at, "Chinedu");

  // One online visit each: the chat, its area room, the offline worker holding the build (the pairing screen's
  // code comes from it), and the device key published (the relay checks it later).
  for (const p of [a, b, c]) {
    await p.page.goto("/chat");
    await expect(p.page.getByText("LIVE", { exact: true })).toBeVisible();
    await expect
      .poll(() => p.page.evaluate(async () => Boolean(navigator.serviceWorker.controller && (await caches.match("/chat")))), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect
      .poll(async () => ((await (await p.context.request.get(`/api/keys/${p.user.id}`)).json()) as { keys: unknown[] }).keys.length)
      .toBeGreaterThan(0);
  }
  const room = ((await (await a.context.request.get("/api/rooms")).json()) as { nearby: { roomId: string } }).nearby.roomId;
  const stored = async () =>
    ((await (await a.context.request.get(`/api/rooms/${encodeURIComponent(room)}/stats`)).json()) as { messagesStored: number })
      .messagesStored;
  const before = await stored();

  for (const p of [a, b, c]) await p.cut();
  for (const p of [a, b, c]) await expect(p.page.getByText("OFFLINE", { exact: true })).toBeVisible();

  await pair(a, b);
  await pair(b, c);

  // A's message reaches C through B (A and C are not paired).
  await a.page.getByRole("textbox", { name: "Message", exact: true }).fill("Water is being shared at the north gate");
  await a.page.getByRole("textbox", { name: "Message", exact: true }).press("Enter");
  await expect(bubble(b.page, "Water is being shared at the north gate")).toHaveCount(1);
  await expect(bubble(c.page, "Water is being shared at the north gate")).toHaveCount(1);
  await expect(bubble(c.page, "Water is being shared at the north gate")).toContainText(a.name);

  // A private message for C, sealed for C's device: B carries it but cannot read it.
  const aPanel = await openPairing(a);
  await expect(aPanel.getByRole("combobox", { name: "To" }).getByRole("option", { name: c.name })).toHaveCount(1);
  await aPanel.getByRole("combobox", { name: "To" }).selectOption({ label: c.name });
  await aPanel.getByRole("textbox", { name: "Private message" }).fill("The key is under the blue pot");
  await aPanel.getByRole("button", { name: "Send privately" }).click();
  const cPanel = await openPairing(c);
  await expect(cPanel.getByRole("list", { name: "Private messages on the mesh" })).toContainText(
    `From ${a.name}: The key is under the blue pot`,
  );
  await expect(b.page.getByText("The key is under the blue pot")).toHaveCount(0);
  expect(await b.page.content()).not.toContain("blue pot");

  // An SOS with no network reaches both paired phones at once, shown as an emergency.
  await a.page.getByRole("group", { name: "Actions" }).getByRole("button", { name: "SOS" }).click();
  await a.page.getByRole("alertdialog", { name: "Send SOS" }).getByRole("button", { name: "Send SOS now" }).click();
  for (const p of [b, c]) {
    await expect(bubble(p.page, "I need help urgently")).toHaveCount(1);
    await expect(bubble(p.page, "I need help urgently")).toContainText("Emergency");
  }
  // Nothing reached the room while every phone was cut off.
  expect(await stored()).toBe(before);

  // B reaches the relay again and hands in what A sent: the message and the SOS's alert, once.
  await b.restore();
  await expect(b.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect.poll(stored, { timeout: 20_000 }).toBe(before + 2);
  await expect(bubble(b.page, "SOS — Other: 🆘 SOS: I need help urgently.")).toHaveCount(1);
  // The relay's alert takes the place of the copy B heard from A's phone: one SOS on screen, not two.
  await expect(bubble(b.page, "I need help urgently")).toHaveCount(1);

  // C comes back too: the relay's alert reaches it and C still shows one SOS.
  await c.restore();
  await expect(c.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(bubble(c.page, "SOS — Other: 🆘 SOS: I need help urgently.")).toHaveCount(1);
  await expect(bubble(c.page, "I need help urgently")).toHaveCount(1);
  await expect(bubble(b.page, "I need help urgently")).toHaveCount(1);

  // A comes back too: its outbox sends the same message and SOS; the room already has them.
  await a.restore();
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(bubble(a.page, "Water is being shared at the north gate").getByRole("img", { name: "Sending" })).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(a.page.getByText("SOS waiting for a connection")).toHaveCount(0);
  expect(await stored()).toBe(before + 2);
  await expect(bubble(b.page, "Water is being shared at the north gate")).toHaveCount(1);

  // The private message is in C's direct chat with A, kept in C's history as a message from A, before the room has
  // it. A's own copy waited in A's outbox for that chat: once A opens the chat online it reaches the room, sealed by
  // the room's protocol, with the same id, so C still shows it once.
  const opened = await a.context.request.post("/api/rooms/dm", { data: { userId: c.user.id } });
  const dm = ((await opened.json()) as { room: { id: string } }).room.id;
  await c.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(c.page, "The key is under the blue pot")).toHaveCount(1);
  await expect(bubble(c.page, "The key is under the blue pot").getByRole("img", { name: "Sending" })).toHaveCount(0);
  await a.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(a.page, "The key is under the blue pot")).toHaveCount(1);
  await expect(bubble(a.page, "The key is under the blue pot").getByRole("img", { name: "Sending" })).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(bubble(c.page, "The key is under the blue pot")).toHaveCount(1);

  for (const p of [a, b, c]) await p.context.close();
});
