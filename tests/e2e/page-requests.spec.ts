// How many in-process API calls an action costs (docs/decisions/057-pages-ask-once-and-replicas.md): the
// development server's answers say how many calls each page request made (x-linkup-in-process-calls, counted
// by workers/in-process-api.ts); the browser adds them up over the action's POST and the loaders it re-runs.
import type { Response } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";

const HERE = { latitude: 6.5095, longitude: 3.3711 }; // Yaba, Lagos

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

  const calls: { method: string; path: string; calls: number }[] = [];
  const count = (res: Response) => {
    const header = res.headers()["x-linkup-in-process-calls"];
    if (header === undefined) return;
    const u = new URL(res.url());
    calls.push({ method: res.request().method(), path: `${u.pathname}${u.search}`, calls: Number(header) });
  };
  page.on("response", count);
  const posted = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/emergency"));
  const reloaded = page.waitForResponse((r) => r.request().method() === "GET" && new URL(r.url()).pathname === "/emergency.data");

  await page.getByLabel("Emergency message").fill("Smoke from the generator room, please check");
  await page.getByRole("button", { name: "Start Emergency Broadcast" }).click();
  await expect(page.locator(".sos-result")).toContainText("SOS sent.");
  // The loaders ran again: the person's own SOS is listed as active.
  await expect(page.locator(".sos-item", { hasText: "Smoke from the generator room" })).toContainText("Your SOS");
  await Promise.all([posted, reloaded]);
  page.off("response", count);

  // The action's POST and one revalidation, and nothing else that asked the API.
  expect(calls.map((c) => c.method)).toEqual(["POST", "GET"]);
  const total = calls.reduce((sum, c) => sum + c.calls, 0);
  expect(total, JSON.stringify(calls)).toBeGreaterThan(0);
  expect(total, JSON.stringify(calls)).toBeLessThanOrEqual(4);
  // The root's loader (the visitor and the Alerts badge) was not asked again: the SOS cannot change them.
  const asked = new URL(calls[1].path, url).searchParams.get("_routes")?.split(",") ?? ["every route"];
  expect(asked).toEqual(["routes/emergency"]);
  await ctx.close();
});
