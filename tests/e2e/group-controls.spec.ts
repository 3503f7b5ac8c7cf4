// A private group's receipts, typing and timer line against a relay that writes its own (docs/protocol.md §7b):
// the relay's unsigned "read", typing frame and timer line are not believed; the member's signed receipt and
// typing frame are.
import { expect, test } from "./fixtures";
import { bubble, openChat, person, place, send } from "./people";

test("a relay's own receipts, typing and timer line are not believed in a group; a member's signed receipt and typing are", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const at = place();
  const a = await person(browser, baseURL!, at, "Jide");
  const b = await person(browser, baseURL!, at, "Kemi");
  // Jide's relay is the attacker: once the room has his message in the group, it says Kemi read it, is typing,
  // and turned on a timer.
  let forged = 0;
  await a.page.routeWebSocket(/\/ws\/rooms\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((raw) => {
      ws.send(raw);
      const frame = JSON.parse(String(raw)) as { type: string; id?: string; seq?: number };
      const room = decodeURIComponent(new URL(ws.url()).pathname.split("/").pop() ?? "");
      if (frame.type !== "ack" || !room.startsWith("group:")) return;
      forged++;
      ws.send(JSON.stringify({ type: "receipt", status: "read", ids: [frame.id], by: b.user.id, at: Date.now() }));
      ws.send(JSON.stringify({ type: "typing", userId: b.user.id, nickname: "Kemi", active: true }));
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
        meta: { event: "disappearing", by: b.user.id, byName: "Kemi", timer: "1hour" },
      };
      ws.send(JSON.stringify({ type: "envelope", seq: frame.seq, envelope: line }));
    });
  });
  await openChat(a.page);
  await openChat(b.page);
  await expect(a.page.getByText("2 nodes")).toBeVisible();

  await a.page.getByLabel("More options").click();
  await a.page.getByRole("button", { name: "New Group" }).click();
  const form = a.page.getByRole("form", { name: "New group" });
  await form.getByLabel("Group name").fill("Boat owners");
  await form.getByRole("checkbox", { name: "Kemi" }).check();
  await form.getByRole("button", { name: "Create group" }).click();
  await expect(a.page).toHaveURL(/room=group/);
  const group = new URL(a.page.url()).searchParams.get("room")!;
  await expect(a.page.getByText("LIVE", { exact: true })).toBeVisible();

  await b.page.reload();
  await b.page.getByRole("list", { name: "Group invitations" }).getByRole("button", { name: "Accept invitation to Boat owners" }).click();
  await expect(b.page).toHaveURL(new RegExp(`room=${encodeURIComponent(group)}`));
  await expect(b.page.getByText("LIVE", { exact: true })).toBeVisible();
  // Kemi moves to another room, so she does not read what comes next yet.
  await b.page.goto("/chat");
  await expect(b.page.getByText("LIVE", { exact: true })).toBeVisible();

  await send(a.page, "the engine needs 12000 naira of parts");
  const mine = bubble(a.page, "the engine needs 12000 naira of parts");
  await expect.poll(() => forged).toBeGreaterThan(0);
  // Frames of a room are handled in order: once a later message is acknowledged, the forgeries were handled too.
  await send(a.page, "and a new rope 4410");
  await expect(bubble(a.page, "and a new rope 4410")).toHaveAttribute("data-status", /sent|delivered/);
  await expect(mine).not.toHaveAttribute("data-status", "read");
  await expect(a.page.getByText("Kemi is typing")).toHaveCount(0);
  await expect(a.page.getByText("Kemi turned on disappearing messages")).toHaveCount(0);

  // Kemi opens the group: her device's signed receipt reaches Jide through the same relay, and is believed.
  await b.page.goto(`/chat?room=${encodeURIComponent(group)}`);
  await expect(bubble(b.page, "the engine needs 12000 naira of parts")).toBeVisible();
  await expect(mine).toHaveAttribute("data-status", "read");
  // And when she types, her device's signed frame shows it.
  await b.page.getByRole("textbox", { name: "Message" }).fill("I can bring the rope");
  await expect(a.page.getByText("Kemi is typing...")).toBeVisible();
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});
