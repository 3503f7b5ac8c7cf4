// The staff view of support call-back requests.
import { and, asc, count, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../index";
import { orgMembers, orgs, supportTickets, users } from "../schema";

/**
 * Open tickets for staff: an Enterprise organisation's people first (its dedicated support,
 * docs/decisions/067-enterprise-teams.md), then Premium and Enterprise people (the priority queue sold with
 * Premium), then oldest first. A ticket left by phone only is matched to the account that owns the phone.
 */
export function staffSupportQueue(db: Db, limit = 100) {
  // A report names the person reported: staff open their desk entry from the ticket.
  const subject = alias(users, "subject");
  const teamOwner = alias(users, "team_owner");
  const supportStaff = alias(users, "support_staff");
  const team = sql<string | null>`case when ${teamOwner.subscriptionTier} = 'enterprise' then ${orgs.name} end`;
  const paid = sql<number>`case when ${teamOwner.subscriptionTier} = 'enterprise' then 2
    when ${users.subscriptionTier} in ('premium', 'enterprise') then 1 else 0 end`;
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
      team,
      orgId: sql<string | null>`case when ${teamOwner.subscriptionTier} = 'enterprise' then ${orgs.id} end`,
      supportStaffId: supportStaff.id,
      supportStaff: supportStaff.nickname,
      subjectId: subject.id,
      subjectNickname: subject.nickname,
    })
    .from(supportTickets)
    .leftJoin(users, or(eq(users.id, supportTickets.userId), and(isNull(supportTickets.userId), eq(users.phone, supportTickets.phone))))
    .leftJoin(subject, eq(subject.id, supportTickets.subjectId))
    .leftJoin(orgMembers, eq(orgMembers.userId, users.id))
    .leftJoin(orgs, eq(orgs.id, orgMembers.orgId))
    .leftJoin(teamOwner, eq(teamOwner.id, orgs.ownerId))
    .leftJoin(supportStaff, and(eq(supportStaff.id, orgs.supportStaffId), inArray(supportStaff.role, ["staff", "admin"])))
    .where(eq(supportTickets.status, "open"))
    .orderBy(sql`${paid} desc`, asc(supportTickets.createdAt))
    .limit(limit);
}

export type TicketRow = typeof supportTickets.$inferSelect;

export function findTicket(db: Db, id: string): Promise<TicketRow | undefined> {
  return db.select().from(supportTickets).where(eq(supportTickets.id, id)).get();
}

export async function setTicketStatus(db: Db, id: string, status: "open" | "closed"): Promise<void> {
  await db.update(supportTickets).set({ status }).where(eq(supportTickets.id, id));
}

export async function insertTicket(
  db: Db,
  row: { id: string; userId: string | null; phone?: string | null; message: string; category: string; subjectId?: string | null },
): Promise<void> {
  await db.insert(supportTickets).values(row);
}

/** Ids of a phone's open tickets created since `since`, newest first. */
export async function openTicketIdsOfPhone(db: Db, phone: string, since: Date): Promise<string[]> {
  const rows = await db
    .select({ id: supportTickets.id })
    .from(supportTickets)
    .where(and(eq(supportTickets.phone, phone), eq(supportTickets.status, "open"), gte(supportTickets.createdAt, since)))
    .orderBy(desc(supportTickets.createdAt))
    .all();
  return rows.map((r) => r.id);
}

/** Open tickets per user, for the users named. */
export async function countOpenTicketsByUser(db: Db, userIds: string[]): Promise<{ userId: string; n: number }[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: supportTickets.userId, n: count() })
    .from(supportTickets)
    .where(and(inArray(supportTickets.userId, userIds), eq(supportTickets.status, "open")))
    .groupBy(supportTickets.userId);
  return rows.flatMap((r) => (r.userId ? [{ userId: r.userId, n: r.n }] : []));
}

/** Staff and admins, by name: whom an admin may name as an organisation's dedicated support. */
export function staffList(db: Db) {
  return db
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(inArray(users.role, ["staff", "admin"]))
    .orderBy(asc(users.nickname))
    .limit(200);
}
