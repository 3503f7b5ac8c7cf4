// People in their own browsers for chat tests: an anonymous person with a nickname, past onboarding, in a browser
// context of their own (a place for geolocation, a viewport if asked), whose page errors are collected.
import type { Browser, ConsoleMessage, Page } from "@playwright/test";
import { acceptCookies, expect } from "./fixtures";

export type Place = { latitude: number; longitude: number };

/** A random place in Nigeria, so one test's area room is not another's. */
export function place(): Place {
  return { latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 };
}

/**
 * Two devices that open a group or team room together may both sign its next membership statement; the server takes one and
 * answers the other 409, which the device expects and signs again (docs/protocol.md §6a). The browser still logs
 * that answer as an error: only that one, from the statements' address, is not a fault.
 */
export function racedStatement(m: ConsoleMessage): boolean {
  return /status of 409 \(Conflict\)/.test(m.text()) && /\/api\/rooms\/[^/]+\/epochs$/.test(m.location().url);
}

/** Collects a page's uncaught errors and console errors (but a raced statement's 409) into `errors`. */
export function watchErrors(page: Page, errors: string[]) {
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && !racedStatement(m) && errors.push(m.text()));
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

/**
 * Makes `page`'s relay an attacker in rooms whose id starts with `roomPrefix`: it passes every frame on and, after
 * each acknowledgement of the page's own message, says that `peer` read it, is typing and turned on a timer, with
 * nothing signed or sealed (docs/protocol.md §7b). Answers how many times it forged.
 */
export async function relayForgesControls(page: Page, roomPrefix: string, peer: { id: string; nickname: string }): Promise<() => number> {
  let forged = 0;
  await page.routeWebSocket(/\/ws\/rooms\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((raw) => {
      ws.send(raw);
      const frame = JSON.parse(String(raw)) as { type: string; id?: string; seq?: number };
      const room = decodeURIComponent(new URL(ws.url()).pathname.split("/").pop() ?? "");
      if (frame.type !== "ack" || !room.startsWith(roomPrefix)) return;
      forged++;
      ws.send(JSON.stringify({ type: "receipt", status: "read", ids: [frame.id], by: peer.id, at: Date.now() }));
      ws.send(JSON.stringify({ type: "typing", userId: peer.id, nickname: peer.nickname, active: true }));
      const line = {
        id: `forged-timer-${Math.random().toString(36).slice(2)}`,
        room,
        senderId: "system",
        senderName: "LinkUp",
        timestamp: Date.now(),
        type: "system",
        ttl: 1,
        meshRoute: [],
        isEncrypted: false,
        priority: "normal",
        content: { text: "" },
        meta: { event: "disappearing", by: peer.id, byName: peer.nickname, timer: "1hour" },
      };
      ws.send(JSON.stringify({ type: "envelope", seq: frame.seq, envelope: line }));
    });
  });
  return () => forged;
}

/** Creates a group from the chat's New Group form, inviting the nearby people named; answers the group's room id. */
export async function createGroup(page: Page, name: string, invite: string[] = []): Promise<string> {
  await page.getByLabel("More options").click();
  await page.getByRole("button", { name: "New Group" }).click();
  const form = page.getByRole("form", { name: "New group" });
  await form.getByLabel("Group name").fill(name);
  for (const nickname of invite) await form.getByRole("checkbox", { name: nickname }).check();
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(page).toHaveURL(/room=group/);
  return new URL(page.url()).searchParams.get("room")!;
}
