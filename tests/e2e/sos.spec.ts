// SOS in a real browser: one user sends an SOS from /emergency with the device's location; a second user in
// the same area sees it in their notification centre and among the active SOS nearby; the sender resolves it.
import { createECDH, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";
import { acceptCookies, expect, test } from "./fixtures";

// Two points about 150 m apart in Yaba, Lagos: the same ~5 km area cell.
const SENDER = { latitude: 6.5095, longitude: 3.3711 };
const NEIGHBOUR = { latitude: 6.5105, longitude: 3.3721 };

test("an SOS from /emergency reaches a neighbour's notifications and the nearby list, and the sender resolves it", async ({
  browser,
  baseURL,
}) => {
  const url = baseURL as string;
  const senderCtx = await browser.newContext({ permissions: ["geolocation"], geolocation: SENDER });
  const neighbourCtx = await browser.newContext({ permissions: ["geolocation"], geolocation: NEIGHBOUR });
  await acceptCookies(senderCtx, url);
  await acceptCookies(neighbourCtx, url);

  // The neighbour is a LinkUp user whose last reported location is in the same area.
  const started = await neighbourCtx.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } });
  expect(started.ok()).toBe(true);
  const located = await neighbourCtx.request.put(`${url}/api/me/location`, { data: NEIGHBOUR, headers: { origin: url } });
  expect(located.ok()).toBe(true);
  const onboarded = await neighbourCtx.request.patch(`${url}/api/me`, { data: { onboardingCompleted: true }, headers: { origin: url } });
  expect(onboarded.ok()).toBe(true);
  // The neighbour has the chat open in their area room.
  const chat = await neighbourCtx.newPage();
  await chat.goto("/chat");
  await expect(chat.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(chat.getByText("Public room: anyone in this area can read it")).toBeVisible();

  // The sender has never used LinkUp: the SOS starts an anonymous identity by itself.
  const page = await senderCtx.newPage();
  await page.goto("/emergency");
  await expect(page.getByRole("heading", { name: "Emergency mode" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Call 112" })).toHaveAttribute("href", "tel:112");
  await expect(page.getByRole("link", { name: "Call 199" })).toHaveAttribute("href", "tel:199");
  await expect(page.getByText(/Using your device location/)).toBeVisible();

  const start = page.getByRole("button", { name: "Start Emergency Broadcast" });
  await expect(start).toBeDisabled();
  await page.getByLabel("Emergency type").selectOption("fire");
  await expect(page.getByRole("heading", { name: "What to do now: Fire" })).toBeVisible();
  await page.getByLabel("Emergency message").fill("Fire in the shop next to the pharmacy, people trapped");
  await expect(start).toBeEnabled();
  await expect(start).toHaveAttribute("type", "button");
  await start.click();
  // One tap never alerts an area: it asks first, as the chat does.
  await page.getByRole("alertdialog", { name: "Confirm SOS" }).getByRole("button", { name: "Send SOS now" }).click();

  const result = page.locator(".sos-result");
  await expect(result).toContainText("SOS sent.");
  await expect(result).toContainText("0 emergency contacts");
  // The sender's own SOS is listed as active, with a Resolve button.
  const mine = page.locator(".sos-item", { hasText: "Fire in the shop next to the pharmacy" });
  await expect(mine).toContainText("Your SOS");

  // The neighbour sees it arrive live in the area chat, marked as an emergency.
  const sosBubble = chat.getByRole("listitem").filter({ hasText: "Fire in the shop next to the pharmacy, people trapped" });
  await expect(sosBubble).toBeVisible();
  await expect(sosBubble).toContainText("Emergency");

  // The neighbour finds it in notifications, with the unread badge, and can mark it read.
  const other = await neighbourCtx.newPage();
  await other.goto("/notifications");
  const item = other.locator(".notification", { hasText: "SOS nearby: Fire" });
  await expect(item).toContainText("Fire in the shop next to the pharmacy, people trapped");
  await expect(other.getByRole("heading", { name: /Notifications\s*1 unread/ })).toBeVisible();
  await expect(item.getByRole("link", { name: "Call 112" })).toHaveAttribute("href", "tel:112");
  // The page marks it read at once; the reload waits for the server to have it (the action's answer).
  const saved = other.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/notifications"));
  await item.getByRole("button", { name: /Mark read/ }).click();
  await expect(item.getByRole("button", { name: /Mark read/ })).toHaveCount(0);
  expect((await saved).ok()).toBe(true);
  await other.reload();
  await expect(other.getByRole("heading", { name: /unread/ })).toHaveCount(0);

  // Preferences are saved on the server, with the product's toast (docs/product/settings-and-notifications.md).
  const market = other.getByRole("checkbox", { name: "Market updates" });
  await expect(market).not.toBeChecked();
  await market.check();
  await expect(other.getByText("Notification preferences saved successfully.")).toBeVisible();
  await other.reload();
  await expect(other.getByRole("checkbox", { name: "Market updates" })).toBeChecked();

  // ...and among the active SOS nearby, with distance and time; only the sender (or an admin) can resolve.
  await other.goto("/emergency");
  const seen = other.locator(".sos-item", { hasText: "Fire in the shop next to the pharmacy" });
  await expect(seen).toContainText(/\d+ m · \d+ minutes? ago/);
  await expect(seen.getByRole("button", { name: /Resolve/ })).toHaveCount(0);

  await mine.getByRole("button", { name: /Resolve/ }).click();
  await expect(page.locator(".sos-item", { hasText: "Fire in the shop next to the pharmacy" })).toHaveCount(0);
  await other.reload();
  await expect(other.locator(".sos-item", { hasText: "Fire in the shop next to the pharmacy" })).toHaveCount(0);

  await senderCtx.close();
  await neighbourCtx.close();
});

// Web Push end to end through the built Worker: a loopback HTTP server stands in for the browser's push
// service (accepted only because the local Worker runs with ENVIRONMENT=development).
test("an SOS pushes an encrypted, VAPID-signed alert to a neighbour's push service; an expired subscription is removed", async ({
  playwright,
  baseURL,
}) => {
  const url = baseURL as string;
  const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  let answer = 201;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const pushBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const area = { latitude: 9.0765, longitude: 7.3986 }; // Abuja
    const neighbour = await playwright.request.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
    const sender = await playwright.request.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
    for (const who of [neighbour, sender]) {
      expect((await who.post("/api/auth/anonymous")).ok()).toBe(true);
      expect((await who.put("/api/me/location", { data: area })).ok()).toBe(true);
    }
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const sub = await neighbour.post("/api/push/subscribe", {
      data: {
        endpoint: `${pushBase}/sub/1`,
        keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
      },
    });
    expect(sub.status()).toBe(201);

    const sos = await sender.post("/api/emergency/broadcast", {
      data: { message: "Flood water rising on our street", emergencyType: "flood", clientRequestId: `e2e-${Date.now()}` },
    });
    expect(sos.status()).toBe(201);
    expect((await sos.json()).reached.push).toBe(1);
    expect(received).toHaveLength(1);

    const payload = JSON.parse(
      ece.decrypt(received[0].body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth }).toString("utf8"),
    );
    expect(payload).toMatchObject({ type: "emergency", title: "SOS nearby: Flood", url: "/emergency", priority: "critical" });
    expect(payload.body).toContain("Flood water rising on our street");

    const { publicKey } = await (await neighbour.get("/api/push/vapid-public-key")).json();
    const [, jwt, k] = /^vapid t=([^,]+), k=(.+)$/.exec(String(received[0].headers.authorization)) ?? [];
    expect(k).toBe(publicKey);
    const [h, c, s] = jwt.split(".");
    const key = await crypto.subtle.importKey("raw", Buffer.from(publicKey, "base64url"), { name: "ECDSA", namedCurve: "P-256" }, false, [
      "verify",
    ]);
    expect(
      await crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        key,
        Buffer.from(s, "base64url"),
        new TextEncoder().encode(`${h}.${c}`),
      ),
    ).toBe(true);
    expect(JSON.parse(Buffer.from(c, "base64url").toString()).aud).toBe(pushBase);

    // The push service now says the subscription is gone: LinkUp removes it.
    answer = 410;
    await sender.post("/api/emergency/broadcast", {
      data: { message: "Still flooding", emergencyType: "flood", clientRequestId: `e2e-${Date.now()}-2` },
    });
    expect(received).toHaveLength(2);
    expect(await (await neighbour.get("/api/push/status")).json()).toMatchObject({ configured: true, subscriptions: 0 });
    await neighbour.dispose();
    await sender.dispose();
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("emergency contacts kept in settings get the SOS by WhatsApp (the dev outbox stands in for Twilio)", async ({ browser, baseURL }) => {
  const url = baseURL as string;
  const ctx = await browser.newContext({ permissions: ["geolocation"], geolocation: { latitude: 7.3775, longitude: 3.947 } });
  await acceptCookies(ctx, url);
  expect((await ctx.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
  const page = await ctx.newPage();
  const rest = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");

  await page.goto("/settings");
  const section = page.locator("#emergency-contacts");
  await expect(section.getByText("No emergency contacts yet.")).toBeVisible();
  await section.getByLabel("Contact name").fill("Mama Ngozi");
  await section.getByLabel("Contact phone").fill(`0803${rest}`);
  await section.getByRole("button", { name: "Add contact" }).click();
  await expect(section.getByText(`+234803${rest}`)).toBeVisible();
  await expect(section.getByRole("button", { name: "Remove Mama Ngozi" })).toBeVisible();

  await page.goto("/emergency");
  await page.getByLabel("Emergency message").fill("Car crash on the expressway, two hurt");
  await page.getByLabel("Emergency type").selectOption("accident");
  // With the page's scripts running Start asks first (before them, the form posts as without JavaScript).
  await expect(page.getByRole("button", { name: "Start Emergency Broadcast" })).toHaveAttribute("type", "button");
  await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
  await page.getByRole("button", { name: "Send SOS now" }).click();
  await expect(page.locator(".sos-result")).toContainText("1 emergency contact.");

  const outbox = await ctx.request.get(`${url}/api/dev/outbox?limit=100`);
  const { messages } = (await outbox.json()) as { messages: { to: string; channel: string; body: string }[] };
  const sent = messages.find((m) => m.to === `+234803${rest}`);
  expect(sent?.channel).toBe("whatsapp");
  expect(sent?.body).toContain("Car crash on the expressway, two hurt");
  expect(sent?.body).toContain("maps.google.com/?q=7.37750,3.94700");
  await ctx.close();
});

test("the chat's SOS goes through the same pipeline: the neighbour is notified and the contact messaged", async ({ browser, baseURL }) => {
  const url = baseURL as string;
  const at = { latitude: 10.5105, longitude: 7.4165 }; // Kaduna
  const people = [];
  for (const nickname of ["Zainab", "Musa"]) {
    const ctx = await browser.newContext({ permissions: ["geolocation"], geolocation: at });
    await acceptCookies(ctx, url);
    expect((await ctx.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
    expect(
      (await ctx.request.patch(`${url}/api/me`, { data: { nickname, onboardingCompleted: true }, headers: { origin: url } })).ok(),
    ).toBe(true);
    expect((await ctx.request.put(`${url}/api/me/location`, { data: at, headers: { origin: url } })).ok()).toBe(true);
    people.push(ctx);
  }
  const [senderCtx, neighbourCtx] = people;
  const rest = String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");
  expect(
    (
      await senderCtx.request.post(`${url}/api/contacts`, { data: { name: "Baba", phone: `0805${rest}` }, headers: { origin: url } })
    ).status(),
  ).toBe(201);

  const page = await senderCtx.newPage();
  await page.goto("/chat");
  await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(page.getByText("Public room: anyone in this area can read it")).toBeVisible();
  await page.getByRole("button", { name: "SOS", exact: true }).click();
  await page.getByRole("button", { name: "Send SOS now" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "SOS: I need help urgently." })).toBeVisible();

  const other = await neighbourCtx.newPage();
  await other.goto("/notifications");
  await expect(other.locator(".notification", { hasText: "SOS nearby" })).toContainText("Zainab: 🆘 SOS: I need help urgently.");

  const outbox = await senderCtx.request.get(`${url}/api/dev/outbox?limit=100`);
  const { messages } = (await outbox.json()) as { messages: { to: string; body: string }[] };
  expect(messages.find((m) => m.to === `+234805${rest}`)?.body).toContain("LinkUp SOS from Zainab");
  await senderCtx.close();
  await neighbourCtx.close();
});

test("the service worker shows a pushed SOS as a notification carrying the screen a click opens", async ({ browser, baseURL }) => {
  const url = baseURL as string;
  const ctx = await browser.newContext({ permissions: ["notifications"] });
  await acceptCookies(ctx, url);
  const page = await ctx.newPage();
  await page.goto("/notifications");
  // Registered once cookies are accepted; wait until its worker has finished activating (ready resolves as
  // activation starts, and a push is only dispatched to an activated worker).
  await page.evaluate(async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    if (worker && worker.state !== "activated")
      await new Promise<void>((resolve) => worker.addEventListener("statechange", () => worker.state === "activated" && resolve()));
  });

  const cdp = await ctx.newCDPSession(page);
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const reg = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL.startsWith(url) && !r.isDeleted);
      if (reg) resolve(reg.registrationId);
    });
    void cdp.send("ServiceWorker.enable");
  });
  const payload = {
    id: "n1",
    type: "emergency",
    title: "SOS nearby: Medical",
    body: "Ada: help at the market",
    url: "/emergency",
    tag: "sos-n1",
  };
  // Open pages are told, so their lists and badges refresh.
  await page.evaluate(() => {
    const w = window as unknown as { pushes: unknown[] };
    w.pushes = [];
    navigator.serviceWorker.addEventListener("message", (e) => w.pushes.push(e.data));
  });
  const deliver = () =>
    cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(url).origin, registrationId, data: JSON.stringify(payload) });
  await deliver();

  // A push service delivers again until the browser takes the message; the CDP stand-in does not, and a loaded
  // machine's browser can drop one while the worker starts: it is delivered again after 3 s without a notification.
  let sentAt = Date.now();
  await expect
    .poll(async () => {
      const shown = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        return (await reg.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          url: (n.data as { url?: string }).url,
          tag: n.tag,
        }));
      });
      if (shown.length === 0 && Date.now() - sentAt > 3000) {
        sentAt = Date.now();
        await deliver();
      }
      return shown;
    })
    .toEqual([{ title: "SOS nearby: Medical", body: "Ada: help at the market", url: "/emergency", tag: "sos-n1" }]);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { pushes: { type: string }[] }).pushes.map((p) => p.type)))
    .toContain("push");
  await ctx.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("an SOS can be sent from /emergency and a notification marked read", async ({ browser, baseURL }) => {
    const url = baseURL as string;
    const at = { latitude: 12.0022, longitude: 8.592 }; // Kano
    const ctxs = [];
    for (let i = 0; i < 2; i++) {
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      await acceptCookies(ctx, url);
      expect((await ctx.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
      expect((await ctx.request.put(`${url}/api/me/location`, { data: at, headers: { origin: url } })).ok()).toBe(true);
      ctxs.push(ctx);
    }
    const page = await ctxs[0].newPage();
    await page.goto("/emergency");
    await page.getByLabel("Emergency message").fill("Armed robbers on our street");
    await page.getByLabel("Emergency type").selectOption("security");
    await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
    // Without JavaScript too, Start asks first (docs/decisions/062): the SOS leaves on "Send SOS now".
    await page.getByRole("alertdialog", { name: "Confirm SOS" }).getByRole("button", { name: "Send SOS now" }).click();
    await expect(page.locator(".sos-result")).toContainText("SOS sent.");

    const other = await ctxs[1].newPage();
    await other.goto("/notifications");
    const item = other.locator(".notification", { hasText: "SOS nearby: Security threat" });
    await expect(item).toContainText("Armed robbers on our street");
    await item.getByRole("button", { name: /Mark read/ }).click();
    await expect(
      other.locator(".notification", { hasText: "SOS nearby: Security threat" }).getByRole("button", { name: /Mark read/ }),
    ).toHaveCount(0);
    await other.getByRole("checkbox", { name: "Market updates" }).check();
    await other.getByRole("button", { name: "Save settings" }).click();
    await expect(other.getByRole("checkbox", { name: "Market updates" })).toBeChecked();
    for (const c of ctxs) await c.close();
  });
});
