import { count, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../index";
import { emergencyBroadcasts, marketPrices, meshConnections, messages, rooms, users } from "../schema";

/** Live figures for public screens: never invented numbers (spec README). */
export async function publicStats(db: Db, now = Date.now()) {
  const dayAgo = new Date(now - 24 * 3600 * 1000);
  const [u, m, c, r, e, markets] = await Promise.all([
    db.select({ n: count() }).from(users).get(),
    db.select({ n: count() }).from(messages).where(gt(messages.sentAt, dayAgo)).get(),
    db.select({ n: count() }).from(meshConnections).where(eq(meshConnections.isActive, true)).get(),
    db.select({ n: count() }).from(rooms).where(eq(rooms.kind, "nearby")).get(),
    db.select({ n: count() }).from(emergencyBroadcasts).get(),
    db
      .select({ n: sql<number>`count(distinct ${marketPrices.city})` })
      .from(marketPrices)
      .get(),
  ]);
  return {
    users: u?.n ?? 0,
    messagesToday: m?.n ?? 0,
    activeConnections: c?.n ?? 0,
    areaRooms: r?.n ?? 0,
    emergencyBroadcasts: e?.n ?? 0,
    marketCities: Number(markets?.n ?? 0),
  };
}
