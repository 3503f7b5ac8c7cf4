// Enterprise teams (docs/decisions/067-enterprise-teams.md): an Enterprise subscriber's organisation, its seats
// (TEAM_SEATS, open invitations included), roles and what each may do (core/teams.ts `teamRights`), invitations by
// phone or code (single use, expiring), the team room only members enter, and the settings that change behaviour.
// Every decision is made here, on the server; the /team screen only shows what `teamFor` answers.
import { DomainError } from "../../core/domain-error";
import { loadTranslator } from "../../core/i18n/load-catalog";
import { chooseLanguage, type UiLanguage } from "../../core/i18n/languages";
import type { DisappearTimer } from "../../core/disappearing-timers";
import { newId } from "../../core/ids";
import { nameForOthers } from "../../core/names";
import { normalizePhone } from "../../core/phone";
import {
  formatInviteCode,
  INVITE_CODE_ALPHABET,
  INVITE_DAYS,
  INVITE_MS,
  INVITES_PER_DAY,
  type NewInviteAnswer,
  TEAM_ERRORS,
  type TeamErrorCode,
  TEAM_SEATS,
  type TeamAnswer,
  type TeamRole,
  teamRights,
} from "../../core/teams";
import type { Db } from "../../db";
import { findRoomActivity } from "../../db/queries/room-activity";
import { addMembers, removeMember as removeRoomMember } from "../../db/queries/rooms";
import {
  claimInvite,
  findInvite,
  insertInvite,
  insertTeam,
  invitesMadeSince,
  openInvites,
  pruneInvites,
  releaseInvite,
  renameTeamRoom,
  removeSeat,
  revokeInvite,
  setSupportStaff,
  setTeamRole,
  supportStaffOf,
  takeSeat,
  teamMembers,
  teamOf,
  updateTeam,
  verifiedUserByPhone,
} from "../../db/queries/teams";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { sessionHash } from "../auth/session";
import { refreshTier } from "../billing/tier";
import type { AppEnv } from "../env";
import { notify } from "../notifications";
import { roomStub } from "../rooms/stub";
import { sendMessage } from "../services/messaging";

type Standing = NonNullable<Awaited<ReturnType<typeof teamOf>>>;

const refuse = (message: string, code: TeamErrorCode, values?: Record<string, number>) =>
  new DomainError(code, message, values ? { values } : {});

async function standingOf(db: Db, user: Pick<User, "id">): Promise<Standing> {
  const standing = await teamOf(db, user.id);
  if (!standing) throw refuse("You are not in a team", TEAM_ERRORS.noTeam);
  return standing;
}

/** The owner's Enterprise runs: only then do invitations work and seats give features. */
const isActive = (s: Standing) => s.ownerTier === "enterprise";

/** GET /api/team: the person's team as they may see it, or whether they may start one. */
export async function teamFor(db: Db, user: User, now = new Date()): Promise<TeamAnswer> {
  const standing = await teamOf(db, user.id);
  if (!standing) return { team: null, canCreate: user.subscriptionTier === "enterprise" && user.authMode === "verified" };
  const { org, role } = standing;
  const rights = teamRights(role, org.invitePolicy);
  const [members, invites, activity, supportStaff] = await Promise.all([
    teamMembers(db, org.id),
    openInvites(db, org.id, now),
    rights.changeSettings && org.roomId ? findRoomActivity(db, org.roomId) : undefined,
    supportStaffOf(db, org.supportStaffId),
  ]);
  return {
    team: {
      id: org.id,
      name: org.name,
      invitePolicy: org.invitePolicy,
      seatFeatures: org.seatFeatures,
      language: org.language,
      retention: org.retention,
      roomId: org.roomId,
      seats: TEAM_SEATS,
      seatsTaken: members.length + invites.length,
      active: isActive(standing),
      myRole: role,
      rights,
      members: members.map((m) => ({
        userId: m.userId,
        nickname: nameForOthers({ id: m.userId, nickname: m.nickname, anonymousMode: m.anonymousMode }, org.roomId ?? ""),
        // Phones are for those who manage the team; members see names.
        phone: rights.removeMembers ? m.phone : null,
        role: m.role,
        joinedAt: m.joinedAt.toISOString(),
      })),
      invites: rights.invite
        ? invites.map((i) => ({ id: i.id, phone: i.phone, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() }))
        : [],
      supportStaff,
      usage: rights.changeSettings
        ? {
            members: members.length,
            admins: members.filter((m) => m.role === "admin").length,
            openInvites: invites.length,
            roomMessages: activity?.messages ?? 0,
            lastMessageAt: activity?.lastMessageAt ? activity.lastMessageAt.toISOString() : null,
          }
        : null,
    },
    canCreate: false,
  };
}

/**
 * POST /api/team: an Enterprise subscriber of their own (a seat does not count: a person is in one team) starts
 * an organisation, with its team room.
 */
export async function createTeam(db: Db, user: User, input: { name: string }, now = new Date()): Promise<TeamAnswer> {
  if (await teamOf(db, user.id)) throw refuse("You are already in a team", TEAM_ERRORS.alreadyInTeam);
  if (user.subscriptionTier !== "enterprise") throw new DomainError("team_needs_enterprise", "Teams come with Enterprise");
  await insertTeam(db, { id: newId(), ownerId: user.id, name: input.name, roomId: `group:${newId()}` });
  return teamFor(db, user, now);
}

/** PATCH /api/team: name, who may invite, whether seats carry the Enterprise features. */
export async function changeSettings(
  env: Pick<AppEnv, "ROOMS">,
  db: Db,
  user: User,
  patch: {
    name?: string;
    invitePolicy?: "admins" | "members";
    seatFeatures?: boolean;
    language?: UiLanguage | null;
    retention?: DisappearTimer;
  },
  now = new Date(),
): Promise<TeamAnswer> {
  const standing = await standingOf(db, user);
  if (!teamRights(standing.role, standing.org.invitePolicy).changeSettings)
    throw refuse("Only the team's owner and admins change its settings", TEAM_ERRORS.notAllowed);
  const { org } = standing;
  await updateTeam(db, org.id, patch);
  if (patch.name && org.roomId) await renameTeamRoom(db, org.roomId, patch.name);
  // Message retention is the team room's disappearing timer; the room announces the change in the chat.
  if (patch.retention && patch.retention !== org.retention && org.roomId)
    await roomStub(env, org.roomId).setDisappearing({
      roomId: org.roomId,
      timer: patch.retention,
      by: user.id,
      byName: nameForOthers(user, org.roomId),
    });
  // The seats' tiers follow at once: refreshing the owner refreshes every seat (workers/billing/tier.ts).
  if (patch.seatFeatures !== undefined && patch.seatFeatures !== org.seatFeatures) await refreshTier(db, org.ownerId, now);
  return teamFor(db, user, now);
}

function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return [...bytes].map((b) => INVITE_CODE_ALPHABET[b % INVITE_CODE_ALPHABET.length]).join("");
}

/** Codes are kept as an HMAC under SESSION_SECRET, as sessions are: a leaked table joins nobody to a team. */
const codeHash = (env: AppEnv, code: string) => sessionHash(env, `team-invite:${code}`);

/**
 * POST /api/team/invites: a single-use code good for INVITE_DAYS days, for one phone number or for whoever is given
 * the code. It holds a seat until used or expired, so invitations never promise more seats than the plan has. A
 * phone invitation is sent by WhatsApp (SMS when that fails) and reaches the person's notification centre when the
 * phone is already verified on LinkUp.
 */
export async function createInvite(env: AppEnv, db: Db, user: User, input: { phone?: string }, now = new Date()): Promise<NewInviteAnswer> {
  const standing = await standingOf(db, user);
  const { org } = standing;
  if (!teamRights(standing.role, org.invitePolicy).invite) throw refuse("Only admins may invite to this team", TEAM_ERRORS.notAllowed);
  if (!isActive(standing)) throw new DomainError("team_needs_enterprise", "Teams come with Enterprise");
  let phone: string | null = null;
  if (input.phone) {
    phone = await normalizePhone(input.phone);
    if (!phone) throw new DomainError("invalid_phone", "Enter a valid phone number");
  }
  await pruneInvites(db, org.id, now);
  const [members, invites, made] = await Promise.all([
    teamMembers(db, org.id),
    openInvites(db, org.id, now),
    invitesMadeSince(db, org.id, new Date(now.getTime() - 86_400_000)),
  ]);
  if (phone && members.some((m) => m.phone === phone)) throw refuse("This person is already in the team", TEAM_ERRORS.alreadyInTeam);
  if (members.length + invites.length >= TEAM_SEATS)
    throw refuse(`All ${TEAM_SEATS} seats are taken or held by open invitations`, TEAM_ERRORS.seatsFull, { seats: TEAM_SEATS });
  if (made >= INVITES_PER_DAY)
    throw new DomainError("team_too_many_invites", `Too many invitations today: at most ${INVITES_PER_DAY} a day`, {
      values: { limit: INVITES_PER_DAY },
    });
  const code = newCode();
  const id = newId();
  const expiresAt = new Date(now.getTime() + INVITE_MS);
  await insertInvite(db, { id, orgId: org.id, codeHash: await codeHash(env, code), phone, createdBy: user.id, expiresAt, createdAt: now });
  if (phone) await sendInvite(env, db, { phone, code, team: org.name, from: user.nickname, language: org.language });
  return { invite: { id, phone, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() }, code: formatInviteCode(code) };
}

async function sendInvite(
  env: AppEnv,
  db: Db,
  input: { phone: string; code: string; team: string; from: string; language: string | null },
) {
  try {
    const invitee = await verifiedUserByPhone(db, input.phone);
    const person = invitee ? await findUserById(db, invitee.id) : undefined;
    // A person on LinkUp reads it in their own language; a phone not yet on LinkUp in the team's (decision 067).
    const t = await loadTranslator(chooseLanguage(person?.language ?? input.language, null));
    const shown = formatInviteCode(input.code);
    // Without APP_URL (not configured) the message carries the code alone: never a made-up address.
    const url = env.APP_URL ? ` ${new URL(`/team?code=${shown}`, env.APP_URL).toString()}` : "";
    const vars = { who: input.from, team: input.team, code: shown, days: INVITE_DAYS };
    const title = t("team.msg.inviteTitle");
    const content = t("team.msg.inviteBody", vars);
    if (invitee) {
      await notify(env, db, invitee.id, {
        type: "system",
        title,
        content,
        priority: "medium",
        url: `/team?code=${shown}`,
        source: "team",
        actionRequired: true,
        localized: (tl) => ({ title: tl("team.msg.inviteTitle"), content: tl("team.msg.inviteBody", vars) }),
      });
    }
    const body = `LinkUp: ${content}${url}`;
    const wa = await sendMessage(env, db, { to: input.phone, channel: "whatsapp", body });
    if (wa.status === "failed") await sendMessage(env, db, { to: input.phone, channel: "sms", body });
  } catch (e) {
    // The invitation stands: its code is shown to the person who made it, to pass on another way.
    console.error("teams: could not send the invitation", e);
  }
}

/** DELETE /api/team/invites/:id: an open invitation withdrawn, its seat free again. */
export async function withdrawInvite(db: Db, user: User, inviteId: string): Promise<void> {
  const standing = await standingOf(db, user);
  if (!teamRights(standing.role, standing.org.invitePolicy).invite)
    throw refuse("Only admins may invite to this team", TEAM_ERRORS.notAllowed);
  if (!(await revokeInvite(db, standing.org.id, inviteId, new Date()))) throw refuse("Invitation not found", TEAM_ERRORS.inviteUnknown);
}

/**
 * POST /api/team/join: a verified person with a code takes its seat, once, before it expires; a phone invitation
 * only for that phone. They enter the team room's members and get the seat's tier.
 */
export async function joinTeam(env: AppEnv, db: Db, user: User, code: string, now = new Date()): Promise<TeamAnswer> {
  if (user.authMode !== "verified" || !user.phone) throw refuse("Verify your phone number to join a team", TEAM_ERRORS.verify);
  const invite = await findInvite(db, await codeHash(env, code));
  // A withdrawn invitation (used by nobody) is as unknown as one never made.
  if (!invite || (invite.usedAt && !invite.usedBy)) throw refuse("This invitation code is not known", TEAM_ERRORS.inviteUnknown);
  if (invite.usedAt) throw refuse("This invitation has already been used", TEAM_ERRORS.inviteUsed);
  if (invite.expiresAt <= now) throw refuse("This invitation has expired", TEAM_ERRORS.inviteExpired);
  if (invite.phone && invite.phone !== user.phone)
    throw refuse("This invitation is for another phone number", TEAM_ERRORS.inviteOtherPhone);
  if (await teamOf(db, user.id)) throw refuse("You are already in a team", TEAM_ERRORS.alreadyInTeam);
  if (!(await claimInvite(db, invite.id, user.id, now))) throw refuse("This invitation has already been used", TEAM_ERRORS.inviteUsed);
  if (!(await takeSeat(db, invite.orgId, user.id, TEAM_SEATS, now))) {
    await releaseInvite(db, invite.id);
    throw refuse(`All ${TEAM_SEATS} seats are taken or held by open invitations`, TEAM_ERRORS.seatsFull, { seats: TEAM_SEATS });
  }
  const standing = await standingOf(db, user);
  if (standing.org.roomId) await addMembers(db, standing.org.roomId, [{ userId: user.id }]);
  await refreshTier(db, user.id, now);
  return teamFor(db, (await findUserById(db, user.id)) ?? user, now);
}

/** Takes a person's seat: out of the organisation and its room (their open sockets closed), the seat's tier gone. */
async function vacate(env: AppEnv, db: Db, standing: Standing, userId: string, now: Date, removed: boolean) {
  const { org } = standing;
  await removeSeat(db, org.id, userId);
  if (org.roomId) {
    await removeRoomMember(db, org.roomId, userId);
    try {
      await roomStub(env, org.roomId).expel(userId);
    } catch (e) {
      // The seat is gone in D1, which every new socket checks (db/queries/teams.ts `groupAccess`).
      console.error("teams: closing sockets", e);
    }
  }
  await refreshTier(db, userId, now);
  if (removed) {
    const person = await findUserById(db, userId);
    const t = await loadTranslator(chooseLanguage(person?.language, null));
    await notify(env, db, userId, {
      type: "system",
      title: t("team.msg.removedTitle"),
      content: t("team.msg.removedBody", { team: org.name }),
      priority: "medium",
      url: "/team",
      source: "team",
      localized: (tl) => ({ title: tl("team.msg.removedTitle"), content: tl("team.msg.removedBody", { team: org.name }) }),
    }).catch((e) => console.error("teams: could not tell the removed person", e));
  }
}

async function targetIn(db: Db, standing: Standing, userId: string): Promise<{ role: TeamRole }> {
  const target = (await teamMembers(db, standing.org.id)).find((m) => m.userId === userId);
  if (!target) throw refuse("This person is not in the team", TEAM_ERRORS.noTeam);
  return target;
}

/** POST /api/team/members/:id/remove: the owner removes anyone but themself; an admin removes members. */
export async function removeFromTeam(env: AppEnv, db: Db, user: User, userId: string, now = new Date()): Promise<TeamAnswer> {
  const standing = await standingOf(db, user);
  const rights = teamRights(standing.role, standing.org.invitePolicy);
  const target = await targetIn(db, standing, userId);
  if (target.role === "owner") throw refuse("The owner stays with the team", TEAM_ERRORS.ownerStays);
  const allowed = target.role === "admin" ? rights.removeAdmins : rights.removeMembers;
  if (!allowed || userId === user.id) throw refuse("You may not remove this person", TEAM_ERRORS.notAllowed);
  await vacate(env, db, standing, userId, now, true);
  return teamFor(db, user, now);
}

/** POST /api/team/leave: anyone but the owner leaves (the owner's subscription is the team). */
export async function leaveTeam(env: AppEnv, db: Db, user: User, now = new Date()): Promise<TeamAnswer> {
  const standing = await standingOf(db, user);
  if (!teamRights(standing.role, standing.org.invitePolicy).leave) throw refuse("The owner stays with the team", TEAM_ERRORS.ownerStays);
  await vacate(env, db, standing, user.id, now, false);
  return teamFor(db, (await findUserById(db, user.id)) ?? user, now);
}

/** POST /api/team/members/:id/role: the owner makes a member an admin or an admin a member. */
export async function changeRole(db: Db, user: User, userId: string, role: "admin" | "member", now = new Date()): Promise<TeamAnswer> {
  const standing = await standingOf(db, user);
  if (!teamRights(standing.role, standing.org.invitePolicy).changeRoles)
    throw refuse("Only the team's owner changes roles", TEAM_ERRORS.notAllowed);
  const target = await targetIn(db, standing, userId);
  if (target.role === "owner") throw refuse("The owner stays with the team", TEAM_ERRORS.ownerStays);
  await setTeamRole(db, standing.org.id, userId, role);
  return teamFor(db, user, now);
}

/**
 * POST /api/admin/teams/:id/support-staff (admins): names the staff member who answers the organisation's requests
 * first, or nobody. Only a staff member or admin can be named.
 */
export async function nameSupportStaff(db: Db, orgId: string, staffId: string | null): Promise<{ supportStaff: string | null }> {
  if (staffId) {
    const staff = await findUserById(db, staffId);
    if (!staff || staff.role === "user")
      throw new DomainError("team_support_needs_staff", "Only a staff member can give dedicated support");
  }
  if (!(await setSupportStaff(db, orgId, staffId))) throw new DomainError("team_not_found", "No such team");
  return { supportStaff: await supportStaffOf(db, staffId) };
}
