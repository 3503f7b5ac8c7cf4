// Subscriptions, provider customers, processed provider events and trial claims.
import { and, desc, eq, isNull, lte, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { auditLog, billingCustomers, notifications, stripeEvents, subscriptions, trialClaims, users } from "../schema";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;

export function subscriptionsOf(db: Db, userId: string): Promise<SubscriptionRow[]> {
  return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt));
}

export function findByProviderId(db: Db, providerId: string): Promise<SubscriptionRow | undefined> {
  return db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, providerId)).get();
}

export async function insertSubscription(db: Db, values: Omit<NewSubscription, "id">): Promise<SubscriptionRow> {
  const [row] = await db
    .insert(subscriptions)
    .values({ id: newId(), ...values })
    .returning();
  return row;
}

export async function updateSubscription(db: Db, id: string, patch: Partial<NewSubscription>): Promise<SubscriptionRow> {
  const [row] = await db
    .update(subscriptions)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(subscriptions.id, id))
    .returning();
  return row;
}

export async function customerOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)).get();
  return row?.customerId;
}

export async function userOfCustomer(db: Db, customerId: string): Promise<string | undefined> {
  const row = await db.select().from(billingCustomers).where(eq(billingCustomers.customerId, customerId)).get();
  return row?.userId;
}

/** Records the person's customer; when two requests raced, the first one recorded wins. */
export async function saveCustomer(db: Db, userId: string, customerId: string): Promise<string> {
  await db.insert(billingCustomers).values({ userId, customerId }).onConflictDoNothing();
  return (await customerOf(db, userId)) ?? customerId;
}

// One webhook event is claimed and applied in one D1 batch (docs/decisions/055-webhooks-and-files-survive-a-crash.md):
// the builders below return statements unrun, `runBatch` runs them as one transaction.
export type Write = BatchItem<"sqlite">;

/** Runs the statements as one transaction: all of them or none (D1 `batch`, libSQL `batch` in write mode). */
export async function runBatch(db: Db, writes: Write[]): Promise<void> {
  if (writes.length === 0) return;
  await (db as unknown as { batch: (w: [Write, ...Write[]]) => Promise<unknown> }).batch(writes as [Write, ...Write[]]);
}

/** True when the event was claimed (applied) already. */
export async function eventClaimed(db: Db, id: string): Promise<boolean> {
  return Boolean(await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).get());
}

/** The claim of an event: a plain insert, so a second claim fails its batch on the primary key and applies nothing. */
export function claimEventWrite(db: Db, id: string, type: string): Write {
  return db.insert(stripeEvents).values({ id, type });
}

/** True for the primary-key failure of a second claim (a concurrent delivery of the same event won). */
export function isDuplicateClaim(e: unknown): boolean {
  const text = `${e instanceof Error ? e.message : e} ${e instanceof Error && e.cause ? String(e.cause) : ""}`;
  return /UNIQUE constraint failed: stripe_events\.id/i.test(text);
}

export function insertSubscriptionWrite(db: Db, values: NewSubscription & { id: string }): Write {
  return db.insert(subscriptions).values(values);
}

export function updateSubscriptionWrite(db: Db, id: string, patch: Partial<NewSubscription>): Write {
  return db
    .update(subscriptions)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(subscriptions.id, id));
}

export function setUserTierWrite(db: Db, userId: string, tier: "free" | "premium" | "enterprise", expiresAt: Date | null): Write {
  return db.update(users).set({ subscriptionTier: tier, tierExpiresAt: expiresAt, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** A billing notice in the person's notification centre, stored with the change it tells of. */
export function billingNoticeWrite(db: Db, values: { id: string; userId: string; title: string; content: string; url: string }): Write {
  return db.insert(notifications).values({
    ...values,
    type: "system",
    priority: "high",
    source: "billing",
    actionRequired: false,
    createdAt: new Date(),
  });
}

/** True when this phone had no trial yet (and now has one). */
export async function claimTrial(db: Db, phone: string, userId: string): Promise<boolean> {
  const rows = await db.insert(trialClaims).values({ phone, userId }).onConflictDoNothing().returning({ phone: trialClaims.phone });
  return rows.length === 1;
}

export async function trialClaimed(db: Db, phone: string): Promise<boolean> {
  return Boolean(await db.select().from(trialClaims).where(eq(trialClaims.phone, phone)).get());
}

export async function setUserTier(db: Db, userId: string, tier: "free" | "premium" | "enterprise", expiresAt: Date | null) {
  await db.update(users).set({ subscriptionTier: tier, tierExpiresAt: expiresAt, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Users whose tier lapses by the clock at or before `now`. */
export async function usersWithLapsedTier(db: Db, now: Date, limit = 200): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(lte(users.tierExpiresAt, now)).limit(limit);
  return rows.map((r) => r.id);
}

/** Trials ending within `withinMs` whose reminder has not gone out. */
export function trialsToRemind(db: Db, now: Date, withinMs: number, limit = 200): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.source, "trial"),
        eq(subscriptions.status, "trialing"),
        isNull(subscriptions.reminderSentAt),
        lte(subscriptions.trialEndsAt, new Date(now.getTime() + withinMs)),
      ),
    )
    .limit(limit);
}

/** Clock-bounded subscriptions that have ended and whose person was not told yet. */
export function endedWithoutNotice(db: Db, now: Date, limit = 200): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        isNull(subscriptions.endedNoticeAt),
        ne(subscriptions.status, "canceled"),
        sql`(
          (${subscriptions.source} = 'trial' and ${subscriptions.trialEndsAt} <= ${now.getTime()})
          or (${subscriptions.source} = 'complimentary' and ${subscriptions.currentPeriodEnd} <= ${now.getTime()})
          or (${subscriptions.source} = 'stripe' and ${subscriptions.status} = 'past_due' and ${subscriptions.graceEndsAt} <= ${now.getTime()})
        )`,
      ),
    )
    .limit(limit);
}

export async function audit(db: Db, entry: { actorId: string; action: string; target: string; detail: Record<string, unknown> }) {
  await db.insert(auditLog).values({ id: newId(), ...entry });
}
