import { desc, eq, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { outboundMessages } from "../schema";

export type OutboundChannel = "whatsapp" | "sms";
export type OutboundStatus = "stored" | "queued" | "sent" | "failed";

export async function recordOutbound(db: Db, values: { to: string; channel: OutboundChannel; body: string; status: OutboundStatus }) {
  const [row] = await db
    .insert(outboundMessages)
    .values({ id: newId(), ...values })
    .returning();
  return row;
}

export async function updateOutbound(
  db: Db,
  id: string,
  patch: { status: OutboundStatus; providerId?: string | null; attempts?: number; error?: string | null },
) {
  await db.update(outboundMessages).set(patch).where(eq(outboundMessages.id, id));
}

/** Newest first, as the dev outbox shows them. */
export async function listOutbound(db: Db, limit = 50) {
  return (
    db
      .select({
        id: outboundMessages.id,
        to: outboundMessages.to,
        channel: outboundMessages.channel,
        body: outboundMessages.body,
        status: outboundMessages.status,
        createdAt: outboundMessages.createdAt,
      })
      .from(outboundMessages)
      // rowid breaks ties within one millisecond in insertion order.
      .orderBy(desc(outboundMessages.createdAt), desc(sql`rowid`))
      .limit(limit)
      .all()
  );
}
