// Enterprise teams: organisations, their members and invitations (docs/decisions/067-enterprise-teams.md).
import { and, asc, count, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../index";
import { orgInvites, orgMembers, orgs, roomMembers, rooms, users } from "../schema";

export type OrgRow = typeof orgs.$inferSelect;
export type OrgRole = (typeof orgMembers.$inferSelect)["role"];

const owner = alias(users, "org_owner");

/** The person's organisation with their role and the owner's tier (whose Enterprise the seats hang on). */
export function teamOf(db: Db, userId: string) {
  return db
    .select({
      org: orgs,
      role: orgMembers.role,
      ownerTier: owner.subscriptionTier,
      ownerTierExpiresAt: owner.tierExpiresAt,
    })
    .from(orgMembers)
    .innerJoin(orgs, eq(orgs.id, orgMembers.orgId))
    .innerJoin(owner, eq(owner.id, orgs.ownerId))
    .where(eq(orgMembers.userId, userId))
    .get();
}

export function teamMembers(db: Db, orgId: string) {
  return db
    .select({
      userId: orgMembers.userId,
      role: orgMembers.role,
      joinedAt: orgMembers.joinedAt,
      nickname: users.nickname,
      phone: users.phone,
      anonymousMode: users.anonymousMode,
    })
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.userId))
    .where(eq(orgMembers.orgId, orgId))
    .orderBy(asc(orgMembers.joinedAt), asc(orgMembers.userId))
    .all();
}

/** Invitations not used and not expired: each holds a seat until it is used or runs out. */
export function openInvites(db: Db, orgId: string, now: Date) {
  return db
    .select({ id: orgInvites.id, phone: orgInvites.phone, createdAt: orgInvites.createdAt, expiresAt: orgInvites.expiresAt })
    .from(orgInvites)
    .where(and(eq(orgInvites.orgId, orgId), isNull(orgInvites.usedAt), gt(orgInvites.expiresAt, now)))
    .orderBy(asc(orgInvites.createdAt))
    .all();
}

/** A new organisation: the team room, the organisation, the owner's seat and the owner in the room, in one batch. */
export async function insertTeam(db: Db, input: { id: string; ownerId: string; name: string; roomId: string }): Promise<void> {
  await (db as unknown as { batch: (q: readonly unknown[]) => Promise<unknown> }).batch([
    db.insert(rooms).values({ id: input.roomId, kind: "group", name: input.name, createdBy: input.ownerId }),
    db.insert(orgs).values({ id: input.id, ownerId: input.ownerId, name: input.name, roomId: input.roomId }),
    db.insert(orgMembers).values({ orgId: input.id, userId: input.ownerId, role: "owner" }),
    db.insert(roomMembers).values({ roomId: input.roomId, userId: input.ownerId, role: "owner" }),
  ]);
}

export async function updateTeam(
  db: Db,
  orgId: string,
  patch: Partial<Pick<OrgRow, "name" | "invitePolicy" | "seatFeatures" | "language" | "retention">>,
) {
  await db.update(orgs).set(patch).where(eq(orgs.id, orgId));
}

/** The team room is named after the team: a rename renames it too. */
export async function renameTeamRoom(db: Db, roomId: string, name: string) {
  await db.update(rooms).set({ name }).where(eq(rooms.id, roomId));
}

/**
 * Takes a seat: inserts the member only while the organisation has fewer than `seats` members, in the one statement,
 * so two people joining at once cannot both take the last seat. Answers whether the seat was taken.
 */
export async function takeSeat(db: Db, orgId: string, userId: string, seats: number, now: Date): Promise<boolean> {
  const rows = await db.all(
    sql`INSERT INTO org_members (org_id, user_id, role, joined_at)
        SELECT ${orgId}, ${userId}, 'member', ${now.getTime()}
        WHERE (SELECT count(*) FROM org_members WHERE org_id = ${orgId}) < ${seats}
        ON CONFLICT DO NOTHING RETURNING user_id`,
  );
  return rows.length === 1;
}

export async function removeSeat(db: Db, orgId: string, userId: string) {
  await db.delete(orgMembers).where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)));
}

export async function setTeamRole(db: Db, orgId: string, userId: string, role: "admin" | "member") {
  await db
    .update(orgMembers)
    .set({ role })
    .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId), sql`${orgMembers.role} <> 'owner'`));
}

/**
 * Invitations used, withdrawn or expired are dropped a day after they were made, when the organisation makes its next
 * one: the table holds at most a day's invitations (INVITES_PER_DAY) and the open ones per organisation.
 */
export async function pruneInvites(db: Db, orgId: string, now: Date) {
  await db
    .delete(orgInvites)
    .where(
      and(
        eq(orgInvites.orgId, orgId),
        lte(orgInvites.createdAt, new Date(now.getTime() - 86_400_000)),
        or(sql`${orgInvites.usedAt} IS NOT NULL`, lte(orgInvites.expiresAt, now)),
      ),
    );
}

/** How many invitations the organisation made in the last day (withdrawn ones included). */
export async function invitesMadeSince(db: Db, orgId: string, since: Date): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(orgInvites)
    .where(and(eq(orgInvites.orgId, orgId), gt(orgInvites.createdAt, since)))
    .get();
  return Number(row?.n ?? 0);
}

export async function insertInvite(
  db: Db,
  row: { id: string; orgId: string; codeHash: string; phone: string | null; createdBy: string; expiresAt: Date; createdAt: Date },
) {
  await db.insert(orgInvites).values(row);
}

export function findInvite(db: Db, codeHash: string) {
  return db.select().from(orgInvites).where(eq(orgInvites.codeHash, codeHash)).get();
}

/** Marks an invitation used, once: answers false when it was used or ran out meanwhile. */
export async function claimInvite(db: Db, id: string, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(orgInvites)
    .set({ usedAt: now, usedBy: userId })
    .where(and(eq(orgInvites.id, id), isNull(orgInvites.usedAt), gt(orgInvites.expiresAt, now)))
    .returning({ id: orgInvites.id });
  return rows.length === 1;
}

/** Gives an invitation back (its seat was gone after all). */
export async function releaseInvite(db: Db, id: string) {
  await db.update(orgInvites).set({ usedAt: null, usedBy: null }).where(eq(orgInvites.id, id));
}

/** Withdraws an open invitation: marked used by nobody, so it holds no seat and its code joins no one. */
export async function revokeInvite(db: Db, orgId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(orgInvites)
    .set({ usedAt: now, usedBy: null })
    .where(and(eq(orgInvites.orgId, orgId), eq(orgInvites.id, id), isNull(orgInvites.usedAt)))
    .returning({ id: orgInvites.id });
  return rows.length === 1;
}

/** The organisation whose team room this is, if any. */
export function teamOfRoom(db: Db, roomId: string) {
  return db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(eq(orgs.roomId, roomId)).get();
}

/**
 * May this person enter a group (the socket upgrade and the member list ask): a member of the room, and, for a team
 * room, still a member of its organisation. One statement, as the plain membership check was.
 */
export async function groupAccess(db: Db, roomId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ org: orgs.id, seat: orgMembers.userId })
    .from(roomMembers)
    .leftJoin(orgs, eq(orgs.roomId, roomMembers.roomId))
    .leftJoin(orgMembers, and(eq(orgMembers.orgId, orgs.id), eq(orgMembers.userId, roomMembers.userId)))
    .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)))
    .get();
  return Boolean(row) && (row?.org === null || row?.seat !== null);
}

/** The people holding a seat in the organisation this person owns (their tiers follow the owner's). */
export function seatHoldersOwnedBy(db: Db, ownerId: string) {
  return db
    .select({ userId: orgMembers.userId })
    .from(orgMembers)
    .innerJoin(orgs, eq(orgs.id, orgMembers.orgId))
    .where(and(eq(orgs.ownerId, ownerId), sql`${orgMembers.role} <> 'owner'`))
    .all();
}

/** Verified accounts by phone (who a phone invitation also reaches in their notification centre). */
export function verifiedUserByPhone(db: Db, phone: string) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), eq(users.authMode, "verified")))
    .get();
}

/** Dedicated support: names the staff member who answers the organisation's requests first (or nobody). */
export async function setSupportStaff(db: Db, orgId: string, staffId: string | null): Promise<boolean> {
  const done = await db.update(orgs).set({ supportStaffId: staffId }).where(eq(orgs.id, orgId)).returning({ id: orgs.id });
  return done.length > 0;
}

/** The organisation's dedicated staff member's name, while they are still staff. */
export async function supportStaffOf(db: Db, staffId: string | null): Promise<string | null> {
  if (!staffId) return null;
  const row = await db.select({ nickname: users.nickname, role: users.role }).from(users).where(eq(users.id, staffId)).get();
  return row && row.role !== "user" ? row.nickname : null;
}
