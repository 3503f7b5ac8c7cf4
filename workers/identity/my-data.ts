// My data (issue 15; the Nigeria Data Protection Act 2023 gives both rights): export everything LinkUp holds
// about a person, and delete the account with every row that names them, their messages in room storage and
// their files. See docs/decisions/029-security-events-and-my-data.md.
import { and, eq, inArray, like, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import { dmMembers } from "../../core/room-ids";
import type { Db } from "../../db";
import {
  auditLog,
  backupCodes,
  billingCustomers,
  deviceKeys,
  emergencyBroadcasts,
  emergencyContacts,
  files,
  meshConnections,
  messages,
  notificationPrefs,
  notifications,
  passkeys,
  outboundMessages,
  phoneChannels,
  pointEvents,
  pushSubscriptions,
  rewards,
  roomInvitations,
  roomMembers,
  rooms,
  securityEvents,
  sessions,
  subscriptions,
  supportTickets,
  userDevices,
  trialClaims,
  twoFactor,
  type User,
  usageDaily,
  userBlocks,
  users,
  verifications,
} from "../../db/schema";
import { toMe } from "../auth/me";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { passkeysOf } from "./passkeys";
import { recordSecurityEvent } from "./security-events";
import { sessionsOf } from "./sessions";
import { roomStub } from "../rooms/stub";

/** Everything LinkUp holds about the person, as one JSON document. Secrets (hashes, the TOTP secret) are left out. */
export async function exportMyData(db: Db, user: User, currentSessionHash: string | null) {
  const id = user.id;
  const [
    memberships,
    invitations,
    blocks,
    keys,
    sent,
    broadcasts,
    contacts,
    notes,
    prefs,
    tickets,
    subs,
    reward,
    points,
    usage,
    fileRows,
    events,
    pushes,
    tf,
    codes,
    verifs,
  ] = await Promise.all([
    db
      .select({ roomId: roomMembers.roomId, kind: rooms.kind, name: rooms.name, role: roomMembers.role, joinedAt: roomMembers.joinedAt })
      .from(roomMembers)
      .innerJoin(rooms, eq(rooms.id, roomMembers.roomId))
      .where(eq(roomMembers.userId, id))
      .all(),
    db.select().from(roomInvitations).where(eq(roomInvitations.userId, id)).all(),
    db
      .select({ blockedId: userBlocks.blockedId, createdAt: userBlocks.createdAt })
      .from(userBlocks)
      .where(eq(userBlocks.blockerId, id))
      .all(),
    db.select().from(deviceKeys).where(eq(deviceKeys.userId, id)).all(),
    db.select().from(messages).where(eq(messages.senderId, id)).all(),
    db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, id)).all(),
    db.select().from(emergencyContacts).where(eq(emergencyContacts.userId, id)).all(),
    db.select().from(notifications).where(eq(notifications.userId, id)).all(),
    db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, id)).get(),
    db.select().from(supportTickets).where(eq(supportTickets.userId, id)).all(),
    db.select().from(subscriptions).where(eq(subscriptions.userId, id)).all(),
    db.select().from(rewards).where(eq(rewards.userId, id)).get(),
    db.select().from(pointEvents).where(eq(pointEvents.userId, id)).all(),
    db.select().from(usageDaily).where(eq(usageDaily.userId, id)).all(),
    db.select().from(files).where(eq(files.ownerId, id)).all(),
    db.select().from(securityEvents).where(eq(securityEvents.userId, id)).all(),
    db
      .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, id))
      .all(),
    db.select({ enabledAt: twoFactor.enabledAt }).from(twoFactor).where(eq(twoFactor.userId, id)).get(),
    db.select({ usedAt: backupCodes.usedAt }).from(backupCodes).where(eq(backupCodes.userId, id)).all(),
    db
      .select({
        phone: verifications.phone,
        channel: verifications.channel,
        createdAt: verifications.createdAt,
        consumedAt: verifications.consumedAt,
      })
      .from(verifications)
      .where(eq(verifications.userId, id))
      .all(),
  ]);
  await recordSecurityEvent(db, id, "export");
  return {
    exportedAt: new Date().toISOString(),
    profile: { ...toMe(user), latitude: user.latitude, longitude: user.longitude, geohash: user.geohash },
    sessions: await sessionsOf(db, id, currentSessionHash),
    passkeys: await passkeysOf(db, id),
    twoFactor: {
      enabled: Boolean(tf?.enabledAt),
      enabledAt: tf?.enabledAt ?? null,
      backupCodesLeft: codes.filter((c) => !c.usedAt).length,
    },
    phoneVerifications: verifs,
    memberships,
    invitations,
    blocks,
    deviceKeys: keys,
    messages: sent,
    emergencyBroadcasts: broadcasts,
    emergencyContacts: contacts,
    notifications: notes,
    notificationPrefs: prefs ?? null,
    supportTickets: tickets,
    payments: { subscriptions: subs.map(({ stripeCustomerId: _c, ...rest }) => rest) },
    points: { rewards: reward ?? null, events: points },
    usage,
    files: fileRows.map(({ r2Key: _k, ...rest }) => rest),
    securityEvents: events,
    pushSubscriptions: pushes,
  };
}

const PAID_STATUSES = ["active", "trialing", "past_due"];

/** The rooms whose Durable Objects hold something of the person: their memberships and wherever they sent. */
async function roomsOf(db: Db, userId: string): Promise<string[]> {
  const [member, sentIn] = await Promise.all([
    db.select({ roomId: roomMembers.roomId }).from(roomMembers).where(eq(roomMembers.userId, userId)).all(),
    db.selectDistinct({ roomId: messages.roomId }).from(messages).where(eq(messages.senderId, userId)).all(),
  ]);
  return [...new Set([...member, ...sentIn].map((r) => r.roomId))];
}

/** Direct chats carry both people's ids in their room id: such a room goes whole. */
const isDirectWith = (roomId: string, userId: string) => dmMembers(roomId)?.includes(userId) ?? false;

/**
 * Deletes the account: first each room drops the person's messages (a direct chat drops everything), so no
 * pending write brings a message back; then every D1 row naming them; then their R2 files.
 */
export async function deleteAccount(env: AppEnv, db: Db, user: User): Promise<{ rooms: number; files: number }> {
  const id = user.id;
  const paying = await db
    .select({ status: subscriptions.status, cancel: subscriptions.cancelAtPeriodEnd })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, id), eq(subscriptions.source, "stripe")))
    .all();
  if (paying.some((s) => PAID_STATUSES.includes(s.status) && !s.cancel)) {
    throw new DomainError("conflict", "Cancel your subscription before deleting your account");
  }
  const roomIds = await roomsOf(db, id);
  for (const roomId of roomIds) {
    await roomStub(env, roomId).forget(id, isDirectWith(roomId, id));
  }
  const fileKeys = (await db.select({ key: files.r2Key }).from(files).where(eq(files.ownerId, id)).all()).map((f) => f.key);
  const dmRooms = roomIds.filter((r) => isDirectWith(r, id));
  const phone = user.phone;
  const byPhone = <T>(q: (p: string) => T) => (phone ? [q(phone)] : []);
  // Every table, explicitly: cascades are not relied on (libSQL may run without foreign keys enforced). In
  // order, the user row last, so a deletion cut short can simply be asked for again.
  const steps = [
    db.delete(messages).where(or(eq(messages.senderId, id), dmRooms.length ? inArray(messages.roomId, dmRooms) : sql`0`)),
    db.delete(meshConnections).where(or(eq(meshConnections.userId, id), like(meshConnections.roomId, `dm:%${id}%`))),
    db
      .delete(roomInvitations)
      .where(or(eq(roomInvitations.userId, id), dmRooms.length ? inArray(roomInvitations.roomId, dmRooms) : sql`0`)),
    db.update(roomInvitations).set({ invitedBy: null }).where(eq(roomInvitations.invitedBy, id)),
    db.delete(roomMembers).where(or(eq(roomMembers.userId, id), dmRooms.length ? inArray(roomMembers.roomId, dmRooms) : sql`0`)),
    db.delete(rooms).where(like(rooms.id, `dm:%${id}%`)),
    db.update(rooms).set({ createdBy: null }).where(eq(rooms.createdBy, id)),
    db.delete(userBlocks).where(or(eq(userBlocks.blockerId, id), eq(userBlocks.blockedId, id))),
    db.delete(deviceKeys).where(eq(deviceKeys.userId, id)),
    db.update(emergencyBroadcasts).set({ resolvedBy: null }).where(eq(emergencyBroadcasts.resolvedBy, id)),
    // A report about them stays for staff, naming nobody now.
    db.update(supportTickets).set({ subjectId: null }).where(eq(supportTickets.subjectId, id)),
    db.delete(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, id)),
    db.delete(emergencyContacts).where(eq(emergencyContacts.userId, id)),
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, id)),
    // Others' notices that point into a direct chat with the person point nowhere now.
    db.delete(notifications).where(or(eq(notifications.userId, id), like(notifications.url, `%${id}%`))),
    db.delete(notificationPrefs).where(eq(notificationPrefs.userId, id)),
    db.delete(usageDaily).where(eq(usageDaily.userId, id)),
    db.delete(supportTickets).where(or(eq(supportTickets.userId, id), ...byPhone((p) => eq(supportTickets.phone, p)))),
    db.delete(pointEvents).where(eq(pointEvents.userId, id)),
    db.delete(rewards).where(eq(rewards.userId, id)),
    db.delete(files).where(eq(files.ownerId, id)),
    db.delete(securityEvents).where(eq(securityEvents.userId, id)),
    db.delete(backupCodes).where(eq(backupCodes.userId, id)),
    db.delete(passkeys).where(eq(passkeys.userId, id)),
    db.delete(twoFactor).where(eq(twoFactor.userId, id)),
    db.delete(subscriptions).where(eq(subscriptions.userId, id)),
    db.delete(billingCustomers).where(eq(billingCustomers.userId, id)),
    db.delete(trialClaims).where(or(eq(trialClaims.userId, id), ...byPhone((p) => eq(trialClaims.phone, p)))),
    db.delete(verifications).where(or(eq(verifications.userId, id), ...byPhone((p) => eq(verifications.phone, p)))),
    db.delete(auditLog).where(or(eq(auditLog.actorId, id), eq(auditLog.target, id), like(auditLog.detail, `%${id}%`))),
    ...byPhone((p) => db.delete(outboundMessages).where(eq(outboundMessages.to, p))),
    ...byPhone((p) => db.delete(phoneChannels).where(eq(phoneChannels.phone, p))),
    db.delete(sessions).where(eq(sessions.userId, id)),
    db.delete(userDevices).where(eq(userDevices.userId, id)),
    db.delete(users).where(eq(users.id, id)),
    // A count of deletions, naming nobody.
    db.insert(auditLog).values({ id: newId(), action: "account.deleted" }),
  ];
  for (const step of steps) await step;
  if (fileKeys.length) await env.FILES.delete(fileKeys);
  return { rooms: roomIds.length, files: fileKeys.length };
}
