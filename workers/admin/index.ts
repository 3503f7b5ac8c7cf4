// The staff desk and admin roles (docs/product/admin-and-analytics.md). Every staff or admin action is written to
// audit_log with who, what, when (created_at), and the before and after (docs/decisions/019-staff-and-admins.md).
import { normalizePhone } from "../../core/phone";
import type { Db } from "../../db";
import { audit } from "../../db/queries/billing";
import { countActiveSosByUser } from "../../db/queries/emergency";
import { countLiveSessionsByUser } from "../../db/queries/sessions";
import { countOpenTicketsByUser } from "../../db/queries/support";
import { findUserById, searchUsers, setUserRole } from "../../db/queries/users";
import type { User } from "../../db/schema";
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
  if (!target) throw new DomainError("user_not_found", "User not found");
  if (target.role === "admin") throw new DomainError("admin_role_fixed", "Admins are set by ADMIN_PHONES");
  if (role === "staff" && target.authMode !== "verified")
    throw new DomainError("staff_needs_verified", "Only a verified person can be staff");
  if (target.role !== role) {
    await setUserRole(db, target.id, role);
    await auditAction(db, admin, "admin.role_changed", target.id, { role: target.role }, { role });
  }
  return { id: target.id, role };
}

/** People matching a phone (exact, any written form), a nickname fragment or an id, with what the desk needs to see. */
export async function findPeople(db: Db, q: string, now = new Date()) {
  // The id too: a report's link opens the reported person's entry (docs/decisions/038-reports-and-device-bans.md).
  const found = await searchUsers(db, { phone: await normalizePhone(q), nickname: q, id: q }, 20);
  if (found.length === 0) return [];
  const ids = found.map((u) => u.id);
  const [liveSessions, openSos, openTickets] = await Promise.all([
    countLiveSessionsByUser(db, ids, now),
    countActiveSosByUser(db, ids),
    countOpenTicketsByUser(db, ids),
  ]);
  const byUser = (rows: { userId: string; n: number }[]) => new Map(rows.map((r) => [r.userId, r.n]));
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
