// The retention rules (db/queries/retention.ts, docs/decisions/051-retention.md) on both drivers: each seeds a row
// just past its table's window and one just inside it, and checks the rule removes exactly the first.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { SECURITY_EVENTS_SHOWN } from "../../core/security";
import type { Db } from "../index";
import {
  apiKeys,
  apiKeyUsage,
  addressCounters,
  auditLog,
  emergencyBroadcasts,
  fileParts,
  files,
  roomActivity,
  notifications,
  outboundMessages,
  roomMembers,
  rooms,
  securityEvents,
  sessions,
  sosDeliveries,
  stripeEvents,
  verifications,
  webauthnChallenges,
} from "../schema";
import {
  pruneAddressCounters,
  pruneApiKeyUsage,
  pruneAuditLog,
  pruneGoneRoomActivity,
  pruneNotifications,
  pruneOutbound,
  pruneSecurityEvents,
  pruneSessions,
  pruneSosDeliveries,
  pruneStripeEvents,
  pruneUnfinishedUploads,
  pruneVerifications,
  pruneWebauthnChallenges,
  CRON_INTERVAL_MS,
  OLD_SLICES,
  RETENTION,
  type RetentionOptions,
} from "./retention";
import { listUserRooms } from "./rooms";
import { createUser } from "./users";

const MIN = 60_000;
const now = Date.parse("2026-11-20T12:00:00Z");
/** Just past a window, and just inside it. */
const past = (ms: number) => new Date(now - ms - MIN);
const inside = (ms: number) => new Date(now - ms + MIN);

/** The runs of one day, every 15 minutes back from `now`: each looks through a different span of older time. */
async function overADay(rule: (db: Db, o: RetentionOptions) => Promise<number>, db: Db): Promise<number> {
  let n = 0;
  for (let k = 0; k < OLD_SLICES; k++) n += await rule(db, { now: now - k * CRON_INTERVAL_MS });
  return n;
}

export function retentionQuerySuite(driver: string, getDb: () => Db) {
  describe(`retention rules on ${driver}`, () => {
    it("keeps one activity row per room, and drops it a day after its room is gone", async () => {
      const db = getDb();
      const kept = `group:${newId()}`;
      const gone = `group:${newId()}`;
      const goneRecently = `group:${newId()}`;
      await db.insert(rooms).values({ id: kept, kind: "group", name: "kept" });
      await db.insert(roomActivity).values([
        { roomId: kept, lastMessageAt: new Date(now - 90 * 86_400_000), messages: 3, updatedAt: new Date(now - 90 * 86_400_000) },
        { roomId: gone, messages: 1, updatedAt: past(RETENTION.goneRoomActivityMs) },
        { roomId: goneRecently, messages: 1, updatedAt: inside(RETENTION.goneRoomActivityMs) },
      ]);
      await pruneGoneRoomActivity(db, { now });
      const left = await db
        .select({ id: roomActivity.roomId })
        .from(roomActivity)
        .where(inArray(roomActivity.roomId, [kept, gone, goneRecently]));
      expect(left.map((r) => r.id).sort()).toEqual([kept, goneRecently].sort());
    });

    it("orders the room list by each room's last message, however long ago", async () => {
      const db = getDb();
      const u = await createUser(db);
      const older = `group:${newId()}`;
      const newer = `group:${newId()}`;
      await db.insert(rooms).values([
        { id: older, kind: "group", name: "older" },
        { id: newer, kind: "group", name: "newer" },
      ]);
      // Joined the quiet-now room last, but its last message is older than the other room's.
      await db.insert(roomMembers).values([
        { roomId: newer, userId: u.id, joinedAt: new Date(now - 30 * 86_400_000) },
        { roomId: older, userId: u.id, joinedAt: new Date(now - 20 * 86_400_000) },
      ]);
      await db.insert(roomActivity).values([
        { roomId: newer, lastMessageAt: new Date(now - 40 * 86_400_000), messages: 2 },
        { roomId: older, lastMessageAt: new Date(now - 60 * 86_400_000), messages: 1 },
      ]);
      await overADay(pruneGoneRoomActivity, db);
      expect((await listUserRooms(db, u.id)).map((r) => r.id)).toEqual([newer, older]);
    });

    it("drops verification codes after a day, sessions a month past expiry and expired WebAuthn challenges", async () => {
      const db = getDb();
      const u = await createUser(db);
      const code = (createdAt: Date) => ({
        id: newId(),
        phone: "+2348030000000",
        userId: u.id,
        codeHash: "h",
        channel: "sms" as const,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + 10 * MIN),
      });
      const oldCode = code(past(RETENTION.verificationsMs));
      const dayCode = code(inside(RETENTION.verificationsMs));
      await db.insert(verifications).values([oldCode, dayCode]);

      const session = (expiresAt: Date) => ({ id: newId(), userId: u.id, expiresAt });
      const longExpired = session(past(RETENTION.expiredSessionsMs));
      const recentlyExpired = session(inside(RETENTION.expiredSessionsMs));
      const live = session(new Date(now + 86_400_000));
      await db.insert(sessions).values([longExpired, recentlyExpired, live]);
      await db.insert(webauthnChallenges).values([
        { sessionId: recentlyExpired.id, purpose: "register", challenge: "c1", expiresAt: new Date(now - MIN) },
        { sessionId: live.id, purpose: "register", challenge: "c2", expiresAt: new Date(now + 4 * MIN) },
      ]);

      await pruneVerifications(db, { now });
      await pruneSessions(db, { now });
      await pruneWebauthnChallenges(db, { now });
      const codes = await db.select({ id: verifications.id }).from(verifications).where(eq(verifications.userId, u.id));
      expect(codes.map((r) => r.id)).toEqual([dayCode.id]);
      const left = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, u.id));
      expect(left.map((r) => r.id).sort()).toEqual([recentlyExpired.id, live.id].sort());
      const challenges = await db
        .select({ sessionId: webauthnChallenges.sessionId })
        .from(webauthnChallenges)
        .where(inArray(webauthnChallenges.sessionId, [recentlyExpired.id, live.id]));
      expect(challenges).toEqual([{ sessionId: live.id }]);
    });

    it("drops ended address windows, old Stripe event ids, outbound messages and audit entries", async () => {
      const db = getDb();
      const key = newId();
      await db.insert(addressCounters).values([
        { key, window: "ended", count: 3, expiresAt: new Date(now - MIN) },
        { key, window: "open", count: 3, expiresAt: new Date(now + MIN) },
      ]);
      const [evOld, evKept] = [`evt_${newId()}`, `evt_${newId()}`];
      await db.insert(stripeEvents).values([
        { id: evOld, type: "invoice.paid", receivedAt: past(RETENTION.stripeEventsMs) },
        { id: evKept, type: "invoice.paid", receivedAt: inside(RETENTION.stripeEventsMs) },
      ]);
      const to = `+23480${Math.floor(Math.random() * 1e8)}`;
      const outOld = {
        id: newId(),
        to,
        channel: "sms" as const,
        body: "old",
        status: "sent" as const,
        createdAt: past(RETENTION.outboundMs),
      };
      const outKept = {
        id: newId(),
        to,
        channel: "sms" as const,
        body: "new",
        status: "sent" as const,
        createdAt: inside(RETENTION.outboundMs),
      };
      await db.insert(outboundMessages).values([outOld, outKept]);
      const target = newId();
      const auditOld = { id: newId(), action: "grant", target, createdAt: past(RETENTION.auditLogMs) };
      const auditKept = { id: newId(), action: "grant", target, createdAt: inside(RETENTION.auditLogMs) };
      await db.insert(auditLog).values([auditOld, auditKept]);

      await pruneAddressCounters(db, { now });
      await pruneStripeEvents(db, { now });
      await pruneOutbound(db, { now });
      await pruneAuditLog(db, { now });
      expect((await db.select().from(addressCounters).where(eq(addressCounters.key, key))).map((r) => r.window)).toEqual(["open"]);
      const events = await db
        .select({ id: stripeEvents.id })
        .from(stripeEvents)
        .where(inArray(stripeEvents.id, [evOld, evKept]));
      expect(events).toEqual([{ id: evKept }]);
      expect(
        (await db.select({ id: outboundMessages.id }).from(outboundMessages).where(eq(outboundMessages.to, to))).map((r) => r.id),
      ).toEqual([outKept.id]);
      expect((await db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.target, target))).map((r) => r.id)).toEqual([
        auditKept.id,
      ]);
    });

    it("drops an old SOS's delivery outcomes, notifications (read after 30 days, any after 90) and security events past 180 days but the newest shown", async () => {
      const db = getDb();
      const u = await createUser(db);
      const sos = (broadcastedAt: Date) => ({
        id: newId(),
        userId: u.id,
        clientRequestId: newId(),
        channel: "web" as const,
        emergencyType: "medical",
        message: "help",
        broadcastedAt,
      });
      const oldSos = sos(past(RETENTION.sosDeliveriesMs));
      const recentSos = sos(inside(RETENTION.sosDeliveriesMs));
      await db.insert(emergencyBroadcasts).values([oldSos, recentSos]);
      await db.insert(sosDeliveries).values([
        { broadcastId: oldSos.id, userId: u.id, status: "pushed", updatedAt: new Date(oldSos.broadcastedAt) },
        { broadcastId: recentSos.id, userId: u.id, status: "pushed", updatedAt: new Date(recentSos.broadcastedAt) },
      ]);
      const note = (createdAt: Date, isRead: boolean) => ({
        id: newId(),
        userId: u.id,
        type: "system" as const,
        title: "t",
        content: "c",
        createdAt,
        isRead,
      });
      const readOld = note(past(RETENTION.readNotificationsMs), true);
      const unreadMonth = note(past(RETENTION.readNotificationsMs), false);
      const readRecent = note(inside(RETENTION.readNotificationsMs), true);
      const unreadOld = note(past(RETENTION.notificationsMs), false);
      await db.insert(notifications).values([readOld, unreadMonth, readRecent, unreadOld]);
      const event = (createdAt: Date) => ({
        id: newId(),
        userId: u.id,
        kind: "sign_in",
        type: "login" as const,
        severity: "low" as const,
        message: "m",
        createdAt,
      });
      // Six old events and one recent: the recent one and the three newest old ones are what the person is shown.
      const olds = Array.from({ length: 6 }, (_, i) => event(new Date(past(RETENTION.securityEventsMs).getTime() - i * MIN)));
      const evKept = event(inside(RETENTION.securityEventsMs));
      await db.insert(securityEvents).values([...olds, evKept]);
      const quiet = await createUser(db);
      const quietOld = event(new Date(now - 400 * 86_400_000));
      await db.insert(securityEvents).values({ ...quietOld, userId: quiet.id });

      await pruneSosDeliveries(db, { now });
      await pruneNotifications(db, { now });
      await overADay(pruneSecurityEvents, db);
      const deliveries = await db.select({ b: sosDeliveries.broadcastId }).from(sosDeliveries).where(eq(sosDeliveries.userId, u.id));
      expect(deliveries).toEqual([{ b: recentSos.id }]);
      // The SOS itself stays: it is the record of what happened.
      expect(
        await db.select({ id: emergencyBroadcasts.id }).from(emergencyBroadcasts).where(eq(emergencyBroadcasts.userId, u.id)),
      ).toHaveLength(2);
      const notes = await db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, u.id));
      expect(notes.map((r) => r.id).sort()).toEqual([unreadMonth.id, readRecent.id].sort());
      const events = await db.select({ id: securityEvents.id }).from(securityEvents).where(eq(securityEvents.userId, u.id));
      expect(events.map((r) => r.id).sort()).toEqual([evKept.id, ...olds.slice(0, SECURITY_EVENTS_SHOWN - 1).map((e) => e.id)].sort());
      // Someone with nothing new for over a year still sees their last event.
      const theirs = await db.select({ id: securityEvents.id }).from(securityEvents).where(eq(securityEvents.userId, quiet.id));
      expect(theirs).toEqual([{ id: quietOld.id }]);
    });

    it("drops API call counts after a week and uploads never finished after seven days, with their parts", async () => {
      const db = getDb();
      const u = await createUser(db);
      const keyId = newId();
      await db.insert(apiKeys).values({ id: keyId, userId: u.id, name: "k", hint: "abcd", keyHash: newId() });
      const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
      const oldDay = dayOf(now - RETENTION.apiKeyUsageMs - 86_400_000);
      const keptDay = dayOf(now - RETENTION.apiKeyUsageMs);
      await db.insert(apiKeyUsage).values([
        { keyId, day: oldDay, calls: 4 },
        { keyId, day: keptDay, calls: 2 },
        { keyId, day: dayOf(now), calls: 1 },
      ]);
      const file = (state: "uploading" | "ready", createdAt: Date) => ({
        id: newId(),
        ownerId: u.id,
        name: "f",
        size: 1,
        mime: "application/octet-stream",
        r2Key: newId(),
        state,
        createdAt,
      });
      const abandoned = file("uploading", past(RETENTION.unfinishedUploadsMs));
      const uploading = file("uploading", inside(RETENTION.unfinishedUploadsMs));
      const readyOld = file("ready", new Date(now - 400 * 86_400_000));
      await db.insert(files).values([abandoned, uploading, readyOld]);
      await db.insert(fileParts).values([
        { fileId: abandoned.id, partNumber: 1, etag: "a" },
        { fileId: uploading.id, partNumber: 1, etag: "b" },
      ]);

      await pruneApiKeyUsage(db, { now });
      await pruneUnfinishedUploads(db, { now });
      const days = await db.select({ day: apiKeyUsage.day }).from(apiKeyUsage).where(eq(apiKeyUsage.keyId, keyId));
      expect(days.map((r) => r.day).sort()).toEqual([keptDay, dayOf(now)].sort());
      const left = await db.select({ id: files.id }).from(files).where(eq(files.ownerId, u.id));
      expect(left.map((r) => r.id).sort()).toEqual([uploading.id, readyOld.id].sort());
      const parts = await db
        .select({ fileId: fileParts.fileId })
        .from(fileParts)
        .where(inArray(fileParts.fileId, [abandoned.id, uploading.id]));
      expect(parts).toEqual([{ fileId: uploading.id }]);
    });
  });
}
