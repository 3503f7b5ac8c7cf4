// End-to-end privacy in a real browser (issue 20, docs/protocol.md §1): nothing readable from a private chat
// leaves the device, neither in the room's frames nor in any HTTP request (smart replies, '@ai').
import type { APIRequestContext, Page } from "@playwright/test";
import { createAccountKey, nextDeviceList, signDeviceList } from "../../core/device-list";
import { createDevice } from "../../core/e2e";
import { executeOnServedD1, expect, test, verifyFreshPhone } from "./fixtures";
import { bubble, openChat, person, place, relayForgesControls, send } from "./people";

async function openDm(a: Page, peerNickname: string): Promise<string> {
  await a.getByLabel("More options").click();
  await a.getByRole("button", { name: "Add Contact" }).click();
  await a.getByRole("button", { name: `Message ${peerNickname}` }).click();
  await expect(a).toHaveURL(/room=dm/);
  await expect(a.getByText("LIVE", { exact: true })).toBeVisible();
  return new URL(a.url()).searchParams.get("room")!;
}

async function safetyNumber(page: Page): Promise<string> {
  await page.getByLabel("More options").click();
  await page.getByRole("button", { name: "Group Info" }).click();
  const code = page.getByRole("region", { name: "Safety number" }).locator("code");
  await expect(code).toHaveText(/^(\d{5} ){11}\d{5}$/);
  const digits = (await code.textContent()) ?? "";
  await page.getByRole("dialog", { name: "Group Info" }).getByRole("button", { name: "Close" }).click();
  return digits;
}

/**
 * What a server (or the person starting over) can do to a device list: a new account key that signs the person's
 * real devices and one more. The person's old account key signed neither.
 */
async function newAccountKeyWithGhost(request: APIRequestContext, baseURL: string, userId: string) {
  const { keys } = (await (await request.get(`${baseURL}/api/keys/${userId}`)).json()) as {
    keys: { deviceId: string; publicKey: string; signingKey: string }[];
  };
  const ghost = await createDevice(userId, "ghost-device");
  let draft = nextDeviceList(null, { add: ghost.record }, userId);
  for (const k of keys.filter((k) => k.signingKey)) draft = nextDeviceList(draft, { add: k }, userId);
  const { userId: _, ...body } = await signDeviceList(await createAccountKey(), { ...draft, version: 1 });
  expect((await request.put(`${baseURL}/api/keys/list`, { data: body })).ok()).toBe(true);
}

test("a private chat's words never leave the device: on-device smart replies, '@ai' sends only its own text after a notice", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Ngozi");
  const b = await person(browser, baseURL!, at, "Tunde");
  await verifyFreshPhone(a.context.request, baseURL!);
  // Every HTTP request the verified person's browser makes, with its body.
  const requests: { url: string; body: string }[] = [];
  a.page.on("request", (r) => requests.push({ url: r.url(), body: r.postData() ?? "" }));
  await openChat(a.page);
  await openChat(b.page);

  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Add Contact" }).click();
  await a.page.getByRole("button", { name: "Message Tunde" }).click();
  await expect(a.page).toHaveURL(/room=dm/);
  const dm = new URL(a.page.url()).searchParams.get("room")!;
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  await send(a.page, "are you there");
  await b.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "are you there")).toBeVisible();

  const secret = "Can you bring the 7781 cash to Balogun gate?";
  await send(b.page, secret);
  await expect(bubble(a.page, secret)).toBeVisible();
  // Smart replies still show, computed on the device.
  const chips = a.page.getByRole("group", { name: "Smart replies" });
  await expect(chips.getByRole("button", { name: "Smart reply: Yes" })).toBeVisible();

  // '@ai' in a private chat: the person is told once what leaves the device, and may cancel.
  await send(a.page, "@ai translate good morning to yoruba");
  const notice = a.page.getByRole("alertdialog", { name: "Ask the assistant from a private chat" });
  await expect(notice).toContainText("the text after '@ai' leaves this device");
  await notice.getByRole("button", { name: "Cancel" }).click();
  await expect(notice).toHaveCount(0);
  expect(requests.filter((r) => r.url.includes("/api/ai/"))).toEqual([]);
  await send(a.page, "@ai translate good morning to yoruba");
  await notice.getByRole("button", { name: "Send to assistant" }).click();
  await expect(a.page.locator(".msg-ai")).toHaveCount(1, { timeout: 15_000 });
  // Remembered: the next question goes without asking again.
  await send(a.page, "@ai help");
  await expect(a.page.locator(".msg-ai")).toHaveCount(2, { timeout: 15_000 });
  await expect(notice).toHaveCount(0);

  // Voice: nothing goes to the server for transcription here, and the chat says so.
  await a.page.getByRole("button", { name: "Voice message" }).click();
  await expect(a.page.getByRole("status").filter({ hasText: "Transcription is off in private chats" })).toBeVisible();
  expect(requests.filter((r) => r.url.includes("/api/ai/voice"))).toEqual([]);

  const toAssistant = requests.filter((r) => r.url.includes("/api/ai/chat"));
  expect(toAssistant).toHaveLength(2);
  expect(JSON.parse(toAssistant[0]!.body).message).toBe("translate good morning to yoruba");
  expect(JSON.parse(toAssistant[0]!.body).context.messageHistory).toEqual([]);
  expect(requests.filter((r) => r.url.includes("/api/ai/smart-replies"))).toEqual([]);
  for (const r of requests) {
    expect(r.body).not.toContain("the 7781 cash");
    expect(r.body).not.toContain("Balogun");
    expect(r.body).not.toContain("are you there");
  }
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("both people see the same safety number; a device added to a contact is shown in the chat before the next message", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Chidi");
  const b = await person(browser, baseURL!, at, "Aisha");
  await openChat(a.page);
  await openChat(b.page);
  const dm = await openDm(a.page, "Aisha");
  await send(a.page, "first hello");
  await b.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "first hello")).toBeVisible();
  await expect(bubble(b.page, "first hello").getByRole("img", { name: "Encrypted" })).toBeVisible();
  await send(b.page, "hello back");
  await expect(bubble(a.page, "hello back")).toBeVisible();

  const seenByA = await safetyNumber(a.page);
  expect(await safetyNumber(b.page)).toBe(seenByA);

  // The server publishes a device record of its own under Aisha: her account key did not sign it, so it is
  // not in her list, never sealed to, and nothing changes.
  const ghost = await createDevice(b.user.id, "ghost-device");
  const { userId: _, ...record } = ghost.record;
  expect((await b.context.request.put(`${baseURL}/api/keys`, { data: record })).ok()).toBe(true);
  await send(a.page, "only for Aisha");
  await expect(bubble(b.page, "only for Aisha")).toBeVisible();
  expect(await safetyNumber(a.page)).toBe(seenByA);

  // A new account key for Aisha, with one more device: shown in the chat before the message is sealed to it.
  await newAccountKeyWithGhost(b.context.request, baseURL!, b.user.id);
  await send(a.page, "the meeting point is the old mill");
  const notice = a.page.getByRole("listitem").filter({ hasText: "Aisha's security key changed" });
  await expect(notice).toBeVisible();
  await expect(bubble(b.page, "the meeting point is the old mill")).toBeVisible();
  const items = await a.page.getByRole("list", { name: "Messages" }).getByRole("listitem").allTextContents();
  const noticeAt = items.findIndex((t) => t.includes("Aisha's security key changed"));
  const messageAt = items.findIndex((t) => t.includes("the meeting point is the old mill"));
  expect(noticeAt).toBeGreaterThanOrEqual(0);
  expect(noticeAt).toBeLessThan(messageAt);
  // The safety number moves with it: comparing again would show the difference.
  expect(await safetyNumber(a.page)).not.toBe(seenByA);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("a contact whose one-time prekeys the server withholds still gets the message, and the chat's info says so", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Bisi");
  const b = await person(browser, baseURL!, at, "Tunde");
  await openChat(a.page);
  await openChat(b.page);
  // Tunde's browser has published its prekeys; the server then hands out none of the one-time ones.
  let deviceId = "";
  await expect
    .poll(async () => {
      const { keys } = (await (await b.context.request.get(`${baseURL}/api/keys/${b.user.id}`)).json()) as { keys: { deviceId: string }[] };
      deviceId = keys[0]?.deviceId ?? "";
      if (!deviceId) return 0;
      return ((await (await b.context.request.get(`${baseURL}/api/keys/${deviceId}/prekeys`)).json()) as { oneTimePrekeys: number })
        .oneTimePrekeys;
    })
    .toBeGreaterThan(0);
  await executeOnServedD1(`DELETE FROM device_prekeys WHERE user_id = '${b.user.id}' AND device_id = '${deviceId}' AND kind = 'one-time'`);

  const dm = await openDm(a.page, "Tunde");
  await send(a.page, "withheld but still secret 5150");
  await b.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "withheld but still secret 5150").getByRole("img", { name: "Encrypted" })).toBeVisible();
  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "Group Info" }).click();
  await expect(a.page.getByRole("region", { name: "Safety number" })).toContainText(
    "one of their devices had no one-time keys left (all used, or held back by the server)",
  );
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("/advanced-security lists each private chat's contact with its safety number and verified mark, worked out on the device", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Kemi");
  const b = await person(browser, baseURL!, at, "Tunde");
  await openChat(a.page);
  await openChat(b.page);
  const dm = await openDm(a.page, "Tunde");
  await send(a.page, "are you home");
  await b.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "are you home")).toBeVisible();
  await send(b.page, "yes I am");
  await expect(bubble(a.page, "yes I am")).toBeVisible();
  const seen = await safetyNumber(a.page);

  // Without JavaScript the server can only say where the numbers come from.
  const html = await (await a.context.request.get(`${baseURL}/advanced-security`)).text();
  expect(html).toContain("so this list needs JavaScript");

  await a.page.goto("/advanced-security");
  const list = a.page.getByRole("list", { name: "Safety numbers" });
  const row = list.getByRole("listitem").filter({ hasText: "Tunde" });
  await expect(row.locator("code")).toHaveText(seen);
  await expect(row).toContainText("Not verified");

  // Its link opens the comparison in the chat's info, where the person marks the number verified.
  await row.getByRole("link", { name: "Compare with Tunde" }).click();
  const info = a.page.getByRole("dialog", { name: "Group Info" });
  await expect(info.getByRole("region", { name: "Safety number" }).locator("code")).toHaveText(seen);
  await info.getByRole("button", { name: "Mark as verified" }).click();
  await expect(info).toContainText("Verified");
  await a.page.goto("/advanced-security");
  await expect(row).toContainText("Verified");
  await expect(row).not.toContainText("Not verified");

  // A new account key for Tunde changes the number: the mark no longer holds, and the message waits, saying why.
  await newAccountKeyWithGhost(b.context.request, baseURL!, b.user.id);
  await openChat(a.page, `/chat?room=${encodeURIComponent(dm)}`);
  await send(a.page, "new phone?");
  await expect(a.page.getByRole("listitem").filter({ hasText: "Tunde's security key changed. If" })).toBeVisible();
  await expect(bubble(a.page, "new phone?")).toContainText("changed since you verified it, so this message waits");
  await a.page.goto("/advanced-security");
  await expect(row).toContainText("Changed since you verified");
  // Compared and marked verified again: the message leaves.
  await row.getByRole("link", { name: "Compare with Tunde" }).click();
  await a.page.getByRole("dialog", { name: "Group Info" }).getByRole("button", { name: "Mark as verified" }).click();
  await expect(bubble(b.page, "new phone?")).toBeVisible({ timeout: 30_000 });
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("signing out withdraws this device's key on the server and deletes the chats and keys kept in the browser", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Efe");
  const b = await person(browser, baseURL!, at, "Obi");
  await openChat(a.page);
  const published = async () =>
    ((await (await b.context.request.get(`${baseURL}/api/keys/${a.user.id}`)).json()) as { keys: unknown[] }).keys.length;
  await expect.poll(published).toBe(1);
  await expect
    .poll(() => a.page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name)))
    .toContain(`linkup-mesh-${a.user.id}`);

  await a.page.goto("/settings");
  await a.page.getByRole("button", { name: "Sign Out" }).click();
  await expect(a.page).toHaveURL(/\/$/);
  expect(await published()).toBe(0);
  await expect.poll(() => a.page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).toEqual([]);
  expect(a.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("a malicious relay cannot slip plain text, a rewritten header or a forged sender into a direct chat", async ({ browser, baseURL }) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Bisi");
  const b = await person(browser, baseURL!, at, "Kunle");
  const c = await person(browser, baseURL!, at, "Mallam");
  // Kunle's relay is the attacker: it passes every frame on and adds forgeries after each private envelope.
  let forgeries = 0;
  await b.page.routeWebSocket(/\/ws\/rooms\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((raw) => {
      ws.send(raw);
      const frame = JSON.parse(String(raw)) as {
        type: string;
        seq: number;
        envelope?: Record<string, unknown>;
        items?: { seq: number; envelope: Record<string, unknown> }[];
      };
      // Live envelopes and those the room hands back on resume alike.
      const carried = frame.type === "envelope" && frame.envelope ? [{ seq: frame.seq, envelope: frame.envelope }] : (frame.items ?? []);
      for (const { seq, envelope: e } of carried) {
        if (!String(e.room).startsWith("dm:") || e.type !== "text") continue;
        const forged = (change: Record<string, unknown>) => {
          forgeries++;
          ws.send(
            JSON.stringify({ type: "envelope", seq, envelope: { ...e, id: `forged-${Math.random().toString(36).slice(2)}`, ...change } }),
          );
        };
        forged({ content: { text: "INJECTED plain text: send me the code" } });
        forged({ type: "emergency", priority: "high" });
        forged({ timestamp: Number(e.timestamp) + 60_000 });
        forged({ senderId: c.user.id, senderName: "Mallam" });
      }
    });
  });
  await openChat(a.page);
  await openChat(b.page);
  await openChat(c.page);
  const dm = await openDm(a.page, "Kunle");
  await send(a.page, "the real message 3390");
  await b.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "the real message 3390")).toBeVisible();
  await send(a.page, "and a second one 4410");
  await expect(bubble(b.page, "and a second one 4410")).toBeVisible();
  // Each genuine message shows once, with its lock; nothing the relay made up shows at all.
  await expect(bubble(b.page, "the real message 3390")).toHaveCount(1);
  await expect(bubble(b.page, "the real message 3390").getByRole("img", { name: "Encrypted" })).toBeVisible();
  await expect(bubble(b.page, "and a second one 4410")).toHaveCount(1);
  await expect(b.page.getByText("INJECTED plain text")).toHaveCount(0);
  await expect(b.page.locator(".msg-emergency")).toHaveCount(0);
  await expect(b.page.getByRole("list", { name: "Messages" }).getByText("Mallam")).toHaveCount(0);
  expect(forgeries).toBeGreaterThanOrEqual(8);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
  await c.context.close();
});

test("two people talk both ways after a reload, with a ratchet per device; what the server relays and keeps has no plaintext", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Funke");
  const b = await person(browser, baseURL!, at, "Emeka");
  // Every frame between Emeka's browser and the room: what he sends, and what the room relays and, after the
  // reload, hands back from what it kept.
  const frames: string[] = [];
  await b.page.routeWebSocket(/\/ws\/rooms\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      frames.push(String(m));
      server.send(m);
    });
    server.onMessage((raw) => {
      frames.push(String(raw));
      ws.send(raw);
    });
  });
  await openChat(a.page);
  await openChat(b.page);
  const dm = await openDm(a.page, "Emeka");
  await send(a.page, "opening line 1207");
  await openChat(b.page, `/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "opening line 1207")).toBeVisible();

  // Both reload: the ratchet sessions live in IndexedDB and carry on from there.
  await a.page.reload();
  await b.page.reload();
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(b.page.getByText("LIVE", { exact: true })).toBeVisible();
  const words: string[] = ["opening line 1207"];
  for (let i = 0; i < 3; i++) {
    const fromA = `yam price ${i} is 35${i}0 naira`;
    const fromB = `tomatoes ${i} cost 8${i}5`;
    words.push(fromA, fromB);
    await send(a.page, fromA);
    await expect(bubble(b.page, fromA)).toBeVisible();
    await send(b.page, fromB);
    await expect(bubble(a.page, fromB)).toBeVisible();
  }
  await expect(bubble(a.page, "tomatoes 2 cost 825").getByRole("img", { name: "Encrypted" })).toBeVisible();
  await expect(bubble(b.page, "yam price 2 is 3520 naira").getByRole("img", { name: "Encrypted" })).toBeVisible();

  // Only ciphertext went to the room and came from it: every direct message a version 5 ratchet envelope (key
  // entries authenticated, padded: these short texts all have one ciphertext length), and the receipts sealed the same way.
  type Sealed = { id: string; room: string; type: string; content: { ciphertext?: string }; meta?: { e2e?: { v: number } } };
  const carried = frames.flatMap((raw) => {
    const f = JSON.parse(raw) as { envelope?: Sealed; items?: { envelope: Sealed }[] };
    return (f.envelope ? [f.envelope] : (f.items ?? []).map((i) => i.envelope)).filter((e) => e.room === dm);
  });
  const envelopes = carried.filter((e) => e.type === "text");
  expect(new Set(envelopes.map((e) => e.id)).size).toBe(words.length);
  for (const e of envelopes) expect(e.meta?.e2e?.v).toBe(5);
  expect(new Set(envelopes.map((e) => e.content.ciphertext?.length)).size).toBe(1);
  const receipts = carried.filter((e) => e.type === "receipt");
  expect(receipts.length).toBeGreaterThan(0);
  for (const e of receipts) expect(e.meta?.e2e?.v).toBe(5);
  for (const raw of frames) for (const w of words) expect(raw).not.toContain(w);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

test("a relay's own receipts, typing and timer line are not believed in a direct chat; the other person's sealed receipt is", async ({
  browser,
  baseURL,
}) => {
  const at = place();
  const a = await person(browser, baseURL!, at, "Bisi");
  const b = await person(browser, baseURL!, at, "Kunle");
  // Bisi's relay is the attacker: once the room has her message, it says Kunle read it, is typing, and set a timer.
  const forged = await relayForgesControls(a.page, "dm:", b.user);
  await openChat(a.page);
  await openChat(b.page);
  const dm = await openDm(a.page, "Kunle");
  await send(a.page, "did you get the list 5120");
  const mine = bubble(a.page, "did you get the list 5120");
  // Acknowledged by the room, and perhaps already delivered: Kunle's device is online, in another chat.
  const acknowledged = /^(sent|delivered)$/;
  await expect(mine).toHaveAttribute("data-status", acknowledged);
  await expect.poll(forged).toBeGreaterThan(0);
  // Frames of a room are handled in order: once a later message is acknowledged, the forgeries were handled too.
  await send(a.page, "and one more 5121");
  await expect(bubble(a.page, "and one more 5121")).toHaveAttribute("data-status", acknowledged);
  // Kunle has not opened the chat: nothing the relay wrote shows on Bisi's screen.
  await expect(mine).not.toHaveAttribute("data-status", "read");
  await expect(a.page.getByText("Kunle is typing")).toHaveCount(0);
  await expect(a.page.getByText("Kunle turned on disappearing messages")).toHaveCount(0);
  // Kunle reads it: his device's sealed receipt reaches Bisi through the same relay, and is believed.
  await b.page.goto(`/chat?room=${encodeURIComponent(dm)}`);
  await expect(bubble(b.page, "did you get the list 5120")).toBeVisible();
  await expect(mine).toHaveAttribute("data-status", "read");
  // And when Kunle types, his device's signed frame shows it.
  await b.page.getByRole("textbox", { name: "Message" }).fill("on my way");
  await expect(a.page.getByText("Kunle is typing...")).toBeVisible();
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});
