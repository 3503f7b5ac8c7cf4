// Sessions and devices of the security centre: list every signed-in session, end one or all the others.
import type { SessionView } from "../../core/api-types";
import { describeDevice } from "../../core/device";
import { toBase64Url } from "../../core/ids";
import type { Db } from "../../db";
import { deleteOtherSessions, deleteUserSession, listUserSessions } from "../../db/queries/sessions";

/**
 * A session's public reference: a digest of its stored hash. The stored hash never leaves the server, so a
 * page that shows the list cannot be used to look a session up by its id.
 */
async function refOf(idHash: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`session-ref:${idHash}`));
  return toBase64Url(new Uint8Array(digest).slice(0, 16));
}

export async function sessionsOf(db: Db, userId: string, currentHash: string | null): Promise<SessionView[]> {
  const rows = await listUserSessions(db, userId);
  const views = await Promise.all(
    rows.map(async (r) => ({
      ref: await refOf(r.id),
      device: describeDevice(r.userAgent),
      userAgent: r.userAgent,
      current: r.id === currentHash,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: (r.lastUsedAt ?? r.createdAt).toISOString(),
    })),
  );
  // This browser first, then the most recently used.
  return views.sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends the user's session with that reference; its stored hash, or null when the user has none by it. */
export async function endSessionByRef(db: Db, userId: string, ref: string): Promise<string | null> {
  for (const row of await listUserSessions(db, userId)) {
    if ((await refOf(row.id)) === ref) return (await deleteUserSession(db, userId, row.id)) ? row.id : null;
  }
  return null;
}

/** Ends every session of the user but this one; how many ended. */
export function endOtherSessions(db: Db, userId: string, currentHash: string): Promise<number> {
  return deleteOtherSessions(db, userId, currentHash);
}
