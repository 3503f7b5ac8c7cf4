// A phone's state on USSD, WhatsApp and SMS: opted out or in, its language, its last place, a pending SOS.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../index";
import { phoneChannels } from "../schema";

export type PhoneChannelRow = typeof phoneChannels.$inferSelect;
export type PhoneChannelPatch = Partial<
  Pick<typeof phoneChannels.$inferInsert, "optedOut" | "language" | "latitude" | "longitude" | "locationText" | "pendingSos">
>;

export function findPhoneChannel(db: Db, phone: string): Promise<PhoneChannelRow | undefined> {
  return db.select().from(phoneChannels).where(eq(phoneChannels.phone, phone)).get();
}

/** Creates the phone's row or changes the fields given. */
export async function upsertPhoneChannel(db: Db, phone: string, patch: PhoneChannelPatch): Promise<void> {
  await db
    .insert(phoneChannels)
    .values({ phone, ...patch })
    .onConflictDoUpdate({ target: phoneChannels.phone, set: { ...patch, updatedAt: sql`(unixepoch() * 1000)` } });
}
