// The rows behind "My data" (docs/decisions/029-security-events-and-my-data.md): everything that names a person,
// read for the export and deleted with the account.
import { eq, inArray, like, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../index";
import {
  orgInvites,
  orgMembers,
  orgs,
  directRequests,
  analyticsPersonal,
  apiKeys,
  apiKeyUsage,
  auditLog,
  backupCodes,
  billingCustomers,
  deviceKeys,
  deviceLinks,
  deviceLists,
  devicePrekeys,
  emergencyBroadcasts,
  emergencyContacts,
  files,
  notificationPrefs,
  notifications,
  outboundMessages,
  passkeys,
  passRevocations,
  phoneChannels,
  pointEvents,
  priceReports,
  pushSubscriptions,
  rewards,
  roomInvitations,
  roomMembers,
  rooms,
  securityEvents,
  sessions,
  sosDeliveries,
  sosResponses,
  subscriptions,
  supportTickets,
  trialClaims,
  twoFactor,
  usageDaily,
  userBlocks,
  userDevices,
  users,
  verifications,
  webauthnChallenges,
  roomActivity,
  roomPresence,
} from "../schema";

/**
 * Every row the export shows, read in parallel. Hashes and the TOTP secret are not read; the export drops storage
 * keys and payment customer ids.
 */
export async function personalRecords(db: Db, id: string) {
  const [
    memberships,
    invitations,
    blocks,
    keys,
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
    keysForApi,
    sosAnswers,
    reported,
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
    db
      .select({
        name: apiKeys.name,
        hint: apiKeys.hint,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.userId, id))
      .all(),
    db
      .select({ sosId: sosResponses.sosId, respondedAt: sosResponses.respondedAt })
      .from(sosResponses)
      .where(eq(sosResponses.userId, id))
      .all(),
    db.select().from(priceReports).where(eq(priceReports.userId, id)).all(),
  ]);
  return {
    memberships,
    invitations,
    blocks,
    deviceKeys: keys,
    emergencyBroadcasts: broadcasts,
    emergencyContacts: contacts,
    notifications: notes,
    notificationPrefs: prefs ?? null,
    supportTickets: tickets,
    subscriptions: subs,
    rewards: reward ?? null,
    pointEvents: points,
    usage,
    files: fileRows,
    securityEvents: events,
    pushSubscriptions: pushes,
    twoFactorEnabledAt: tf?.enabledAt ?? null,
    backupCodesLeft: codes.filter((c) => !c.usedAt).length,
    phoneVerifications: verifs,
    apiKeys: keysForApi,
    sosResponses: sosAnswers,
    priceReports: reported,
  };
}

/**
 * The rooms whose Durable Objects hold something of the person: their memberships (area rooms too), where a
 * room's last batch saw them, and declined message requests.
 */
export async function roomsOfUser(db: Db, userId: string): Promise<string[]> {
  const [member, sentIn, requests] = await Promise.all([
    db.select({ roomId: roomMembers.roomId }).from(roomMembers).where(eq(roomMembers.userId, userId)).all(),
    db.select({ roomId: roomPresence.roomId }).from(roomPresence).where(eq(roomPresence.userId, userId)).all(),
    // A declined message request has no members left but still holds what was sent (docs/decisions/050-…).
    db
      .select({ roomId: directRequests.roomId })
      .from(directRequests)
      .where(like(directRequests.roomId, `dm:%${userId}%`))
      .all(),
  ]);
  return [...new Set([...member, ...sentIn, ...requests].map((r) => r.roomId))];
}

/** The storage keys of the person's files, for deleting them from R2. */
export async function fileKeysOf(db: Db, ownerId: string): Promise<string[]> {
  return (await db.select({ key: files.r2Key }).from(files).where(eq(files.ownerId, ownerId)).all()).map((f) => f.key);
}

/**
 * Every statement that removes the person's rows, in order, the user row last, so a deletion cut short can simply
 * be asked for again. Every table is named explicitly: cascades are not relied on (libSQL may run without foreign
 * keys enforced). `dmRooms` are the direct chats with them, which go whole.
 */
export function accountDeletionSteps(db: Db, user: { id: string; phone: string | null }, dmRooms: string[]) {
  const id = user.id;
  const phone = user.phone;
  const byPhone = <T>(q: (p: string) => T) => (phone ? [q(phone)] : []);
  const inDm = (column: SQLiteColumn) => (dmRooms.length ? inArray(column, dmRooms) : sql`0`);
  const ownSessions = db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
  const ownApiKeys = db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, id));
  const ownOrgs = db.select({ id: orgs.id }).from(orgs).where(eq(orgs.ownerId, id));
  return [
    // The rooms hold the messages themselves (they forget the person first); D1 keeps only counts.
    db.delete(roomPresence).where(or(eq(roomPresence.userId, id), like(roomPresence.roomId, `dm:%${id}%`))),
    db.delete(roomActivity).where(inDm(roomActivity.roomId)),
    db.delete(roomInvitations).where(or(eq(roomInvitations.userId, id), inDm(roomInvitations.roomId))),
    db.update(roomInvitations).set({ invitedBy: null }).where(eq(roomInvitations.invitedBy, id)),
    db.delete(roomMembers).where(or(eq(roomMembers.userId, id), inDm(roomMembers.roomId))),
    // Their seat; an organisation they own goes with its seats and invitations (docs/decisions/067-enterprise-teams.md).
    db.delete(orgInvites).where(inArray(orgInvites.orgId, ownOrgs)),
    db.update(orgInvites).set({ createdBy: null }).where(eq(orgInvites.createdBy, id)),
    db.update(orgInvites).set({ usedBy: null }).where(eq(orgInvites.usedBy, id)),
    db.delete(orgMembers).where(or(eq(orgMembers.userId, id), inArray(orgMembers.orgId, ownOrgs))),
    db.delete(orgs).where(eq(orgs.ownerId, id)),
    db.update(orgs).set({ supportStaffId: null }).where(eq(orgs.supportStaffId, id)),
    db.delete(directRequests).where(like(directRequests.roomId, `dm:%${id}%`)),
    db.delete(rooms).where(like(rooms.id, `dm:%${id}%`)),
    db.update(rooms).set({ createdBy: null }).where(eq(rooms.createdBy, id)),
    db.delete(userBlocks).where(or(eq(userBlocks.blockerId, id), eq(userBlocks.blockedId, id))),
    db.delete(devicePrekeys).where(eq(devicePrekeys.userId, id)),
    db.delete(deviceKeys).where(eq(deviceKeys.userId, id)),
    db.delete(deviceLists).where(eq(deviceLists.userId, id)),
    db.delete(deviceLinks).where(eq(deviceLinks.userId, id)),
    db.update(emergencyBroadcasts).set({ resolvedBy: null }).where(eq(emergencyBroadcasts.resolvedBy, id)),
    // A report about them stays for staff, naming nobody now.
    db.update(supportTickets).set({ subjectId: null }).where(eq(supportTickets.subjectId, id)),
    db.delete(sosResponses).where(eq(sosResponses.userId, id)),
    db.delete(sosDeliveries).where(eq(sosDeliveries.userId, id)),
    db.delete(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, id)),
    db.delete(emergencyContacts).where(eq(emergencyContacts.userId, id)),
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, id)),
    // Others' notices that point into a direct chat with the person point nowhere now.
    db.delete(notifications).where(or(eq(notifications.userId, id), like(notifications.url, `%${id}%`))),
    db.delete(notificationPrefs).where(eq(notificationPrefs.userId, id)),
    db.delete(usageDaily).where(eq(usageDaily.userId, id)),
    db.delete(analyticsPersonal).where(eq(analyticsPersonal.userId, id)),
    db.delete(supportTickets).where(or(eq(supportTickets.userId, id), ...byPhone((p) => eq(supportTickets.phone, p)))),
    db.delete(pointEvents).where(eq(pointEvents.userId, id)),
    db.delete(priceReports).where(eq(priceReports.userId, id)),
    db.delete(rewards).where(eq(rewards.userId, id)),
    db.delete(files).where(eq(files.ownerId, id)),
    db.delete(securityEvents).where(eq(securityEvents.userId, id)),
    db.delete(apiKeyUsage).where(inArray(apiKeyUsage.keyId, ownApiKeys)),
    db.delete(apiKeys).where(eq(apiKeys.userId, id)),
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
    db.delete(webauthnChallenges).where(inArray(webauthnChallenges.sessionId, ownSessions)),
    db.delete(sessions).where(eq(sessions.userId, id)),
    // Every session of theirs is in the pass feed now by its hash; the feed's rows naming them are no longer needed.
    db.delete(passRevocations).where(eq(passRevocations.userId, id)),
    db.delete(userDevices).where(eq(userDevices.userId, id)),
    db.delete(users).where(eq(users.id, id)),
    // A count of deletions, naming nobody.
    db.insert(auditLog).values({ id: newId(), action: "account.deleted" }),
  ];
}

/** Runs the deletion, one statement after another. */
export async function deleteAccountRows(db: Db, user: { id: string; phone: string | null }, dmRooms: string[]): Promise<void> {
  for (const step of accountDeletionSteps(db, user, dmRooms)) await step;
}
