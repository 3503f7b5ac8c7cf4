// My data (issue 15; the Nigeria Data Protection Act 2023 gives both rights): export everything LinkUp holds
// about a person, and delete the account with every row that names them, their messages in room storage and
// their files. See docs/decisions/029-security-events-and-my-data.md.
import { dmMembers } from "../../core/room-ids";
import type { Db } from "../../db";
import { subscriptionsOf } from "../../db/queries/billing";
import { deleteAccountRows, fileKeysOf, personalRecords, roomsOfUser } from "../../db/queries/my-data";
import type { User } from "../../db/schema";
import { toMe } from "../auth/me";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { passkeysOf } from "./passkeys";
import { recordSecurityEvent } from "./security-events";
import { sessionsOf } from "./sessions";
import { roomStub } from "../rooms/stub";

/**
 * Everything LinkUp holds about the person, as one JSON document. Secrets (hashes, the TOTP secret) are left out.
 * Their messages come from the rooms that hold them (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
 */
export async function exportMyData(env: Pick<AppEnv, "ROOMS">, db: Db, user: User, currentSessionHash: string | null) {
  const id = user.id;
  const r = await personalRecords(db, id);
  const messages: object[] = [];
  // The RPC stub's type loses the envelope's shape; the room answers plain JSON objects.
  for (const roomId of await roomsOfUser(db, id)) messages.push(...((await roomStub(env, roomId).sentBy(id)) as unknown as object[]));
  await recordSecurityEvent(db, id, "export");
  return {
    exportedAt: new Date().toISOString(),
    profile: { ...toMe(user), latitude: user.latitude, longitude: user.longitude, geohash: user.geohash },
    sessions: await sessionsOf(db, id, currentSessionHash),
    passkeys: await passkeysOf(db, id),
    twoFactor: { enabled: Boolean(r.twoFactorEnabledAt), enabledAt: r.twoFactorEnabledAt, backupCodesLeft: r.backupCodesLeft },
    phoneVerifications: r.phoneVerifications,
    memberships: r.memberships,
    invitations: r.invitations,
    blocks: r.blocks,
    deviceKeys: r.deviceKeys,
    messages,
    emergencyBroadcasts: r.emergencyBroadcasts,
    emergencyContacts: r.emergencyContacts,
    sosResponses: r.sosResponses,
    notifications: r.notifications,
    notificationPrefs: r.notificationPrefs,
    supportTickets: r.supportTickets,
    payments: { subscriptions: r.subscriptions.map(({ stripeCustomerId: _c, ...rest }) => rest) },
    points: { rewards: r.rewards, events: r.pointEvents },
    usage: r.usage,
    files: r.files.map(({ r2Key: _k, ...rest }) => rest),
    securityEvents: r.securityEvents,
    pushSubscriptions: r.pushSubscriptions,
    apiKeys: r.apiKeys,
  };
}

const PAID_STATUSES = ["active", "trialing", "past_due"];

/** Direct chats carry both people's ids in their room id: such a room goes whole. */
const isDirectWith = (roomId: string, userId: string) => dmMembers(roomId)?.includes(userId) ?? false;

/**
 * Deletes the account: first each room drops the person's messages (a direct chat drops everything), so no
 * pending write brings a message back; then every D1 row naming them; then their R2 files.
 */
export async function deleteAccount(env: AppEnv, db: Db, user: User): Promise<{ rooms: number; files: number }> {
  const id = user.id;
  const paying = (await subscriptionsOf(db, id)).filter((s) => s.source === "stripe");
  if (paying.some((s) => PAID_STATUSES.includes(s.status) && !s.cancelAtPeriodEnd)) {
    throw new DomainError("cancel_subscription_first", "Cancel your subscription before deleting your account");
  }
  const roomIds = await roomsOfUser(db, id);
  for (const roomId of roomIds) {
    await roomStub(env, roomId).forget(id, isDirectWith(roomId, id));
  }
  const fileKeys = await fileKeysOf(db, id);
  await deleteAccountRows(
    db,
    user,
    roomIds.filter((r) => isDirectWith(r, id)),
  );
  if (fileKeys.length) await env.FILES.delete(fileKeys);
  return { rooms: roomIds.length, files: fileKeys.length };
}
