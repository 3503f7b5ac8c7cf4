// The offline worker in browser tests: what going offline on purpose prints, and the wait until the worker is
// active and keeps the pages a test will open without a network.
import type { BrowserContext, Page } from "@playwright/test";
import { acceptCookies, expect } from "./fixtures";

/**
 * Console errors that going offline on purpose causes: the live connection fails, and React Router's lazy route
 * discovery asks for the routes of links on the page.
 */
export const OFFLINE_CONSOLE_ERRORS = [
  /ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|WebSocket connection to .* failed|Failed to fetch manifest patches/,
];

/** A person somewhere in Nigeria, started anonymously and past onboarding, before their first visit. */
export async function onboardedVisitor(context: BrowserContext, baseURL: string, nickname = "Ngozi") {
  await context.grantPermissions(["geolocation"]);
  await context.setGeolocation({ latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 });
  await acceptCookies(context, baseURL);
  expect((await context.request.post("/api/auth/anonymous")).ok()).toBe(true);
  expect((await context.request.patch("/api/me", { data: { nickname, onboardingCompleted: true } })).ok()).toBe(true);
}

/** Waits until the page's offline worker is active and has kept every one of `paths`. */
export async function offlineWorkerKeeps(page: Page, paths: string[]) {
  await expect
    .poll(
      () =>
        page.evaluate(async (urls) => {
          const reg = await navigator.serviceWorker.getRegistration();
          if (!reg?.active) return false;
          for (const url of urls) if (!(await caches.match(url))) return false;
          return true;
        }, paths),
      { timeout: 30_000 },
    )
    .toBe(true);
}
