// SOS broadcasts, emergency contacts, and who is in an area.
import { and, asc, between, count, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { emergencyBroadcasts, emergencyContacts, sosDeliveries, sosResponses, users } from "../schema";

export type BroadcastRow = typeof emergencyBroadcasts.$inferSelect;

/** Inserts unless this user already sent this client request id; answers the row and whether it is new. */
export async function insertBroadcastOnce(
  db: Db,
  values: Omit<typeof emergencyBroadcasts.$inferInsert, "id">,
): Promise<{ row: BroadcastRow; created: boolean }> {
  const inserted = await db
    .insert(emergencyBroadcasts)
    .values({ id: newId(), ...values })
    .onConflictDoNothing({ target: [emergencyBroadcasts.userId, emergencyBroadcasts.clientRequestId] })
    .returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const existing = await db
    .select()
    .from(emergencyBroadcasts)
    .where(and(eq(emergencyBroadcasts.userId, values.userId), eq(emergencyBroadcasts.clientRequestId, values.clientRequestId)))
    .get();
  if (!existing) throw new Error("broadcast vanished between insert and select");
  return { row: existing, created: false };
}

export interface BroadcastLimits {
  /** The start of the window (an hour ago). */
  since: Date;
  /** SOS one person may send in the window. */
  perPerson: number;
  /** A sender without a verified phone on the web: the HMAC of their address and what it may send in the window. */
  address: { key: string; limit: number } | null;
  /** An SOS that alerts an area far from the sender's known place: how many such the person may send. */
  farLimit: number | null;
}

export type LimitedInsert = { row: BroadcastRow; created: boolean } | { refused: true; retryAfterSeconds: number };

/**
 * Inserts the broadcast only while the sender is under every limit, in one statement: SQLite runs it alone, so
 * 100 parallel requests insert exactly the limit (docs/decisions/047-limits-taken-atomically.md). An earlier row
 * with this clientRequestId (a replay) is answered and spends nothing. Refused: seconds until the oldest SOS that
 * fills the refusing window leaves it.
 */
export async function insertBroadcastWithinLimits(
  db: Db,
  values: {
    userId: string;
    clientRequestId: string;
    channel: "web" | "ussd" | "whatsapp";
    emergencyType: string;
    message: string;
    latitude: number | null;
    longitude: number | null;
    locationText: string | null;
    geohash: string | null;
    farArea: boolean;
  },
  limits: BroadcastLimits,
  now = new Date(),
): Promise<LimitedInsert> {
  const id = newId();
  const since = limits.since.getTime();
  const addressKey = limits.address?.key ?? null;
  const v = values;
  await db.run(sql`
    insert into emergency_broadcasts (id, user_id, client_request_id, channel, emergency_type, message, latitude, longitude,
      location_text, geohash, address_key, far_area, broadcasted_at)
    select ${id}, ${v.userId}, ${v.clientRequestId}, ${v.channel}, ${v.emergencyType}, ${v.message}, ${v.latitude}, ${v.longitude},
      ${v.locationText}, ${v.geohash}, ${addressKey}, ${v.farArea ? 1 : 0}, ${now.getTime()}
    where (select count(*) from emergency_broadcasts where user_id = ${v.userId} and broadcasted_at >= ${since}) < ${limits.perPerson}
      and (${addressKey} is null or (select count(*) from emergency_broadcasts
        where address_key = ${addressKey} and broadcasted_at >= ${since}) < ${limits.address?.limit ?? 0})
      and (${v.farArea ? 0 : 1} = 1 or (select count(*) from emergency_broadcasts
        where user_id = ${v.userId} and far_area = 1 and broadcasted_at >= ${since}) < ${limits.farLimit ?? 0})
    on conflict (user_id, client_request_id) do nothing`);
  const row = await findBroadcastByRequest(db, v.userId, v.clientRequestId);
  if (row) return { row, created: row.id === id };
  // Refused: the window that is full frees a place when its oldest SOS turns an hour old.
  const window = (where: ReturnType<typeof eq>) =>
    db
      .select({ n: count(), oldest: sql<number | null>`min(${emergencyBroadcasts.broadcastedAt})` })
      .from(emergencyBroadcasts)
      .where(and(where, gte(emergencyBroadcasts.broadcastedAt, limits.since)))
      .get();
  const person = await window(eq(emergencyBroadcasts.userId, v.userId));
  const address = addressKey ? await window(eq(emergencyBroadcasts.addressKey, addressKey)) : undefined;
  const full = Number(person?.n ?? 0) >= limits.perPerson ? person : address;
  const oldest = Number(full?.oldest ?? now.getTime());
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + (now.getTime() - since) - now.getTime()) / 1000));
  return { refused: true, retryAfterSeconds };
}

export async function findBroadcastByRequest(db: Db, userId: string, clientRequestId: string): Promise<BroadcastRow | undefined> {
  return db
    .select()
    .from(emergencyBroadcasts)
    .where(and(eq(emergencyBroadcasts.userId, userId), eq(emergencyBroadcasts.clientRequestId, clientRequestId)))
    .get();
}

export async function setReached(db: Db, id: string, reached: Record<string, unknown>) {
  await db.update(emergencyBroadcasts).set({ reached }).where(eq(emergencyBroadcasts.id, id));
}

export async function findBroadcast(db: Db, id: string): Promise<BroadcastRow | undefined> {
  return db.select().from(emergencyBroadcasts).where(eq(emergencyBroadcasts.id, id)).get();
}

export async function resolveBroadcast(db: Db, id: string, by: string): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .update(emergencyBroadcasts)
    .set({ status: "resolved", resolvedAt: new Date(), resolvedBy: by })
    .where(eq(emergencyBroadcasts.id, id))
    .returning();
  return row;
}

/**
 * Active broadcasts since `since` inside a lat/lon box, in the same area cell, or sent by the user
 * (so they can always see and resolve their own).
 */
export async function activeBroadcastsNear(
  db: Db,
  opts: {
    userId: string;
    geohash: string | null;
    box: { minLat: number; maxLat: number; minLon: number; maxLon: number } | null;
    since: Date;
  },
) {
  const place = [eq(emergencyBroadcasts.userId, opts.userId)];
  if (opts.geohash) place.push(eq(emergencyBroadcasts.geohash, opts.geohash));
  if (opts.box) {
    const inBox = and(
      between(emergencyBroadcasts.latitude, opts.box.minLat, opts.box.maxLat),
      between(emergencyBroadcasts.longitude, opts.box.minLon, opts.box.maxLon),
    );
    if (inBox) place.push(inBox);
  }
  return db
    .select({ broadcast: emergencyBroadcasts, senderName: users.nickname, senderAnonymous: users.anonymousMode })
    .from(emergencyBroadcasts)
    .innerJoin(users, eq(users.id, emergencyBroadcasts.userId))
    .where(and(eq(emergencyBroadcasts.status, "active"), gte(emergencyBroadcasts.broadcastedAt, opts.since), or(...place)))
    .orderBy(desc(emergencyBroadcasts.broadcastedAt))
    .limit(50);
}

export async function countUsersInArea(db: Db, geohash: string): Promise<number> {
  const row = await db.select({ n: count() }).from(users).where(eq(users.geohash, geohash)).get();
  return Number(row?.n ?? 0);
}

/** LinkUp users who own these phones (verified phones are unique on users). */
export async function userIdsByPhones(db: Db, phones: string[]): Promise<string[]> {
  if (phones.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.phone, phones.slice(0, 90)));
  return rows.map((r) => r.id);
}

// Emergency contacts.
export type ContactRow = typeof emergencyContacts.$inferSelect;

export async function listContacts(db: Db, userId: string): Promise<ContactRow[]> {
  return db.select().from(emergencyContacts).where(eq(emergencyContacts.userId, userId)).orderBy(asc(emergencyContacts.createdAt));
}

export async function countContacts(db: Db, userId: string): Promise<number> {
  const row = await db.select({ n: count() }).from(emergencyContacts).where(eq(emergencyContacts.userId, userId)).get();
  return Number(row?.n ?? 0);
}

export async function insertContact(db: Db, userId: string, values: { name: string; phone: string }): Promise<ContactRow> {
  const [row] = await db
    .insert(emergencyContacts)
    .values({ id: newId(), userId, ...values })
    .returning();
  return row;
}

export async function updateContact(db: Db, userId: string, id: string, values: { name: string; phone: string }) {
  const [row] = await db
    .update(emergencyContacts)
    .set(values)
    .where(and(eq(emergencyContacts.id, id), eq(emergencyContacts.userId, userId)))
    .returning();
  return row;
}

export async function deleteContact(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(emergencyContacts)
    .where(and(eq(emergencyContacts.id, id), eq(emergencyContacts.userId, userId)))
    .returning({ id: emergencyContacts.id });
  return rows.length > 0;
}

/** Records that a person answered an SOS; false when they already had. */
export async function insertSosResponse(db: Db, sosId: string, userId: string): Promise<boolean> {
  const rows = await db.insert(sosResponses).values({ sosId, userId }).onConflictDoNothing().returning({ userId: sosResponses.userId });
  return rows.length > 0;
}

/** Notes the client address (an HMAC) an SOS was sent from, or an answer came from, when not noted yet. */
export async function noteSosAddress(db: Db, at: { sosId: string; responderId?: string }, addressHash: string): Promise<void> {
  if (at.responderId) {
    await db
      .update(sosResponses)
      .set({ addressHash })
      .where(and(eq(sosResponses.sosId, at.sosId), eq(sosResponses.userId, at.responderId), isNull(sosResponses.addressHash)));
  } else {
    await db
      .update(emergencyBroadcasts)
      .set({ addressHash })
      .where(and(eq(emergencyBroadcasts.id, at.sosId), isNull(emergencyBroadcasts.addressHash)));
  }
}

/** The answers to an SOS with the address each came from (null: not known, e.g. before it was noted). */
export function sosResponsesOf(db: Db, sosId: string) {
  return db
    .select({ userId: sosResponses.userId, addressHash: sosResponses.addressHash })
    .from(sosResponses)
    .where(eq(sosResponses.sosId, sosId))
    .all();
}

export async function sosResponders(db: Db, sosId: string): Promise<string[]> {
  const rows = await db.select({ userId: sosResponses.userId }).from(sosResponses).where(eq(sosResponses.sosId, sosId)).all();
  return rows.map((r) => r.userId);
}

export type SosDeliveryStatus = (typeof sosDeliveries.$inferSelect)["status"];

/** How many people an SOS's fan-out reached, by outcome ("sending" only while claims are held, decision 054). */
export async function countDeliveries(
  db: Db,
  broadcastId: string,
): Promise<Record<Exclude<SosDeliveryStatus, "sending">, number> & { sending?: number }> {
  const rows = await db
    .select({ status: sosDeliveries.status, n: count() })
    .from(sosDeliveries)
    .where(eq(sosDeliveries.broadcastId, broadcastId))
    .groupBy(sosDeliveries.status);
  const out: Record<Exclude<SosDeliveryStatus, "sending">, number> & { sending?: number } = { pushed: 0, stored: 0, off: 0, failed: 0 };
  for (const r of rows) out[r.status] = r.n;
  return out;
}

/** Active broadcasts per sender, for the users named. */
export async function countActiveSosByUser(db: Db, userIds: string[]): Promise<{ userId: string; n: number }[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: emergencyBroadcasts.userId, n: count() })
    .from(emergencyBroadcasts)
    .where(and(inArray(emergencyBroadcasts.userId, userIds), eq(emergencyBroadcasts.status, "active")))
    .groupBy(emergencyBroadcasts.userId);
}

/** Every active broadcast with its sender's nickname, newest first (the staff desk). */
export function activeBroadcastsWithSender(db: Db, limit: number) {
  return db
    .select({ sos: emergencyBroadcasts, nickname: users.nickname })
    .from(emergencyBroadcasts)
    .innerJoin(users, eq(users.id, emergencyBroadcasts.userId))
    .where(eq(emergencyBroadcasts.status, "active"))
    .orderBy(desc(emergencyBroadcasts.broadcastedAt))
    .limit(limit);
}
