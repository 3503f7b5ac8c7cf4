// Enterprise teams (docs/decisions/067-enterprise-teams.md): seats, roles and what each role may do, the API's
// shapes, shared by the Worker and the /team screen. No zod here: the pricing page imports it (schemas: core/team-schemas.ts).
import { PRICES_NGN } from "./constants";

/**
 * Seats an Enterprise subscription gives, the owner's included: the Enterprise price is six Premium
 * subscriptions (₦15,000 = 6 × ₦2,500 a month), so it seats six people with Premium's worth each.
 */
export const TEAM_SEATS = PRICES_NGN.enterprise.monthly / PRICES_NGN.premium.monthly;

/** An invitation is good this long, and once. */
export const INVITE_DAYS = 7;
export const INVITE_MS = INVITE_DAYS * 86_400_000;
/**
 * Invitations an organisation may make in a day: a withdrawn invitation frees its seat at once, so without this one
 * admin could send a phone any number of WhatsApp invitations.
 */
export const INVITES_PER_DAY = 20;

/**
 * Dedicated support's response target for an Enterprise organisation's requests, in working hours (the support
 * hours, core/constants.ts SUPPORT_HOURS): what the team aims for, shown as an aim, not a measured figure.
 */
export const TEAM_SUPPORT_RESPONSE_HOURS = 4;

export const TEAM_ROLES = ["owner", "admin", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export type InvitePolicy = "admins" | "members";

/** What a role may do in its organisation, given who may invite (the one table the server decides by). */
export function teamRights(role: TeamRole, invitePolicy: InvitePolicy) {
  const manager = role === "owner" || role === "admin";
  return {
    invite: manager || invitePolicy === "members",
    /** Remove people: the owner anyone but themself; an admin only members. */
    removeMembers: manager,
    removeAdmins: role === "owner",
    changeSettings: manager,
    changeRoles: role === "owner",
    leave: role !== "owner",
  };
}
export type TeamRights = ReturnType<typeof teamRights>;

/** Stable codes of the team API's refusals: the screen words each in the person's language. */
export const TEAM_ERRORS = {
  needsEnterprise: "team_needs_enterprise",
  alreadyInTeam: "team_already_member",
  noTeam: "team_none",
  notAllowed: "team_not_allowed",
  seatsFull: "team_seats_full",
  inviteUnknown: "team_invite_unknown",
  inviteExpired: "team_invite_expired",
  inviteUsed: "team_invite_used",
  inviteOtherPhone: "team_invite_other_phone",
  verify: "team_verify",
  ownerStays: "team_owner_stays",
  teamRoom: "team_room_managed",
  tooManyInvites: "team_too_many_invites",
} as const;
export type TeamErrorCode = (typeof TEAM_ERRORS)[keyof typeof TEAM_ERRORS];

export interface TeamMemberInfo {
  userId: string;
  nickname: string;
  phone: string | null;
  role: TeamRole;
  joinedAt: string;
}
export interface TeamInviteInfo {
  id: string;
  phone: string | null;
  createdAt: string;
  expiresAt: string;
}
/**
 * The organisation's own figures, for the owner and admins: counted from the system, never estimated. The team
 * room's messages are the room's own count in room_activity (written within about a minute, decision 056).
 */
export interface TeamUsage {
  members: number;
  admins: number;
  openInvites: number;
  /** Messages the team room has had since it began. */
  roomMessages: number;
  lastMessageAt: string | null;
}
export interface TeamInfo {
  id: string;
  name: string;
  invitePolicy: InvitePolicy;
  seatFeatures: boolean;
  /** The language of invitations to phones not yet on LinkUp (null: English). */
  language: string | null;
  /** The team room's disappearing timer (core/disappearing-timers.ts). */
  retention: string;
  roomId: string | null;
  seats: number;
  /** Members plus open invitations: what counts against the seats. */
  seatsTaken: number;
  /** Whether the owner's Enterprise subscription is running (seats give features and invitations work only then). */
  active: boolean;
  myRole: TeamRole;
  rights: TeamRights;
  members: TeamMemberInfo[];
  /** Open invitations, for those who may invite. */
  invites: TeamInviteInfo[];
  /** The staff member named to answer the team's requests first, when an admin named one. */
  supportStaff: string | null;
  /** The team's usage figures, for those who may change the settings (null for members). */
  usage: TeamUsage | null;
}
/** GET /api/team: the person's team, or whether they may start one. */
export interface TeamAnswer {
  team: TeamInfo | null;
  canCreate: boolean;
}
/** POST /api/team/invites: the code is shown once, to the person who made it. */
export interface NewInviteAnswer {
  invite: TeamInviteInfo;
  code: string;
}

/** Codes are 10 characters of an alphabet without look-alikes, typed with or without the dash or spaces. */
export const INVITE_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** The code as people read it: two groups of five. */
export function formatInviteCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
