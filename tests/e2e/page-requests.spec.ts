// How many in-process API calls an action costs (docs/decisions/057-pages-ask-once-and-replicas.md): the
// development server's answers say how many calls each page request made (x-linkup-in-process-calls, counted
// by workers/in-process-api.ts); the browser adds them up over the action's POST and the loaders it re-runs.
import type { Response } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";

// Yola: an area no other browser test sends an SOS in (tests run in parallel; an SOS alerts the whole area).
const HERE = { latitude: 9.2035, longitude: 12.4954 };

test("one SOS sent from /emergency makes at most 4 in-process API calls, and the page still shows it", async ({ browser, baseURL }) => {
  const url = baseURL as string;
  const ctx = await browser.newContext({ permissions: ["geolocation"], geolocation: HERE });
  await acceptCookies(ctx, url);
  // A signed-in person with a place.
  const started = await ctx.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } });
  expect(started.ok()).toBe(true);
  expect((await ctx.request.put(`${url}/api/me/location`, { data: HERE, headers: { origin: url } })).ok()).toBe(true);
  expect((await ctx.request.patch(`${url}/api/me`, { data: { onboardingCompleted: true }, headers: { origin: url } })).ok()).toBe(true);

  const page = await ctx.newPage();
  await page.goto("/emergency");
  await expect(page.getByText(/Using your device location/)).toBeVisible();

  // The page reports the device's location once it has it: that and its reload are over before the SOS.
  await page.waitForLoadState("networkidle");

  const calls: { method: string; path: string; calls: number }[] = [];
  const count = (res: Response) => {
    const header = res.headers()["x-linkup-in-process-calls"];
    if (header === undefined) return;
    const u = new URL(res.url());
    calls.push({ method: res.request().method(), path: `${u.pathname}${u.search}`, calls: Number(header) });
  };
  page.on("response", count);
  await page.getByLabel("Emergency message").fill("Smoke from the generator room, please check");
  await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
  // The confirmation is on the page (no request): the SOS leaves on "Send SOS now".
  await page.getByRole("alertdialog", { name: "Confirm SOS" }).getByRole("button", { name: "Send SOS now" }).click();
  await expect(page.locator(".sos-result")).toContainText("SOS sent.");
  // The loaders ran again: the person's own SOS is listed as active.
  await expect(page.locator(".sos-item", { hasText: "Smoke from the generator room" })).toContainText("Your SOS");
  page.off("response", count);

  // The action's POST, then the one request that re-ran the loaders.
  const action = calls.findIndex((c) => c.method === "POST" && c.path.startsWith("/emergency"));
  expect(action, JSON.stringify(calls)).toBeGreaterThanOrEqual(0);
  const reload = calls.slice(action + 1).find((c) => c.method === "GET" && c.path.startsWith("/emergency.data"));
  expect(reload, JSON.stringify(calls)).toBeDefined();
  const total = calls[action].calls + (reload?.calls ?? 0);
  expect(total, JSON.stringify(calls)).toBeGreaterThan(0);
  expect(total, JSON.stringify(calls)).toBeLessThanOrEqual(4);
  // The root's loader (the visitor and the Alerts badge) was not asked again: the SOS cannot change them.
  const asked = new URL(reload?.path ?? "/", url).searchParams.get("_routes")?.split(",") ?? ["every route"];
  expect(asked).toEqual(["routes/emergency"]);
  await ctx.close();
});
