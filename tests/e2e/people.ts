// People in their own browsers for chat tests: an anonymous person with a nickname, past onboarding, in a browser
// context of their own (a place for geolocation, a viewport if asked), whose page errors are collected.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, expect } from "./fixtures";

export type Place = { latitude: number; longitude: number };

/** A random place in Nigeria, so one test's area room is not another's. */
export function place(): Place {
  return { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
}

/** Collects a page's uncaught errors and console errors into `errors`. */
export function watchErrors(page: Page, errors: string[]) {
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
}

export async function person(browser: Browser, baseURL: string, at: Place, nickname: string, viewport?: { width: number; height: number }) {
  const context = await browser.newContext({ permissions: ["geolocation"], geolocation: at, ...(viewport ? { viewport } : {}) });
  await acceptCookies(context, baseURL);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const patched = await context.request.patch(`${baseURL}/api/me`, { data: { nickname, onboardingCompleted: true } });
  expect(patched.ok()).toBe(true);
  const page = await context.newPage();
  const errors: string[] = [];
  watchErrors(page, errors);
  return { context, page, errors, user: (await patched.json()).user as { id: string; nickname: string } };
}

/** Opens the chat (or `path`) and waits until the room is live. */
export async function openChat(page: Page, path = "/chat") {
  await page.goto(path);
  await expect(page.getByText("LIVE", { exact: true })).toBeVisible();
}

/** Types a message and sends it with Enter. */
export async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
}

/** The message bubble holding `text`. */
export const bubble = (page: Page, text: string) => page.getByRole("listitem").filter({ hasText: text });
