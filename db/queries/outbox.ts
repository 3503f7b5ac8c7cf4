import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { outboundMessages } from "../schema";

export type OutboundChannel = "whatsapp" | "sms";
export type OutboundStatus = "stored" | "queued" | "sent" | "failed";

export async function recordOutbound(
  db: Db,
  values: { to: string; channel: OutboundChannel; body: string; status: OutboundStatus },
  id: string = newId(),
) {
  const [row] = await db
    .insert(outboundMessages)
    .values({ id, ...values })
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

/** Whether one of these messages was taken: kept by the dev outbox, or accepted by Twilio. */
export async function outboundDelivered(db: Db, ids: string[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const row = await db
    .select({ id: outboundMessages.id })
    .from(outboundMessages)
    .where(and(inArray(outboundMessages.id, ids), inArray(outboundMessages.status, ["stored", "sent"])))
    .limit(1)
    .get();
  return row !== undefined;
}
