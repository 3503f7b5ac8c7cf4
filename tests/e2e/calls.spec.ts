// Voice calls in real Chromium (issue 16): two people with verified phones in two browser contexts, a fake
// microphone, WebRTC with host candidates, signalling through their direct chat's room.
import type { Browser, Page } from "@playwright/test";
import { acceptCookies, expect, test, verifyFreshPhone } from "./fixtures";

/** Keeps every RTCPeerConnection the page makes, so the test can read its statistics and tracks. */
function recordPeerConnections() {
  const Real = window.RTCPeerConnection;
  const made: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made;
  window.RTCPeerConnection = class extends Real {
    constructor(config?: RTCConfiguration) {
      super(config);
      made.push(this);
    }
  } as typeof RTCPeerConnection;
}

async function person(browser: Browser, baseURL: string, nickname: string) {
  const context = await browser.newContext({ permissions: ["microphone"] });
  await acceptCookies(context, baseURL);
  await context.addInitScript(recordPeerConnections);
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const { user } = await verifyFreshPhone(context.request, baseURL);
  const headers = { origin: baseURL };
  expect((await context.request.patch(`${baseURL}/api/me`, { data: { nickname }, headers })).ok()).toBe(true);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  return { context, page, errors, id: user.id };
}

/** Audio bytes the page's latest call has received, from getStats. */
const bytesReceived = (page: Page) =>
  page.evaluate(async () => {
    const pc = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.at(-1);
    let bytes = 0;
    (await pc?.getStats())?.forEach((s) => {
      if (s.type === "inbound-rtp" && s.kind === "audio") bytes = s.bytesReceived;
    });
    return bytes;
  });

const senderEnabled = (page: Page) =>
  page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.at(-1)?.getSenders()[0]?.track?.enabled);

test("two verified people call each other, talk, mute, hang up, and a call nobody takes shows as missed", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const ada = await person(browser, baseURL as string, "Ada");
  const bola = await person(browser, baseURL as string, "Bola");
  const opened = await ada.context.request.post(`${baseURL}/api/rooms/dm`, {
    data: { userId: bola.id },
    headers: { origin: baseURL as string },
  });
  expect(opened.ok()).toBe(true);
  const room = ((await opened.json()) as { room: { id: string } }).room.id;
  // They share no room, so the chat is a message request until Bola accepts it (docs/decisions/050-…).
  const accepted = await bola.context.request.post(`${baseURL}/api/rooms/requests/${encodeURIComponent(room)}/accept`, {
    headers: { origin: baseURL as string },
  });
  expect(accepted.ok()).toBe(true);

  for (const p of [bola, ada]) {
    await p.page.goto(`/chat?room=${encodeURIComponent(room)}`);
    await expect(p.page.getByText("LIVE", { exact: true })).toBeVisible();
  }
  await ada.page.getByRole("button", { name: "Voice call Bola" }).click();
  const adaCall = ada.page.getByRole("region", { name: "Voice call with Bola" });
  await expect(adaCall.getByRole("status")).toHaveText("Ringing...");
  const incoming = bola.page.getByRole("region", { name: "Voice call with Ada" });
  await expect(incoming.getByRole("status")).toHaveText("Incoming voice call");
  await incoming.getByRole("button", { name: "Accept" }).click();

  for (const [page, call] of [
    [ada.page, adaCall],
    [bola.page, incoming],
  ] as const) {
    await expect(call.getByRole("status")).toHaveText("Connected", { timeout: 20_000 });
    await expect(call.getByRole("timer", { name: "Call duration" })).toHaveText(/^\d\d:\d\d$/);
    // Both sides hear the other: audio bytes arrive, and the screen shows the measured quality.
    await expect.poll(() => bytesReceived(page), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect(call.getByRole("definition").filter({ hasText: /ms$/ }).first()).toBeVisible({ timeout: 10_000 });
  }

  const mute = adaCall.getByRole("button", { name: "Mute" });
  await mute.click();
  await expect(adaCall.getByRole("button", { name: "Unmute" })).toHaveAttribute("aria-pressed", "true");
  expect(await senderEnabled(ada.page)).toBe(false);
  await adaCall.getByRole("button", { name: "Unmute" }).click();
  expect(await senderEnabled(ada.page)).toBe(true);

  await adaCall.getByRole("button", { name: "End call" }).click();
  await expect(incoming.getByRole("status")).toHaveText("Call ended");

  // A call Bola does not take (Ada gives up while it rings) leaves a missed call in the chat on both sides.
  await ada.page.getByRole("button", { name: "Voice call Bola" }).click();
  await expect(bola.page.getByRole("region", { name: "Voice call with Ada" }).getByRole("status")).toHaveText("Incoming voice call");
  await ada.page.getByRole("region", { name: "Voice call with Bola" }).getByRole("button", { name: "End call" }).click();
  await expect(bola.page.getByText("Missed call from Ada")).toBeVisible();
  await expect(ada.page.getByText("Call not answered")).toBeVisible();

  // On /voice-calling Bola's contacts are his direct chats, and a call rings there too.
  await bola.page.goto("/voice-calling");
  const contact = bola.page.getByRole("listitem").filter({ hasText: "Ada" });
  await expect(contact).toContainText("Connected");
  await ada.page.getByRole("button", { name: "Voice call Bola" }).click();
  const ringing = bola.page.getByRole("region", { name: "Voice call with Ada" });
  await expect(ringing.getByRole("status")).toHaveText("Incoming voice call");
  await ringing.getByRole("button", { name: "Decline" }).click();
  await expect(ada.page.getByRole("region", { name: "Voice call with Bola" }).getByRole("status")).toHaveText("Call declined");
  await expect(contact.getByRole("button", { name: "Call Ada" })).toBeEnabled();

  expect(ada.errors).toEqual([]);
  expect(bola.errors).toEqual([]);
  await ada.context.close();
  await bola.context.close();
});

test("a call whose offer the relay swapped for one with its own DTLS fingerprint is refused before any media flows", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const ada = await person(browser, baseURL as string, "Ada");
  const bola = await person(browser, baseURL as string, "Bola");
  // The relay (the room, as a malicious server would run it) puts an offer of its own, with its own certificate's
  // fingerprint, in place of the sealed one Ada's device sent.
  let swapped = 0;
  await bola.page.routeWebSocket(/\/ws\/rooms\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((raw) => {
      const frame = JSON.parse(String(raw)) as { type?: string; sdp?: string };
      if (frame.type !== "call-offer") return ws.send(raw);
      swapped++;
      const fingerprint = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).toUpperCase().padStart(2, "0")).join(":");
      const sdp = [
        "v=0",
        "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "m=audio 9 UDP/TLS/RTP/SAVPF 111",
        "c=IN IP4 0.0.0.0",
        "a=ice-ufrag:evil",
        "a=ice-pwd:evilevilevilevilevilevil",
        `a=fingerprint:sha-256 ${fingerprint}`,
        "a=setup:actpass",
        "a=mid:0",
        "a=sendrecv",
        "a=rtpmap:111 opus/48000/2",
        "",
      ].join("\r\n");
      ws.send(JSON.stringify({ ...frame, sdp }));
    });
  });
  const opened = await ada.context.request.post(`${baseURL}/api/rooms/dm`, {
    data: { userId: bola.id },
    headers: { origin: baseURL as string },
  });
  const room = ((await opened.json()) as { room: { id: string } }).room.id;
  const accepted = await bola.context.request.post(`${baseURL}/api/rooms/requests/${encodeURIComponent(room)}/accept`, {
    headers: { origin: baseURL as string },
  });
  expect(accepted.ok()).toBe(true);
  for (const p of [bola, ada]) {
    await p.page.goto(`/chat?room=${encodeURIComponent(room)}`);
    await expect(p.page.getByText("LIVE", { exact: true })).toBeVisible();
  }
  await ada.page.getByRole("button", { name: "Voice call Bola" }).click();
  const incoming = bola.page.getByRole("region", { name: "Voice call with Ada" });
  await expect(incoming.getByRole("status")).toHaveText("Incoming voice call");
  await incoming.getByRole("button", { name: "Accept" }).click();

  // Bola's device refuses the offer it cannot open, says why, and hangs up; Ada's call ends without connecting.
  await expect(
    bola.page.getByText("This call was refused: its security keys did not come from the other person's device").first(),
  ).toBeVisible({
    timeout: 20_000,
  });
  expect(swapped).toBeGreaterThan(0);
  const adaCall = ada.page.getByRole("region", { name: "Voice call with Bola" });
  await expect(adaCall.getByRole("status")).toHaveText("Call ended", { timeout: 20_000 });
  // Bola's browser never took a remote description, so no DTLS handshake (and no audio) could start.
  const remote = await bola.page.evaluate(() =>
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.map((pc) => ({
      sdp: pc.remoteDescription?.sdp ?? null,
      state: pc.connectionState,
    })),
  );
  for (const pc of remote) {
    expect(pc.sdp).toBeNull();
    expect(pc.state).not.toBe("connected");
  }
  expect(await bytesReceived(bola.page)).toBe(0);
  await ada.context.close();
  await bola.context.close();
});

test("a person without a verified phone is told calls are a Premium Feature", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  await acceptCookies(context, baseURL as string);
  const page = await context.newPage();
  expect((await context.request.post(`${baseURL}/api/auth/anonymous`)).ok()).toBe(true);
  const bola = await person(browser, baseURL as string, "Bola");
  const headers = { origin: baseURL as string };
  expect((await context.request.post(`${baseURL}/api/rooms/dm`, { data: { userId: bola.id }, headers })).ok()).toBe(true);
  await page.goto("/voice-calling");
  await expect(page.getByRole("heading", { name: "Voice Calls" })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("Voice calling requires phone verification");
  await page.getByRole("button", { name: "Call Bola" }).click();
  const toast = page.getByRole("region", { name: "Notifications (F8)" });
  await expect(toast).toContainText("Premium Feature");
  await expect(toast).toContainText("Voice calling requires phone verification");
  await context.close();
  await bola.context.close();
});
