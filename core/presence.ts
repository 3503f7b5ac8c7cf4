// Who is in a room, as a client knows it: folded from the room's `presence` pages and `presence-delta` frames
// (core/frames.ts; docs/decisions/052-presence-deltas-and-jittered-reconnects.md). Used by the browser's mesh
// node and by the Worker tests, so both read the protocol the same way.
import { type PresenceMember, PRESENCE_MEMBER_LIMIT, type ServerFrame } from "./frames";

export interface PresenceView {
  /** Sockets (devices and tabs) in the room. */
  nodes: number;
  /** Distinct people in the room (may be more than `members` holds). */
  people: number;
  /** Who is here, ordered by userId: the first PRESENCE_MEMBER_LIMIT the room listed. */
  members: PresenceMember[];
}

export type PresenceFrame = Extract<ServerFrame, { type: "presence" | "presence-delta" }>;

const byId = (a: PresenceMember, b: PresenceMember) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/**
 * The view after one frame. A page replaces what the view held in its range of userIds (after `after`, up to
 * its `next`, or to the end on the last page); a delta replaces the people it names.
 */
export function applyPresence(view: PresenceView | null, frame: PresenceFrame): PresenceView {
  let kept: PresenceMember[];
  let added: PresenceMember[];
  if (frame.type === "presence") {
    const from = frame.after ?? "";
    const to = frame.next;
    kept = (view?.members ?? []).filter((m) => m.userId <= from || (to !== undefined && m.userId > to));
    added = frame.members;
  } else {
    const named = new Set([...frame.left, ...frame.joined.map((m) => m.userId)]);
    kept = (view?.members ?? []).filter((m) => !named.has(m.userId));
    added = frame.joined;
  }
  const members = [...kept, ...added].sort(byId).slice(0, PRESENCE_MEMBER_LIMIT);
  return { nodes: frame.nodes, people: frame.people ?? members.length, members };
}

/** The cursor of the page to ask for next, or null when the view is complete (or as full as a client keeps). */
export function nextPresencePage(frame: PresenceFrame, view: PresenceView): string | null {
  return frame.type === "presence" && frame.next !== undefined && view.members.length < PRESENCE_MEMBER_LIMIT ? frame.next : null;
}
