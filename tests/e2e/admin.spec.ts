// An admin made by ADMIN_PHONES (tests/run-e2e.mjs) runs the database dashboard; others get a clear refusal.
import {
  ADMIN,
  acceptCookies,
  executeOnServedD1,
  expect,
  latestOutboxMessage,
  signInAsAdmin,
  startAnonymous,
  test,
  verifyFreshPhone,
} from "./fixtures";

test.describe("a person", () => {
  // The refused page load itself is reported by Chromium as a console error.
  test.use({ allowedConsoleErrors: [/403/] });

  test("who is not an admin gets a 403 page with a clear message and no admin link in settings", async ({ page, baseURL }) => {
    await startAnonymous(page.request);
    await verifyFreshPhone(page.request, baseURL as string);
    const res = await page.goto("/database-admin");
    expect(res?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Admin Access Required" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("only for LinkUp admins");
    await page.goto("/settings");
    await expect(page.getByRole("link", { name: "Database Admin" })).toHaveCount(0);
  });
});

test.describe("the admin", () => {
  // Both tests verify the one admin phone: a code proves the browser that asked for it, so they take turns.
  test.describe.configure({ mode: "serial" });
  test.use({ javaScriptEnabled: false });

  test("verified through ADMIN_PHONES, opens the dashboard from settings, sees health and runs the console without JavaScript", async ({
    page,
    baseURL,
  }) => {
    await startAnonymous(page.request);
    const headers = { origin: baseURL as string };
    expect((await page.request.post("/api/auth/register", { data: { phoneNumber: ADMIN.local, nickname: "Boss" }, headers })).ok()).toBe(
      true,
    );
    let code: string | undefined;
    await expect.poll(async () => (code = (await latestOutboxMessage(page.request, ADMIN.e164))?.match(/\b(\d{6})\b/)?.[1])).toBeTruthy();
    expect((await page.request.post("/api/auth/verify", { data: { phoneNumber: ADMIN.local, code }, headers })).ok()).toBe(true);

    await page.goto("/settings");
    await page.getByRole("link", { name: "Database Admin" }).click();
    await expect(page.getByRole("heading", { name: /Database Admin/ })).toBeVisible();
    await expect(page.getByText("Admin Access")).toBeVisible();
    await expect(page.getByText("Total users")).toBeVisible();

    await page.getByRole("tab", { name: "System Health" }).click();
    await expect(page.getByRole("list", { name: "System health" })).toContainText("Database: healthy");

    await page.getByRole("tab", { name: "SQL Console" }).click();
    await page.getByRole("button", { name: "People by tier" }).click();
    await expect(page.getByRole("status", { name: "Query result" })).toContainText("subscription_tier");

    await page
      .getByLabel("Query", { exact: true })
      .fill("select nickname, phone from users where phone is not null limit 1; delete from users");
    await page.getByRole("button", { name: "Run query" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Only one statement at a time" })).toBeVisible();

    await page.getByLabel("Query", { exact: true }).fill(`select nickname, phone from users where role = 'admin'`);
    await page.getByRole("button", { name: "Run query" }).click();
    await expect(page.getByRole("status", { name: "Query result" })).toContainText("1 row");
    await expect(page.getByRole("cell", { name: /001$/ })).toHaveText(/^\+•+001$/);
  });

  test("uses the staff desk: finds a person who asked for a call-back and answers the ticket, which reaches their WhatsApp", async ({
    page,
    browser,
    baseURL,
  }) => {
    const personContext = await browser.newContext({ baseURL });
    const person = await verifyFreshPhone(personContext.request, baseURL as string);
    const asked = await personContext.request.post("/api/support/followup", {
      data: { originalQuery: "My messages do not send", response: "", userPhone: person.phone.local },
      headers: { origin: baseURL as string },
    });
    expect(asked.ok()).toBe(true);

    await signInAsAdmin(page.request, baseURL as string);
    await page.goto("/settings");
    await page.getByRole("link", { name: "Staff Desk" }).click();
    await expect(page.getByRole("heading", { name: "Staff Desk" })).toBeVisible();
    await page.getByLabel("Phone or nickname").fill(person.phone.local);
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page.getByRole("list", { name: "People found" })).toContainText(`${person.phone.e164} · verified · free`);
    await expect(page.getByRole("list", { name: "People found" })).toContainText("1 open tickets");

    const ticket = page.getByRole("listitem").filter({ hasText: "My messages do not send" });
    await ticket.getByRole("textbox").fill("Please update the app and try again.");
    await ticket.getByRole("checkbox", { name: "Close after replying" }).check();
    await ticket.getByRole("button", { name: /^Send reply to / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Reply sent" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "My messages do not send" })).toHaveCount(0);
    expect(await latestOutboxMessage(page.request, person.phone.e164)).toBe("LinkUp support: Please update the app and try again.");
    await personContext.close();
  });
  test("on the staff desk grants complimentary Premium, bans and unbans a person, and resolves an SOS, all without JavaScript", async ({
    page,
    browser,
    baseURL,
  }) => {
    const headers = { origin: baseURL as string };
    const personContext = await browser.newContext({ baseURL });
    const person = await verifyFreshPhone(personContext.request, baseURL as string);
    const sent = await personContext.request.post("/api/emergency/broadcast", {
      data: {
        message: "Smoke from the transformer on Awolowo Way",
        emergencyType: "fire",
        locationText: "Ikeja",
        clientRequestId: `e2e-${Date.now()}`,
      },
      headers,
    });
    expect(sent.status()).toBe(201);

    await signInAsAdmin(page.request, baseURL as string);
    await page.goto(`/staff-desk?q=${encodeURIComponent(person.phone.local)}`);
    const found = page.getByRole("list", { name: "People found" });
    await expect(found).toContainText(`${person.phone.e164} · verified · free`);

    // A grant runs at most 90 days (docs/decisions/049-abuse-bans-claims-and-names.md): the field offers no later day.
    const until = found.getByLabel(/^Complimentary Premium for .* until$/);
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    expect(await until.getAttribute("max")).toBe(day(90));
    await until.fill(day(60));
    await found.getByLabel("Reason (e.g. paid by phone)").fill("Paid by phone");
    await found.getByRole("button", { name: /^Grant complimentary Premium to / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Complimentary tier granted" })).toBeVisible();
    await expect(found).toContainText(`premium until ${day(60)}`);

    await found.getByLabel(/^Reason for banning /).fill("Spamming the area room");
    await found.getByRole("button", { name: /^Ban / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Banned" })).toBeVisible();
    await expect(found).toContainText("Banned Spamming the area room");
    expect((await personContext.request.get("/api/me")).status()).toBe(401);
    await found.getByRole("button", { name: /^Unban / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Ban lifted" })).toBeVisible();

    const area = page.getByRole("list", { name: "Active SOS in Ikeja area" });
    const item = area.getByRole("listitem").filter({ hasText: "Smoke from the transformer on Awolowo Way" });
    await item.getByRole("button", { name: /^Resolve SOS from / }).click();
    await expect(page.getByRole("status").filter({ hasText: "SOS resolved" })).toBeVisible();
    await expect(page.getByText("Smoke from the transformer on Awolowo Way")).toHaveCount(0);
    await personContext.close();
  });
  test("on the staff desk sees an SOS alert the queue gave up on and sends it again, without JavaScript", async ({
    page,
    browser,
    baseURL,
  }) => {
    const personContext = await browser.newContext({ baseURL });
    await startAnonymous(personContext.request);
    const sent = await personContext.request.post("/api/emergency/broadcast", {
      data: {
        message: "Gas leak at the filling station",
        emergencyType: "fire",
        locationText: "Kano",
        clientRequestId: `e2e-dlq-${Date.now()}`,
      },
      headers: { origin: baseURL as string },
    });
    expect(sent.status()).toBe(201);
    const sosId = ((await sent.json()) as { id: string }).id;
    const me = ((await (await personContext.request.get("/api/me")).json()) as { user: { id: string } }).user.id;
    // A fan-out message the queue dead-lettered after five failed deliveries, as its consumer keeps it
    // (docs/decisions/054-sos-a-durable-job.md): written into the served Worker's local D1.
    const body = JSON.stringify({ broadcastId: sosId, audience: "nearby", userIds: [me] });
    await executeOnServedD1(
      `INSERT INTO sos_dead_letters (id, message_id, broadcast_id, body, attempts) VALUES ('dl-${sosId}', 'm-${sosId}', '${sosId}', '${body}', 6)`,
    );

    await signInAsAdmin(page.request, baseURL as string);
    await page.goto("/staff-desk");
    const dead = page.getByRole("list", { name: "Alerts the queue gave up on" });
    const item = dead.getByRole("listitem").filter({ hasText: `SOS ${sosId.slice(0, 8)}` });
    await expect(item).toContainText("1 person · gave up after 6 tries");
    await item.getByRole("button", { name: `Send the alerts of SOS ${sosId.slice(0, 8)} again` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Sent again" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `SOS ${sosId.slice(0, 8)}` })).toHaveCount(0);
    // The queue alerts the person it held: the SOS reaches their notification centre.
    await expect
      .poll(async () =>
        (
          (await (await personContext.request.get("/api/notifications")).json()) as { notifications: { type: string }[] }
        ).notifications.some((n) => n.type === "emergency"),
      )
      .toBe(true);
    await personContext.close();
  });
  test("a person reports someone from their direct chat without JavaScript; staff see the report and ban from it", async ({
    page,
    browser,
    baseURL,
  }) => {
    const newPerson = async (nickname: string) => {
      const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
      await acceptCookies(context, baseURL as string);
      await startAnonymous(context.request);
      const patched = await context.request.patch("/api/me", { data: { nickname, onboardingCompleted: true } });
      expect(patched.ok()).toBe(true);
      return { context, user: (await patched.json()).user as { id: string; nickname: string } };
    };
    const reporter = await newPerson(`Amaka ${Date.now() % 1e5}`);
    const troll = await newPerson(`Troll ${Date.now() % 1e5}`);
    const dm = await reporter.context.request.post("/api/rooms/dm", { data: { userId: troll.user.id } });
    expect(dm.ok()).toBe(true);
    const roomId = ((await dm.json()) as { room: { id: string } }).room.id;

    const chat = await reporter.context.newPage();
    await chat.goto(`/chat?room=${encodeURIComponent(roomId)}`);
    await chat.getByText("Report", { exact: true }).click();
    await chat.getByLabel("Reason").selectOption({ label: "Harassment or threats" });
    await chat.getByLabel("What happened (optional)").fill("He keeps sending threats at night");
    await chat.getByRole("button", { name: "Send report" }).click();
    await expect(chat.getByRole("status").filter({ hasText: "Thank you. LinkUp staff will look at your report." })).toBeVisible();

    await signInAsAdmin(page.request, baseURL as string);
    await page.goto("/staff-desk");
    const ticket = page
      .getByRole("list", { name: "Ticket queue" })
      .getByRole("listitem")
      .filter({ hasText: "He keeps sending threats at night" });
    await expect(ticket).toContainText("report");
    await expect(ticket).toContainText(reporter.user.nickname);
    await ticket.getByRole("link", { name: troll.user.nickname }).click();
    const found = page.getByRole("list", { name: "People found" });
    await found.getByLabel(/^Reason for banning /).fill("Threats reported by a neighbour");
    await found.getByRole("button", { name: `Ban ${troll.user.nickname}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Banned" })).toBeVisible();
    expect((await troll.context.request.get("/api/me")).status()).toBe(401);
    // The same browser cannot come back as someone new.
    const again = await troll.context.request.post("/api/auth/anonymous");
    expect(again.status()).toBe(403);
    expect((await again.json()).code).toBe("banned");
    await reporter.context.close();
    await troll.context.close();
  });
  test("on the staff desk sees a reported price flagged as an outlier, bans its reporter and removes reports, without JavaScript", async ({
    page,
    browser,
    baseURL,
  }) => {
    const base = baseURL as string;
    // A market of this run only, so other tests' reports never join its median.
    const market = `Oja ${Date.now() % 1e6}`;
    const report = async (priceNgn: number) => {
      const context = await browser.newContext({ baseURL: base });
      await startAnonymous(context.request);
      await verifyFreshPhone(context.request, base);
      const res = await context.request.post("/api/market/reports", {
        data: { item: "Egusi", unit: "paint", priceNgn, market },
        headers: { origin: base },
      });
      expect(res.status()).toBe(201);
      return context;
    };
    const reporters = [];
    for (const price of [76_000, 78_000, 80_000, 82_000, 300_000]) reporters.push(await report(price));
    const cheat = reporters[4];

    await signInAsAdmin(page.request, base);
    const quote = async () => {
      await page.goto(`/market-prices?item=egusi&market=${encodeURIComponent(market)}`);
      return page
        .getByRole("list", { name: "Reported prices" })
        .getByRole("listitem")
        .filter({ hasText: `egusi at ${market}` });
    };
    // The outlier is left out of the median of the other four (docs/decisions/068-market-prices-people-report.md).
    await expect(await quote()).toContainText(`₦79,000 for paint egusi at ${market}`);
    await expect(await quote()).toContainText("median of 4 reports");

    await page.goto("/staff-desk");
    const reports = page.getByRole("list", { name: "Prices people reported" });
    const outlier = reports.getByRole("listitem").filter({ hasText: `₦300,000 for paint Egusi at ${market}` });
    await expect(outlier).toContainText("Outlier");
    await expect(reports.getByRole("listitem").filter({ hasText: `₦78,000 for paint Egusi at ${market}` })).not.toContainText("Outlier");
    // Outliers come first.
    await expect(reports.getByRole("listitem").first()).toContainText("Outlier");

    // The reporter's entry opens with the desk's ban form.
    await outlier.getByRole("link", { name: `Ban the reporter of ₦300,000 for paint Egusi at ${market}` }).click();
    const found = page.getByRole("list", { name: "People found" });
    await found.getByLabel(/^Reason for banning /).fill("Reports made-up prices");
    await found.getByRole("button", { name: /^Ban / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Banned" })).toBeVisible();
    expect((await cheat.request.get("/api/me")).status()).toBe(401);

    await page.goto("/staff-desk");
    await page.getByRole("button", { name: `Remove the report of ₦300,000 for paint Egusi at ${market}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Report removed" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `₦300,000 for paint Egusi at ${market}` })).toHaveCount(0);
    // The outlier never counted: the median and its count stay.
    await expect(await quote()).toContainText(`₦79,000 for paint egusi at ${market}`);
    await expect(await quote()).toContainText("median of 4 reports");

    // Removing a counted report moves the median.
    await page.goto("/staff-desk");
    await page.getByRole("button", { name: `Remove the report of ₦82,000 for paint Egusi at ${market}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Report removed" })).toBeVisible();
    await expect(await quote()).toContainText(`₦78,000 for paint egusi at ${market}`);
    await expect(await quote()).toContainText("median of 3 reports");
    for (const context of reporters) await context.close();
  });
  test("opens the analytics dashboard from the database admin; its figures are the API's, for the range picked", async ({
    page,
    baseURL,
  }) => {
    await signInAsAdmin(page.request, baseURL as string);
    await page.goto("/database-admin");
    await page.getByRole("link", { name: "Analytics Dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Analytics Dashboard" })).toBeVisible();
    // Other tests sign people up meanwhile: the page's figure lies between the API's before and after it.
    const totalUsers = async () => (await (await page.request.get("/api/analytics/metrics?range=7d")).json()).totalUsers as number;
    const before = await totalUsers();
    const week = page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "7d" });
    await week.click();
    await expect(page).toHaveURL(/range=7d/);
    // The 7d figures are on screen once the range's own render marks its link.
    await expect(week).toHaveAttribute("aria-current", "page");
    const people = page.getByRole("list", { name: "People figures" });
    await expect(people).toContainText("Total users:");
    const shown = Number((await people.getByRole("listitem").filter({ hasText: "Total users:" }).textContent())?.replace(/\D/g, ""));
    // Read after the figure on screen, which was counted before it.
    const after = await totalUsers();
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    await expect(people).toContainText("Sign-ups:");
    await expect(page.getByText("Network health (not measured by the server)")).toBeVisible();
    await expect(
      page.getByRole("img", { name: /^Messages per day/ }).or(page.getByText("No messages recorded in this range.")),
    ).toBeVisible();
  });
  test.describe("with JavaScript", () => {
    test.use({ javaScriptEnabled: true });

    test("reads this device's caches and the edge cache for real, clears the one and purges the other", async ({
      page,
      context,
      baseURL,
    }) => {
      await acceptCookies(context, baseURL as string);
      await signInAsAdmin(page.request, baseURL as string);
      // The system-health check puts its probe into the edge cache.
      expect((await page.request.get("/api/admin/health")).ok()).toBe(true);
      await page.goto("/database-admin");
      await page.getByRole("link", { name: "Cache Status" }).click();
      await expect(page.getByRole("heading", { name: "Cache Status" })).toBeVisible();
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(0);

      await page.getByRole("button", { name: "Refresh" }).click();
      await expect(page.getByRole("list", { name: "Device state" })).toContainText("Service worker: activated");
      const held = await page.evaluate(async () => {
        const name = (await caches.keys())[0];
        return { name, entries: (await (await caches.open(name)).keys()).length };
      });
      await expect(page.getByRole("list", { name: "Caches on this device" })).toContainText(`${held.name}: ${held.entries} entr`);

      await page.getByRole("button", { name: "Clear cache" }).click();
      await expect(page.getByRole("status").filter({ hasText: /^Cleared \d+ caches? on this device\.$/ })).toBeVisible();

      const edge = page.getByRole("list", { name: "Edge cache" });
      await expect(edge).toContainText("admin-health-probe: cached, 2 bytes");
      await page.getByRole("button", { name: "Purge edge cache" }).click();
      // The landing page's figures may be held too, when another test loaded it within the minute.
      await expect(page.getByRole("status").filter({ hasText: /^Edge cache purged \((1 entry|2 entries)\)$/ })).toBeVisible();
      await expect(edge).toContainText("admin-health-probe: not cached");
    });
  });
});
