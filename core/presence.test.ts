// Folding the room's presence pages and deltas into what a screen shows (core/presence.ts).
import { describe, expect, it } from "vitest";
import { type PresenceMember, PRESENCE_MEMBER_LIMIT } from "./frames";
import { applyPresence, nextPresencePage, type PresenceFrame } from "./presence";

const m = (userId: string, nodes = 1): PresenceMember => ({ userId, nickname: `N ${userId}`, nodes });

describe("the presence view", () => {
  it("takes pages in order, then applies joins, new device counts and leaves", () => {
    const page1: PresenceFrame = { type: "presence", nodes: 5, people: 4, members: [m("a"), m("b", 2)], next: "b" };
    let view = applyPresence(null, page1);
    expect(nextPresencePage(page1, view)).toBe("b");
    const page2: PresenceFrame = { type: "presence", nodes: 5, people: 4, members: [m("c"), m("d")], after: "b" };
    view = applyPresence(view, page2);
    expect(nextPresencePage(page2, view)).toBeNull();
    expect(view).toEqual({ nodes: 5, people: 4, members: [m("a"), m("b", 2), m("c"), m("d")] });

    view = applyPresence(view, { type: "presence-delta", nodes: 6, people: 4, joined: [m("a", 2)], left: [] });
    view = applyPresence(view, { type: "presence-delta", nodes: 5, people: 4, joined: [m("e")], left: ["c"] });
    expect(view).toEqual({ nodes: 5, people: 4, members: [m("a", 2), m("b", 2), m("d"), m("e")] });
  });

  it("lets a fresh first page replace who is no longer there, and keeps later pages' people until they come", () => {
    const before = { nodes: 4, people: 4, members: [m("a"), m("b"), m("c"), m("z")] };
    // The first page now ends at "c": "b" left while this tab was away; "z" is for the next page to confirm.
    const view = applyPresence(before, { type: "presence", nodes: 3, people: 3, members: [m("a"), m("c")], next: "c" });
    expect(view.members.map((x) => x.userId)).toEqual(["a", "c", "z"]);
    expect(applyPresence(view, { type: "presence", nodes: 2, people: 2, members: [], after: "c" }).members.map((x) => x.userId)).toEqual([
      "a",
      "c",
    ]);
  });

  it("reads an older room's whole list (no people, no cursor) as complete", () => {
    const view = applyPresence({ nodes: 9, people: 9, members: [m("x")] }, { type: "presence", nodes: 3, members: [m("a", 2), m("b")] });
    expect(view).toEqual({ nodes: 3, people: 2, members: [m("a", 2), m("b")] });
  });

  it("keeps at most PRESENCE_MEMBER_LIMIT people and stops asking for pages there", () => {
    const many = Array.from({ length: PRESENCE_MEMBER_LIMIT }, (_, i) => m(`u${String(i).padStart(4, "0")}`));
    const page: PresenceFrame = { type: "presence", nodes: 500, people: 500, members: many, next: many.at(-1)!.userId };
    const view = applyPresence(null, page);
    expect(nextPresencePage(page, view)).toBeNull();
    const joined = applyPresence(view, { type: "presence-delta", nodes: 501, people: 501, joined: [m("a")], left: [] });
    expect(joined.members).toHaveLength(PRESENCE_MEMBER_LIMIT);
    expect(joined.people).toBe(501);
  });
});
