// The staff view of support call-back requests.
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../index";
import { supportTickets, users } from "../schema";

/**
 * Open tickets for staff, Premium and Enterprise people first (the priority queue sold with Premium), then
 * oldest first. A ticket left by phone only is matched to the account that owns the phone.
 */
export function staffSupportQueue(db: Db, limit = 100) {
  // A report names the person reported: staff open their desk entry from the ticket.
  const subject = alias(users, "subject");
  const paid = sql<number>`case when ${users.subscriptionTier} in ('premium', 'enterprise') then 1 else 0 end`;
  return db
    .select({
      id: supportTickets.id,
      phone: supportTickets.phone,
      message: supportTickets.message,
      category: supportTickets.category,
      createdAt: supportTickets.createdAt,
      userId: users.id,
      nickname: users.nickname,
      tier: users.subscriptionTier,
      priority: paid,
      subjectId: subject.id,
      subjectNickname: subject.nickname,
    })
    .from(supportTickets)
    .leftJoin(users, or(eq(users.id, supportTickets.userId), and(isNull(supportTickets.userId), eq(users.phone, supportTickets.phone))))
    .leftJoin(subject, eq(subject.id, supportTickets.subjectId))
    .where(eq(supportTickets.status, "open"))
    .orderBy(sql`${paid} desc`, asc(supportTickets.createdAt))
    .limit(limit);
}
