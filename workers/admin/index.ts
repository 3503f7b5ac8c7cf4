// The staff desk and admin roles (spec part 2, admin dashboard). Every staff or admin action is written to
// audit_log with who, what, when (created_at), and the before and after (docs/decisions/019-staff-and-admins.md).
import { and, count, eq, gt, inArray, like, or } from "drizzle-orm";
import { normalizePhone } from "../../core/phone";
import type { Db } from "../../db";
import { audit } from "../../db/queries/billing";
import { findUserById } from "../../db/queries/users";
import { emergencyBroadcasts, sessions, supportTickets, type User, users } from "../../db/schema";
import { DomainError } from "../../core/domain-error";

/** Records one staff/admin action with the state before and after it. */
export function auditAction(
  db: Db,
  actor: User,
  action: string,
  target: string,
  before: unknown,
  after: unknown,
  extra: Record<string, unknown> = {},
) {
  return audit(db, { actorId: actor.id, action, target, detail: { before, after, ...extra } });
}

/** An admin grants or removes the staff role. Admins come from ADMIN_PHONES only, so they cannot be changed here. */
export async function setRole(db: Db, admin: User, targetId: string, role: "user" | "staff") {
  const target = await findUserById(db, targetId);
  if (!target) throw new DomainError("not_found", "User not found");
  if (target.role === "admin") throw new DomainError("conflict", "Admins are set by ADMIN_PHONES");
  if (role === "staff" && target.authMode !== "verified") throw new DomainError("conflict", "Only a verified person can be staff");
  if (target.role !== role) {
    await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, target.id));
    await auditAction(db, admin, "admin.role_changed", target.id, { role: target.role }, { role });
  }
  return { id: target.id, role };
}

/** People matching a phone (exact, any written form), a nickname fragment or an id, with what the desk needs to see. */
export async function findPeople(db: Db, q: string, now = new Date()) {
  const phone = normalizePhone(q);
  const pattern = `%${q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
  const nick = like(users.nickname, pattern);
  const found = await db
    .select()
    .from(users)
    // The id too: a report's link opens the reported person's entry (docs/decisions/038-reports-and-device-bans.md).
    .where(phone ? or(eq(users.phone, phone), nick, eq(users.id, q)) : or(nick, eq(users.id, q)))
    .limit(20);
  if (found.length === 0) return [];
  const ids = found.map((u) => u.id);
  const [liveSessions, openSos, openTickets] = await Promise.all([
    db
      .select({ userId: sessions.userId, n: count() })
      .from(sessions)
      .where(and(inArray(sessions.userId, ids), gt(sessions.expiresAt, now)))
      .groupBy(sessions.userId),
    db
      .select({ userId: emergencyBroadcasts.userId, n: count() })
      .from(emergencyBroadcasts)
      .where(and(inArray(emergencyBroadcasts.userId, ids), eq(emergencyBroadcasts.status, "active")))
      .groupBy(emergencyBroadcasts.userId),
    db
      .select({ userId: supportTickets.userId, n: count() })
      .from(supportTickets)
      .where(and(inArray(supportTickets.userId, ids), eq(supportTickets.status, "open")))
      .groupBy(supportTickets.userId),
  ]);
  const byUser = (rows: { userId: string | null; n: number }[]) => new Map(rows.map((r) => [r.userId, r.n]));
  const [s, e, t] = [byUser(liveSessions), byUser(openSos), byUser(openTickets)];
  return found.map((u) => ({
    id: u.id,
    nickname: u.nickname,
    phone: u.phone,
    role: u.role,
    tier: u.subscriptionTier,
    tierExpiresAt: u.tierExpiresAt?.toISOString() ?? null,
    verified: u.authMode === "verified",
    banned: u.bannedAt !== null,
    banReason: u.banReason,
    sessions: s.get(u.id) ?? 0,
    openSos: e.get(u.id) ?? 0,
    openTickets: t.get(u.id) ?? 0,
    createdAt: u.createdAt.toISOString(),
  }));
}
