import { count, eq, gt, gte, like, ne, sql, sum } from "drizzle-orm";
import { EXAMPLE_PRICE_SOURCE } from "../../core/admin-schemas";
import type { AssistantUsageStats } from "../../core/assistant-models";
import type { Db } from "../index";
import {
  analyticsHourly,
  emergencyBroadcasts,
  marketPrices,
  pointEvents,
  roomActivity,
  roomPresence,
  rooms,
  sessions,
  usageDaily,
  users,
} from "../schema";

/** Live figures for public screens: never invented numbers (docs/product/README.md), never bare sessions (issue 11). */
export async function publicStats(db: Db, now = Date.now()) {
  const dayAgo = new Date(now - 24 * 3600 * 1000);
  const [u, m, c, r, e, markets] = await Promise.all([
    // People who did something: verified a phone or reached us by WhatsApp/USSD, sent a message (each sender
    // has a day's message row in the rewards ledger), sent an SOS or used the assistant. A bare anonymous
    // session (a bot, a visit) is not a person on LinkUp.
    db
      .select({ n: count() })
      .from(users)
      .where(
        sql`${users.id} in (
          select ${users.id} from ${users} where ${users.authMode} = 'verified' or ${users.phone} is not null
          union select ${pointEvents.userId} from ${pointEvents} where ${pointEvents.kind} = 'message'
          union select ${emergencyBroadcasts.userId} from ${emergencyBroadcasts}
          union select ${usageDaily.userId} from ${usageDaily}
            where ${usageDaily.aiCommands} + ${usageDaily.translations} + ${usageDaily.messagesCount} + ${usageDaily.voiceMessages} > 0
        )`,
      )
      .get(),
    // People's messages in the hours since a day ago, and the sockets open at the rooms' last batches
    // (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
    db
      .select({ n: sum(analyticsHourly.count) })
      .from(analyticsHourly)
      .where(sql`${analyticsHourly.hour} >= ${dayAgo.toISOString().slice(0, 13)} and ${like(analyticsHourly.kind, "message.%")}`)
      .get(),
    db
      .select({ n: sum(roomPresence.sockets) })
      .from(roomPresence)
      .get(),
    db.select({ n: count() }).from(rooms).where(eq(rooms.kind, "nearby")).get(),
    db.select({ n: count() }).from(emergencyBroadcasts).get(),
    db
      .select({ n: sql<number>`count(distinct ${marketPrices.city})` })
      .from(marketPrices)
      // A city with only example figures has no price anyone observed (docs/decisions/060-every-claim-true.md).
      .where(ne(marketPrices.source, EXAMPLE_PRICE_SOURCE))
      .get(),
  ]);
  return {
    users: u?.n ?? 0,
    messagesToday: Number(m?.n ?? 0),
    activeConnections: Number(c?.n ?? 0),
    areaRooms: r?.n ?? 0,
    emergencyBroadcasts: e?.n ?? 0,
    marketCities: Number(markets?.n ?? 0),
  };
}

/** Assistant use from usage_daily (answered commands only, docs/decisions/016): all time and the last 7 UTC days. */
export async function assistantUsage(db: Db, now = Date.now()): Promise<AssistantUsageStats> {
  const since = new Date(now - 6 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const totals = (where?: ReturnType<typeof gte>) =>
    db
      .select({
        aiCommands: sql<number>`coalesce(sum(${usageDaily.aiCommands}), 0)`,
        translations: sql<number>`coalesce(sum(${usageDaily.translations}), 0)`,
        voiceMessages: sql<number>`coalesce(sum(${usageDaily.voiceMessages}), 0)`,
      })
      .from(usageDaily)
      .where(where)
      .get();
  const [all, week] = await Promise.all([totals(), totals(gte(usageDaily.date, since))]);
  const shape = (r: typeof all) => ({
    aiCommands: Number(r?.aiCommands ?? 0),
    translations: Number(r?.translations ?? 0),
    voiceMessages: Number(r?.voiceMessages ?? 0),
  });
  return { allTime: shape(all), lastSevenDays: shape(week) };
}

/** The staff dashboard's counts (/database-admin): people, live sessions, messages, connections, SOS and plans. */
export async function adminCounts(db: Db, now = Date.now()) {
  const since = new Date(now - 24 * 3600 * 1000);
  const n = (q: Promise<{ n: number | string | null } | undefined>) => q.then((r) => Number(r?.n ?? 0));
  const [totalUsers, activeUsers, totalMessages, meshConnectionsOpen, sosLastDay, premiumUsers, enterpriseUsers] = await Promise.all([
    n(db.select({ n: count() }).from(users).get()),
    n(
      db
        .select({ n: sql<number>`count(distinct ${sessions.userId})` })
        .from(sessions)
        .where(gt(sessions.expiresAt, new Date(now)))
        .get(),
    ),
    n(
      db
        .select({ n: sum(roomActivity.messages) })
        .from(roomActivity)
        .get(),
    ),
    n(
      db
        .select({ n: sum(roomPresence.sockets) })
        .from(roomPresence)
        .get(),
    ),
    n(db.select({ n: count() }).from(emergencyBroadcasts).where(gt(emergencyBroadcasts.broadcastedAt, since)).get()),
    n(db.select({ n: count() }).from(users).where(eq(users.subscriptionTier, "premium")).get()),
    n(db.select({ n: count() }).from(users).where(eq(users.subscriptionTier, "enterprise")).get()),
  ]);
  return {
    totalUsers,
    activeUsers,
    totalMessages,
    meshConnections: meshConnectionsOpen,
    emergencyBroadcasts: sosLastDay,
    premiumUsers,
    enterpriseUsers,
  };
}
