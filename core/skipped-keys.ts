// A device-wide cap on the message keys kept for skipped direct messages (docs/protocol.md §4, decision 074).
// The Double Ratchet keeps at most 1,000 per chain and 2,000 per session (core/double-ratchet.ts), but a device
// talks to many devices: anyone who can start sessions with it (the server can make accounts) could make each
// leave 2,000 keys behind. This index lists every kept key of every session in the order they were kept; past
// DEVICE_MAX_SKIPPED the oldest are deleted from their sessions, whichever they are.

/** Skipped message keys one device keeps in all its direct sessions together (two full sessions' worth). */
export const DEVICE_MAX_SKIPPED = 4000;

/** One kept key: the session's store key and `${ek}|${dh}|${n}` (the session's X3DH key, then the ratchet's key). */
type Entry = [storeKey: string, id: string];

const INDEX = "e2e:skipped-index";

export interface SkippedDelta {
  added: string[];
  removed: string[];
}

/** The kept keys of a store key's sessions as ids (`${ek}|${dh}|${n}`). */
export function skippedIds(sessions: { ek: string; state: { skipped: Map<string, unknown> } }[]): Set<string> {
  const ids = new Set<string>();
  for (const s of sessions) for (const k of s.state.skipped.keys()) ids.add(`${s.ek}|${k}`);
  return ids;
}

export function skippedDelta(before: Set<string>, after: Set<string>): SkippedDelta {
  return {
    added: [...after].filter((id) => !before.has(id)),
    removed: [...before].filter((id) => !after.has(id)),
  };
}

/**
 * Records what one store key's sessions kept and used; when more than `max` keys are kept in all, returns the
 * oldest to delete (by store key). The caller runs this under one lock for the device and deletes the victims
 * under each session's own lock, after it let go of the one it opened with (so two locks are never taken in the
 * other order).
 */
export async function noteSkipped(
  store: {
    get<T>(key: string): Promise<T | undefined>;
    set(key: string, value: unknown): Promise<void>;
  },
  storeKey: string,
  delta: SkippedDelta,
  max = DEVICE_MAX_SKIPPED,
): Promise<Map<string, string[]>> {
  const removed = new Set(delta.removed);
  const index = ((await store.get<Entry[]>(INDEX)) ?? []).filter(([k, id]) => k !== storeKey || !removed.has(id));
  for (const id of delta.added) index.push([storeKey, id]);
  const victims = new Map<string, string[]>();
  const over = index.length - max;
  if (over > 0)
    for (const [k, id] of index.splice(0, over)) {
      const list = victims.get(k) ?? [];
      list.push(id);
      victims.set(k, list);
    }
  await store.set(INDEX, index);
  return victims;
}

/** Deletes kept keys by id from a store key's sessions (in place); true when any was there. */
export function dropSkipped(sessions: { ek: string; state: { skipped: Map<string, unknown> } }[], ids: string[]): boolean {
  let dropped = false;
  for (const id of ids) {
    const at = id.indexOf("|");
    const session = sessions.find((s) => s.ek === id.slice(0, at));
    if (session?.state.skipped.delete(id.slice(at + 1))) dropped = true;
  }
  return dropped;
}
