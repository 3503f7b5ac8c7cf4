// Bans (docs/decisions/025-bans.md): staff suspend an account at once — its sessions end, its sockets close,
// and sign-in and room joins are refused until staff lift the ban. Both steps are audited. Its API keys are revoked
// and its push subscriptions dropped at once, and a key whose owner is banned is refused anyway; unbanning brings
// neither back (docs/decisions/049-abuse-bans-claims-and-names.md).
import { BANNED_MESSAGE } from "../../core/admin-schemas";
import type { Db } from "../../db";
import { openConnectionRoomsOf } from "../../db/queries/rooms";
import { revokeAllApiKeys } from "../../db/queries/api-keys";
import { deleteAllPushSubscriptions } from "../../db/queries/notifications";
import { deleteAllSessions } from "../../db/queries/sessions";
import { countUserDevices, findUserById, setUserBan } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { auditAction } from ".";
import { roomStub } from "../rooms/stub";
import { nearbyRoomId } from "../../core/room-ids";

export function isBanned(user: Pick<User, "bannedAt">): boolean {
  return user.bannedAt !== null && user.bannedAt !== undefined;
}

/** Refuses a banned account with the message the person sees (403). */
export function refuseIfBanned(user: Pick<User, "bannedAt">): void {
  if (isBanned(user)) throw new DomainError("banned", BANNED_MESSAGE);
}

async function targetOrFail(db: Db, id: string) {
  const target = await findUserById(db, id);
  if (!target) throw new DomainError("user_not_found", "User not found");
  return target;
}

export async function banPerson(env: Pick<AppEnv, "ROOMS">, db: Db, actor: User, targetId: string, reason: string) {
  const target = await targetOrFail(db, targetId);
  if (target.id === actor.id) throw new DomainError("cannot_ban_self", "You cannot ban yourself");
  if (target.role === "admin") throw new DomainError("cannot_ban_admin", "Admins are set by ADMIN_PHONES and cannot be banned");
  // Staff answer to admins: only an admin may ban a colleague.
  if (target.role === "staff" && actor.role !== "admin") throw new DomainError("admin_required", "Admin access required");
  const bannedAt = target.bannedAt ?? new Date();
  if (!isBanned(target)) await setUserBan(db, target.id, { bannedAt, banReason: reason });
  const ended = await deleteAllSessions(db, target.id);
  const keysRevoked = await revokeAllApiKeys(db, target.id, new Date());
  const pushesDropped = await deleteAllPushSubscriptions(db, target.id);
  const closedSockets = await closeSockets(env, db, target.id, target.geohash);
  // The browsers they signed in from are barred from new anonymous identities while the ban lasts (workers/auth/device.ts).
  const devices = await countUserDevices(db, target.id);
  await auditAction(
    db,
    actor,
    "support.person_banned",
    target.id,
    { banned: isBanned(target), reason: target.banReason },
    { banned: true, reason },
    { sessionsEnded: ended, socketsClosed: closedSockets, devices, keysRevoked, pushesDropped },
  );
  return {
    id: target.id,
    banned: true,
    bannedAt: bannedAt.toISOString(),
    sessionsEnded: ended,
    socketsClosed: closedSockets,
    devices,
    keysRevoked,
    pushesDropped,
  };
}

export async function unbanPerson(db: Db, actor: User, targetId: string) {
  const target = await targetOrFail(db, targetId);
  if (isBanned(target)) {
    await setUserBan(db, target.id, null);
    await auditAction(db, actor, "support.person_unbanned", target.id, { banned: true, reason: target.banReason }, { banned: false });
  }
  return { id: target.id, banned: false };
}

/** Closes the person's live sockets in every room they may be in (room_presence and their memberships say which). */
/**
 * Closes the person's sockets in the rooms D1 knows them in: where the rooms' last batch saw them, the rooms they are
 * a member of, and their own area's room (a socket opened there since the last batch is not in D1 yet). A socket
 * opened in another area within the last minute closes at its next reconnect, refused: the sessions are gone
 * (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
 */
async function closeSockets(env: Pick<AppEnv, "ROOMS">, db: Db, userId: string, geohash: string | null): Promise<number> {
  let closed = 0;
  const rooms = new Set(await openConnectionRoomsOf(db, userId));
  if (geohash) rooms.add(nearbyRoomId(geohash));
  for (const roomId of rooms) {
    try {
      closed += await roomStub(env, roomId).expel(userId, BANNED_MESSAGE);
    } catch (e) {
      // The sessions are gone, so the socket cannot come back after its next reconnect.
      console.error("bans: closing sockets", e);
    }
  }
  return closed;
}
