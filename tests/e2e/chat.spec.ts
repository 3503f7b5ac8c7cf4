// Mesh chat in a real browser: two people (two browser contexts) in one area room, through network loss and
// reloads, and privately in a direct chat whose frames carry no plaintext.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";
import { linkSecondDevice } from "./link-device";
import { bubble, place, send } from "./people";

/** A point of its own per test (about 100 km apart), so parallel tests never share an area room. */
// A console error in any page of these tests fails the test (as the fixtures do for `page`), except the
// network failures that going offline on purpose produces.
const EXPECTED_OFFLINE_ERRORS = [/ERR_INTERNET_DISCONNECTED/, /net::ERR_FAILED/, /WebSocket connection to .* failed/];
const consoleErrors: string[] = [];
test.beforeEach(() => {
  consoleErrors.length = 0;
});
test.afterEach(() => {
  expect(consoleErrors, "console errors during the test").toEqual([]);
});
function watchConsole(page: Page) {
  page.on("console", (m) => {
    if (m.type() === "error" && !EXPECTED_OFFLINE_ERRORS.some((re) => re.test(m.text()))) consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(e.message));
}

async function person(browser: Browser, baseURL: string, at: { latitude: number; longitude: number }, nickname: string) {
  const context = await browser.newContext({ permissions: ["geolocation"], geolocation: at });
  await acceptCookies(context, baseURL);
  const started = await context.request.post(`${baseURL}/api/auth/anonymous`);
  expect(started.ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, { data: { nickname, onboardingCompleted: true } });
  expect(patched.ok()).toBe(true);
  const user = (await patched.json()).user as { id: string; nickname: string };
  context.on("page", watchConsole);
  const page = await context.newPage();
  return { context, page, user };
}

async function openChat(page: Page, path = "/chat") {
  await page.goto(path);
  await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: /Area|area/ }).first()).toBeVisible();
}

test("two people in one area room chat both ways; statuses go sent, delivered, read", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Amaka");
  const b = await person(browser, baseURL!, at, "Bello");
  await openChat(a.page);
  await openChat(b.page);

  // The area room is public and says so; presence counts both people's sockets.
  await expect(a.page.getByText("Public room: anyone in this area can read it")).toBeVisible();
  await expect(a.page.getByText("End-to-End Encrypted")).toHaveCount(0);
  await expect(a.page.getByText("2 nodes")).toBeVisible();

  // Blank never sends; Send is disabled until there is text.
  const sendButton = a.page.getByRole("button", { name: "Send" });
  await expect(sendButton).toBeDisabled();
  await a.page.getByRole("textbox", { name: "Message" }).fill("   ");
  await expect(sendButton).toBeDisabled();
  await a.page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(a.page.locator(".msg")).toHaveCount(0);

  // Typing shows on the other side before anything is sent.
  await a.page.getByRole("textbox", { name: "Message" }).fill("Hello from");
  await expect(b.page.getByText("Amaka is typing...")).toBeVisible();
  await send(a.page, "Hello from Amaka");
  await expect(a.page.getByRole("textbox", { name: "Message" })).toHaveValue("");
  const theirs = bubble(b.page, "Hello from Amaka");
  await expect(theirs).toBeVisible();
  await expect(theirs).toContainText("Amaka");
  await expect(theirs).toContainText("1 hop");

  // B's device has it and B has it on screen: A's message reaches read (green double tick).
  const mine = bubble(a.page, "Hello from Amaka");
  await expect(mine.getByRole("img", { name: "Read" })).toBeVisible();
  await expect(mine.locator(".msg-status-read")).toHaveCSS("color", "rgb(22, 163, 74)");

  // And back, with a quick reply chip.
  await b.page.getByRole("group", { name: "Quick replies" }).getByRole("button", { name: "Thank you" }).click();
  await expect(bubble(a.page, "Thank you")).toBeVisible();
  await expect(bubble(b.page, "Thank you").getByRole("img", { name: "Read" })).toBeVisible();

  // B on another screen: A's next message is delivered (B's device has it), and read once B opens the chat.
  await b.page.goto("/mesh-network");
  await send(a.page, "Are you there?");
  const waiting = bubble(a.page, "Are you there?");
  await expect(waiting.getByRole("img", { name: "Delivered" })).toBeVisible();
  await b.page.goto("/chat");
  await expect(bubble(b.page, "Are you there?")).toBeVisible();
  await expect(waiting.getByRole("img", { name: "Read" })).toBeVisible();

  // History shows on reload, from this device's storage.
  await a.page.reload();
  await expect(bubble(a.page, "Hello from Amaka")).toBeVisible();
  await expect(bubble(a.page, "Thank you")).toBeVisible();
  await a.context.close();
  await b.context.close();
});

async function cachedForOffline(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          return Boolean(reg?.active && (await caches.match("/chat")));
        }),
      { timeout: 20_000 },
    )
    .toBe(true);
}

test("a message written offline survives a reload and arrives exactly once when the network returns", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Chidi");
  const b = await person(browser, baseURL!, at, "Dayo");
  await openChat(a.page);
  await openChat(b.page);
  await send(b.page, "Before the network went");
  await expect(bubble(a.page, "Before the network went")).toBeVisible();
  await cachedForOffline(a.page);

  await a.context.setOffline(true);
  await expect(a.page.getByText("OFFLINE", { exact: true })).toBeVisible();
  await send(a.page, "Written with no network");
  const pending = bubble(a.page, "Written with no network");
  await expect(pending.getByRole("img", { name: "Sending" })).toBeVisible();

  // A reload with no network: the offline worker serves /chat, IndexedDB shows history and the outbox.
  const offlinePage = await a.page.reload();
  expect(offlinePage?.fromServiceWorker()).toBe(true);
  await expect(a.page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(bubble(a.page, "Before the network went")).toBeVisible();
  await expect(bubble(a.page, "Written with no network").getByRole("img", { name: "Sending" })).toBeVisible();
  await expect(bubble(b.page, "Written with no network")).toHaveCount(0);

  await a.context.setOffline(false);
  await expect(bubble(b.page, "Written with no network")).toHaveCount(1);
  await expect(bubble(a.page, "Written with no network").getByRole("img", { name: "Read" })).toBeVisible();
  // Exactly once, also after the room answers B's resume on a reload.
  await b.page.reload();
  await expect(bubble(b.page, "Written with no network")).toHaveCount(1);
  await a.page.reload();
  await expect(bubble(a.page, "Written with no network")).toHaveCount(1);
  await a.context.close();
  await b.context.close();
});

test("an SOS pressed with no network goes out through the SOS pipeline once the network returns", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Emeka");
  const b = await person(browser, baseURL!, at, "Funmi");
  await openChat(a.page);
  await openChat(b.page);

  await a.context.setOffline(true);
  await expect(a.page.getByText("OFFLINE", { exact: true })).toBeVisible();
  await a.page.getByRole("group", { name: "Actions" }).getByRole("button", { name: "SOS" }).click();
  await a.page.getByRole("alertdialog", { name: "Send SOS" }).getByRole("button", { name: "Send SOS now" }).click();
  await expect(a.page.getByText("SOS waiting for a connection")).toBeVisible();
  await expect(bubble(a.page, "I need help urgently").getByRole("img", { name: "Sending" })).toBeVisible();

  await a.context.setOffline(false);
  // Rooms take emergencies only from the server: both see the SOS module's alert, once, marked Emergency.
  const alert = (page: Page) => bubble(page, "SOS — Other: 🆘 SOS: I need help urgently.");
  await expect(alert(b.page)).toHaveCount(1);
  await expect(alert(b.page)).toContainText("Emergency");
  await expect(alert(a.page)).toHaveCount(1);
  await expect(bubble(a.page, "I need help urgently")).toHaveCount(1);
  await a.context.close();
  await b.context.close();
});

test("/cache-status, linked from Settings, counts this device's chat history and outbox, and Sync now sends what waited", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Kemi");
  const b = await person(browser, baseURL!, at, "Lanre");
  // A newcomer reaches the page from Settings; the server's cache is not theirs to see.
  await a.page.goto("/settings?tab=network");
  await a.page.getByRole("link", { name: "What this device keeps offline" }).click();
  await expect(a.page.getByRole("heading", { name: "Cache Status", level: 1 })).toBeVisible();
  await expect(a.page.getByRole("heading", { name: "Server" })).toHaveCount(0);
  expect((await a.context.request.get("/api/cache/stats")).status()).toBe(403);

  await openChat(a.page);
  await openChat(b.page);
  const before = `Before the network went ${Date.now()}`;
  await send(b.page, before);
  await expect(bubble(a.page, before)).toBeVisible();
  await cachedForOffline(a.page);
  await a.context.setOffline(true);
  const waiting = `Kept until Sync now ${Date.now()}`;
  await send(a.page, waiting);
  await expect(bubble(a.page, waiting).getByRole("img", { name: "Sending" })).toBeVisible();
  // The chat closes with its message still in the outbox; the cache page opens once the network is back.
  await a.page.close();
  await a.context.setOffline(false);
  const page = await a.context.newPage();
  await page.goto("/cache-status");

  const device = page.getByRole("list", { name: "Device state" });
  await expect(device).toContainText("Waiting to send: 1 message");
  // The history figure is what this device's IndexedDB holds for the person.
  const stored = await page.evaluate(
    (userId) =>
      new Promise<{ messages: number; chats: number }>((resolve, reject) => {
        const req = indexedDB.open(`linkup-mesh-${userId}`);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const all = req.result.transaction("messages").objectStore("messages").getAll();
          all.onsuccess = () =>
            resolve({ messages: all.result.length, chats: new Set(all.result.map((m: { room: string }) => m.room)).size });
        };
      }),
    a.user.id,
  );
  expect(stored.messages).toBeGreaterThanOrEqual(2);
  await expect(device).toContainText(
    `Chat history: ${stored.messages} messages in ${stored.chats} ${stored.chats === 1 ? "chat" : "chats"}`,
  );
  // The offline worker may still be storing what the chat asked it to keep when this page counts: the page says
  // what the cache held when it loaded, so it is read again until the worker is done.
  await expect
    .poll(async () => {
      await page.reload();
      const held = await page.evaluate(async () => {
        const name = (await caches.keys())[0];
        return { name, entries: (await (await caches.open(name)).keys()).length };
      });
      const shown = (await page.getByRole("list", { name: "Caches on this device" }).textContent()) ?? "";
      return shown.includes(`${held.name}: ${held.entries} entr`);
    })
    .toBe(true);
  await expect(bubble(b.page, waiting)).toHaveCount(0);

  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Everything waiting has been sent." })).toBeVisible();
  await expect(device).toContainText("Waiting to send: 0 messages");
  await expect(bubble(b.page, waiting)).toHaveCount(1);

  await page.getByRole("button", { name: "Clear cache" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Cleared \d+ caches? on this device\.$/ })).toBeVisible();
  await a.context.close();
  await b.context.close();
});

test("a tab without a connection chats through another tab of the same browser (local mesh)", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Emeka");
  const b = await person(browser, baseURL!, at, "Funke");
  await openChat(a.page);
  await openChat(b.page);

  // A second tab of A whose relay socket never connects (its room connection is cut at the socket).
  const cut = await a.context.newPage();
  await cut.routeWebSocket(/\/ws\/rooms\//, (ws) => ws.close());
  await cut.goto("/chat");
  await expect(cut.getByText("VIA TAB", { exact: true })).toBeVisible();
  await send(cut, "Relayed by my other tab");
  const received = bubble(b.page, "Relayed by my other tab");
  await expect(received).toHaveCount(1);
  // Two hops: the cut tab, then the tab that relayed it.
  await expect(received).toContainText("2 hops");
  // Receipts come back through the relaying tab too.
  await expect(bubble(cut, "Relayed by my other tab").getByRole("img", { name: "Read" })).toBeVisible();
  // ...and the cut tab hears the room through its sibling.
  await send(b.page, "Heard you");
  await expect(bubble(cut, "Heard you")).toBeVisible();
  await a.context.close();
  await b.context.close();
});

test("with 'Mesh networking' off in Settings, a tab stays off the local mesh", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Ngozi");
  await openChat(a.page);
  await a.page.goto("/settings?tab=network");
  await a.page.getByRole("checkbox", { name: /Mesh networking/ }).uncheck();
  await a.page.getByRole("button", { name: "Save Network Settings" }).click();
  await expect(a.page.getByRole("status").filter({ hasText: "Settings saved" })).toBeVisible();
  await openChat(a.page);

  // The same cut tab as above: with the setting off, no sibling tab carries it, so it says it is offline.
  const cut = await a.context.newPage();
  await cut.routeWebSocket(/\/ws\/rooms\//, (ws) => ws.close());
  await cut.goto("/chat");
  await expect(cut.getByText("OFFLINE", { exact: true })).toBeVisible();
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  // Tabs find each other within two heartbeats (3 s each) when the local mesh is on; give it longer.
  await cut.waitForTimeout(8000);
  await expect(cut.getByText("VIA TAB", { exact: true })).toHaveCount(0);
  await expect(cut.getByText("OFFLINE", { exact: true })).toBeVisible();
  await a.context.close();
});

function recordFrames(page: Page, sink: string[]) {
  page.on("websocket", (ws) => {
    ws.on("framesent", (f) => sink.push(String(f.payload)));
    ws.on("framereceived", (f) => sink.push(String(f.payload)));
  });
}

test("someone back after a long absence gets the whole history, though the room answers a resume in bounded parts", async ({
  browser,
  baseURL,
}) => {
  // 320 KB through the room twice over: slower than the other chat tests on a busy machine.
  test.setTimeout(90_000);
  const at = place();
  const a = await person(browser, baseURL!, at, "Tunde");
  await openChat(a.page);
  const roomId = (await (await a.page.request.get("/api/rooms")).json()).nearby.roomId as string;
  // About 320 KB of long notes in the area room, more than one resume answer carries (256 KiB).
  const count = 40;
  const acked = await a.page.evaluate(
    async ({ roomId, userId, count }) => {
      const ws = new WebSocket(`${location.origin.replace("http", "ws")}/ws/rooms/${encodeURIComponent(roomId)}`);
      await new Promise((r) => ws.addEventListener("open", r, { once: true }));
      const ids = new Set<string>();
      const done = new Promise<number>((resolve) =>
        ws.addEventListener("message", (e) => {
          const f = JSON.parse(String(e.data));
          if (f.type === "ack") ids.add(f.id);
          if (ids.size === count) resolve(ids.size);
        }),
      );
      for (let i = 0; i < count; i++) {
        const envelope = {
          id: `long-note-${i}-${crypto.randomUUID()}`,
          room: roomId,
          senderId: userId,
          timestamp: Date.now(),
          type: "text",
          ttl: 8,
          meshRoute: [],
          isEncrypted: false,
          priority: "normal",
          content: { text: `long note ${i}: ${"market report ".repeat(560)}` },
        };
        ws.send(JSON.stringify({ type: "send", envelope }));
      }
      const n = await done;
      ws.close();
      return n;
    },
    { roomId, userId: a.user.id, count },
  );
  expect(acked).toBe(count);

  const b = await person(browser, baseURL!, at, "Ngozi");
  const frames: string[] = [];
  recordFrames(b.page, frames);
  await openChat(b.page);
  await expect(bubble(b.page, "long note 0:")).toBeVisible();
  await expect(bubble(b.page, `long note ${count - 1}:`)).toBeVisible();
  await expect(b.page.getByRole("listitem").filter({ hasText: /long note \d+:/ })).toHaveCount(count);
  // It came in more than one answer: the first said there was more, and the client asked again.
  expect(frames.some((f) => f.startsWith('{"type":"resume-done"') && f.includes('"more":true'))).toBe(true);
  expect(frames.filter((f) => f.startsWith('{"type":"resume"')).length).toBeGreaterThan(1);
  await a.context.close();
  await b.context.close();
});

test("a direct chat is end-to-end encrypted: no plaintext in any WebSocket frame", async ({ browser, baseURL }) => {
  // Linking Hauwa's second browser by its code (two screens, a key stretched on each) takes its own time.
  test.setTimeout(120_000);
  const at = place();
  const a = await person(browser, baseURL!, at, "Gozie");
  const b = await person(browser, baseURL!, at, "Hauwa");
  const frames: string[] = [];
  recordFrames(a.page, frames);
  recordFrames(b.page, frames);
  await openChat(a.page);
  await openChat(b.page);

  // A opens a direct chat with B from the people in the room.
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Add Contact" }).click();
  await a.page.getByRole("button", { name: "Message Hauwa" }).click();
  await expect(a.page).toHaveURL(/room=dm/);
  await expect(a.page.getByText("End-to-End Encrypted")).toBeVisible();
  await expect(a.page.getByText("Public room: anyone in this area can read it")).toHaveCount(0);
  const dm = new URL(a.page.url()).searchParams.get("room")!;
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();

  // Hauwa stays in the area room: the direct chat's message reaches her device (delivered), unread.
  await b.page.reload();
  await expect(b.page.getByText("LIVE", { exact: true })).toBeVisible();
  const secret = "the spare key is under the blue pot 4471";
  await send(a.page, secret);
  await expect(bubble(a.page, secret).getByRole("img", { name: "Delivered" })).toBeVisible();
  const chip = b.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Gozie/ });
  await expect(chip).toContainText("1 unread");
  await chip.click();
  await expect(b.page).toHaveURL(new RegExp(`room=${encodeURIComponent(dm)}`));
  await expect(b.page.getByRole("heading", { name: "Gozie" })).toBeVisible();
  await expect(bubble(b.page, secret)).toBeVisible();
  await send(b.page, "reply: thanks, got the blue pot 9902");
  await expect(bubble(a.page, "reply: thanks, got the blue pot 9902")).toBeVisible();
  await expect(bubble(a.page, secret).getByRole("img", { name: "Read" })).toBeVisible();

  // Hauwa opens LinkUp in a second browser (a second device, with a key of its own). What was sealed before
  // it existed stays closed to it; what is sent from now on opens on both of her devices.
  const second = await browser.newContext({ permissions: ["geolocation"], geolocation: at });
  await second.addCookies(await b.context.cookies());
  second.on("page", watchConsole);
  const b2 = await second.newPage();
  recordFrames(b2, frames);
  await b2.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(b2.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(b2.getByText("Encrypted for another device").first()).toBeVisible();
  // She links it from her first browser by its code (docs/protocol.md §2a); then both are in her signed list.
  await linkSecondDevice(b.page, b2);
  await expect
    .poll(async () => ((await (await a.page.request.get(`/api/keys/${b.user.id}`)).json()).list.devices as unknown[]).length)
    .toBe(2);
  for (const page of [b.page, b2]) {
    await page.goto(`/chat?room=${encodeURIComponent(dm)}`);
    await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
  }
  await send(a.page, "second secret 5513 for both devices");
  await expect(bubble(b2, "second secret 5513 for both devices")).toBeVisible();
  await expect(bubble(b.page, "second secret 5513 for both devices")).toBeVisible();

  // A location shared in a direct chat travels inside the ciphertext too.
  await a.page.getByRole("group", { name: "Actions" }).getByRole("button", { name: "Location" }).click();
  await a.page.getByRole("alertdialog", { name: "Share your location" }).getByRole("button", { name: "Share my exact location" }).click();
  const located = bubble(b.page, "My location");
  await expect(located.getByRole("link", { name: /Open map/ })).toBeVisible();
  const lat = at.latitude.toFixed(4);

  const dmFrames = frames.filter((f) => f.includes(dm) || f.includes("ciphertext"));
  expect(dmFrames.length).toBeGreaterThan(0);
  // The numbers are probed with a word beside them: a bare "4471" also turns up inside a frame's timestamp.
  for (const f of frames) {
    expect(f).not.toContain("spare key");
    expect(f).not.toContain("pot 4471");
    expect(f).not.toContain("pot 9902");
    expect(f).not.toContain("secret 5513");
    expect(f).not.toContain(lat);
  }
  await a.context.close();
  await b.context.close();
  await second.close();
});

test("/mobile-demo shows live devices in the area, and its AI commands open the chat with the command typed", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Ngozi");
  const b = await person(browser, baseURL!, at, "Olu");
  await openChat(b.page);
  await a.page.goto("/mobile-demo");
  await expect(a.page.locator(".stat", { hasText: "Connected devices in your area room" }).locator("dd")).toHaveText("2");
  await a.page.getByRole("tab", { name: "Mesh" }).click();
  await a.page.getByRole("button", { name: "Scan for Devices" }).click();
  await expect(a.page.getByRole("button", { name: "Scanning..." })).toBeDisabled();
  await expect(a.page.getByRole("button", { name: "Scan for Devices" })).toBeEnabled({ timeout: 6000 });
  await expect(a.page.getByRole("list", { name: "Devices" })).toContainText("Olu");
  await a.page.getByRole("tab", { name: "AI Features" }).click();
  await a.page.getByRole("link", { name: "Try market in chat" }).click();
  await expect(a.page.getByRole("textbox", { name: "Message" })).toHaveValue("@ai market rice Lagos");
  await a.context.close();
  await b.context.close();
});

test.describe("joining", () => {
  test("the join form starts a session named after the phone and opens the chat", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    await context.grantPermissions(["geolocation"]);
    await context.setGeolocation(place());
    await page.goto("/chat");
    await page.getByLabel("Phone number").fill("08031234567");
    await page.getByRole("button", { name: "Join Mesh Network" }).click();
    await expect(page.getByText("Connected to LinkUp Mesh!")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    const me = (await (await page.request.get("/api/me")).json()).user;
    expect(me).toMatchObject({ nickname: "User 4567", onboardingCompleted: true });
  });

  test("a signed-in user who has not finished onboarding is sent to /onboarding", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    expect((await page.request.post("/api/auth/anonymous")).ok()).toBe(true);
    await page.goto("/chat");
    await expect(page).toHaveURL(/\/onboarding/);
  });
});

test("the chat's actions: location as a message, '@ai ' asks the assistant, the cookie notice", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Ify");
  // This person has not accepted cookies: the chat shows the notice at the bottom.
  await a.context.clearCookies({ name: "linkup-cookies-accepted" });
  await openChat(a.page);
  const notice = a.page.getByRole("region", { name: "Cookie notice" });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toHaveCount(0);
  await a.page.reload();
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  // Dismiss lasts for the session only; Accept stores the consent cookie.
  const again = a.page.getByRole("region", { name: "Cookie notice" });
  await expect(again).toHaveCount(0);
  await a.page.evaluate(() => sessionStorage.clear());
  await a.page.reload();
  await a.page.getByRole("region", { name: "Cookie notice" }).getByRole("button", { name: "Accept" }).click();
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(a.page.getByRole("region", { name: "Cookie notice" })).toHaveCount(0);
  expect((await a.context.cookies()).find((c) => c.name === "linkup-cookies-accepted")?.value).toBe("true");

  // Location asks first, says who will see it, and offers the area's name instead of the coordinates.
  await a.page.getByRole("group", { name: "Actions" }).getByRole("button", { name: "Location" }).click();
  const confirm = a.page.getByRole("alertdialog", { name: "Share your location" });
  await expect(confirm).toContainText("Everyone near you can read this room");
  await confirm.getByRole("button", { name: /^Share the area name/ }).click();
  const area = bubble(a.page, "I am near:");
  await expect(area).toBeVisible();
  await expect(area).not.toContainText(at.latitude.toFixed(3));
  await expect(area.getByRole("link", { name: /Open map/ })).toHaveCount(0);
  // The exact position only when chosen: then it is a message, and reported to the server.
  await a.page.getByRole("group", { name: "Actions" }).getByRole("button", { name: "Location" }).click();
  await confirm.getByRole("button", { name: "Share my exact location" }).click();
  const shared = bubble(a.page, "My location");
  await expect(shared).toContainText(at.latitude.toFixed(5));
  await expect(shared.getByRole("link", { name: /Open map/ })).toBeVisible();
  expect((await (await a.page.request.get("/api/me")).json()).user.hasLocation).toBe(true);

  // Select Messages: delete the location message from this device only.
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Select Messages" }).click();
  await shared.getByRole("checkbox", { name: "Select message" }).check();
  await a.page.getByRole("toolbar", { name: "Selected messages" }).getByRole("button", { name: "Delete from this device" }).click();
  await expect(bubble(a.page, "My location")).toHaveCount(0);
  await a.page.reload();
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(bubble(a.page, "My location")).toHaveCount(0);

  // The 'Emergency' quick reply opens the SOS confirmation; it posts nothing by itself.
  await a.page.getByRole("group", { name: "Quick replies" }).getByRole("button", { name: "Emergency" }).click();
  const sos = a.page.getByRole("alertdialog", { name: "Send SOS" });
  await expect(sos).toBeVisible();
  await sos.getByRole("button", { name: "Cancel" }).click();
  await expect(sos).toHaveCount(0);
  await expect(a.page.getByRole("listitem").filter({ hasText: /^Emergency$/ })).toHaveCount(0);
  await expect(a.page.locator(".msg").filter({ hasText: "Emergency" })).toHaveCount(0);

  // '@ai ' goes to the assistant: the thinking line, then an answer from LIA.
  await a.page.getByRole("button", { name: "AI Help" }).click();
  await expect(a.page.getByRole("textbox", { name: "Message" })).toHaveValue("@ai ");
  await a.page.getByRole("textbox", { name: "Message" }).fill("@ai help");
  await a.page.getByRole("button", { name: "Send" }).click();
  await expect(a.page.locator(".msg-ai")).toHaveCount(1, { timeout: 15_000 });
  await expect(a.page.locator(".msg-ai")).toContainText("LIA Assistant");
  await a.context.close();
});

test("a private group: the invited person accepts, members read each other through sender keys, the room only relays ciphertext, and a member leaves", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Jide");
  const b = await person(browser, baseURL!, at, "Kemi");
  const frames: string[] = [];
  recordFrames(a.page, frames);
  recordFrames(b.page, frames);
  await openChat(a.page);
  await openChat(b.page);
  await expect(a.page.getByText("2 nodes")).toBeVisible();

  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "New Group" }).click();
  const form = a.page.getByRole("form", { name: "New group" });
  await form.getByLabel("Group name").fill("Market women");
  await form.getByRole("checkbox", { name: "Kemi" }).check();
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(a.page).toHaveURL(/room=group/);
  await expect(a.page.getByRole("heading", { name: "Market women" })).toBeVisible();
  await expect(a.page.getByText("End-to-End Encrypted")).toBeVisible();
  const group = new URL(a.page.url()).searchParams.get("room")!;
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();

  // Kemi is not a member yet: the room has the message (sent), her device does not.
  await send(a.page, "first note before Kemi looks");
  const first = bubble(a.page, "first note before Kemi looks");
  await expect(first.getByRole("img", { name: "Sent" })).toBeVisible();

  // Kemi is invited, not added: the group is not among her rooms until she accepts.
  await b.page.reload();
  const invitations = b.page.getByRole("list", { name: "Group invitations" });
  await expect(invitations).toContainText("Jide invited you to Market women");
  await expect(b.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Market women/ })).toHaveCount(0);
  await invitations.getByRole("button", { name: "Accept invitation to Market women" }).click();
  await expect(b.page).toHaveURL(new RegExp(`room=${encodeURIComponent(group)}`));
  await expect(b.page.getByRole("heading", { name: "Market women" })).toBeVisible();
  await expect(b.page.getByRole("list", { name: "Group invitations" })).toHaveCount(0);
  await expect(b.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Market women/ })).toBeVisible();
  await expect(b.page.getByText("LIVE", { exact: true })).toBeVisible();

  // From now on she reads the group; what was said before she joined stays closed to her (its sender key
  // was sealed only to the members of that moment: docs/protocol.md).
  await send(a.page, "tomatoes are 4800 naira a basket today");
  await expect(bubble(b.page, "tomatoes are 4800 naira a basket today")).toBeVisible();
  await expect(bubble(b.page, "first note before Kemi looks")).toHaveCount(0);
  await send(b.page, "thanks, pepper is 3100");
  await expect(bubble(a.page, "thanks, pepper is 3100")).toBeVisible();
  for (const f of frames) {
    expect(f).not.toContain("are 4800 naira");
    expect(f).not.toContain("is 3100");
  }
  expect(frames.some((f) => f.includes(group) && f.includes("ciphertext"))).toBe(true);

  // Group Info lists the members from the server.
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Group Info" }).click();
  const info = a.page.getByRole("dialog", { name: "Group Info" });
  await expect(info).toContainText("private and end-to-end encrypted");
  const members = info.getByRole("list", { name: "Members" });
  await expect(members).toContainText("Jide (you)");
  await expect(members.getByRole("button", { name: "Message Kemi" })).toBeVisible();

  // Anyone can leave: Kemi's list no longer has the group.
  await b.page.getByRole("button", { name: "Leave group Market women" }).click();
  await expect(b.page).toHaveURL(/\/chat$/);
  await expect(b.page.getByRole("navigation", { name: "Rooms" }).getByRole("link", { name: /Market women/ })).toHaveCount(0);
  await a.context.close();
  await b.context.close();
});

test("/mesh-network lists people in the area room, this device's tabs and live figures; /bluetooth-advanced is honest", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Lami");
  const b = await person(browser, baseURL!, at, "Musa");
  await openChat(b.page);
  await a.page.goto("/mesh-network");
  const nearby = a.page.getByRole("list", { name: "People nearby" });
  await expect(nearby.getByRole("button", { name: "Message Musa" })).toBeVisible();
  await expect(a.page.getByText("distance not shared")).toBeVisible();
  await expect(a.page.getByText("What a browser cannot do:")).toBeVisible();

  // A second tab of the same browser shows up on the local mesh.
  const second = await a.context.newPage();
  await second.goto("/chat");
  // By name only: the tab's internal id is no one's business (issue 32).
  await expect(a.page.getByRole("list", { name: "Tabs on this device" }).getByText("Lami", { exact: true })).toBeVisible();
  await expect(a.page.getByText(/tab-[0-9A-Za-z_-]{4}/)).toHaveCount(0);

  await a.page.getByRole("tab", { name: "Stats" }).click();
  await expect(a.page.getByText("Nodes in your area room")).toBeVisible();
  const nodes = a.page.locator(".stat", { hasText: "Nodes in your area room" }).locator("dd");
  await expect(nodes).toHaveText("3");
  // The room's own figures: two people (Lami with two tabs, Musa), three active connections.
  const figure = (label: string) => a.page.getByLabel("Area room figures").locator(".stat", { hasText: label }).locator("dd");
  await expect(figure("People connected")).toHaveText("2");
  await expect(figure("Active connections")).toHaveText("3");
  await a.page.getByRole("tab", { name: "Network Map" }).click();
  await expect(a.page.getByText(/LinkUp relay for the area room/)).toBeVisible();

  await a.page.goto("/bluetooth-advanced");
  await expect(a.page.getByRole("heading", { name: "Bluetooth and the LinkUp mesh" })).toBeVisible();
  await expect(a.page.getByText(/cannot send chat messages over Bluetooth/)).toBeVisible();
  await a.context.close();
  await b.context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the join form still starts a session and shows the chat with its rooms", async ({ page, context, baseURL }) => {
    await acceptCookies(context, baseURL!);
    await page.goto("/chat");
    await page.getByLabel("Phone number").fill("+2348030009876");
    await page.getByRole("button", { name: "Join Mesh Network" }).click();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    await expect(page.getByText("Live chat needs JavaScript")).toBeVisible();
    const me = (await (await page.request.get("/api/me")).json()).user;
    expect(me).toMatchObject({ nickname: "User 9876", onboardingCompleted: true });
  });
});
