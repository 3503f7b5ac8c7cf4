// A private group's receipts, typing and timer line against a relay that writes its own (docs/protocol.md §7b):
// the relay's unsigned "read", typing frame and timer line are not believed; the member's signed receipt and
// typing frame are.
import { expect, test } from "./fixtures";
import { bubble, createGroup, openChat, person, place, relayForgesControls, send } from "./people";

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
  const forged = await relayForgesControls(a.page, "group:", b.user);
  await openChat(a.page);
  await openChat(b.page);
  await expect(a.page.getByText("2 nodes")).toBeVisible();

  const group = await createGroup(a.page, "Boat owners", ["Kemi"]);
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
  await expect.poll(forged).toBeGreaterThan(0);
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
