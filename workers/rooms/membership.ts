// Group membership and blocks (docs/decisions/015-group-membership-and-blocks.md): nobody is in a group
// without accepting an invitation, anyone can leave a group, anyone can block a person. The API routes call
// these; the room's Durable Object is told to close the sockets of someone who is no longer let in.
import { dmRoomId, roomKind } from "../../core/envelope";
import type { BlockedInfo, InvitationInfo, RoomSummary } from "../../core/rooms";
import { nameForOthers } from "../../core/names";
import type { Db } from "../../db";
import {
  addBlock,
  addInvitations,
  addMembers,
  blockersAmong,
  findRoom,
  findUsersByIds,
  isMember,
  listBlocked,
  listInvitations,
  listMembers,
  memberRole,
  membersAmong,
  removeBlock,
  removeMember,
  takeInvitation,
} from "../../db/queries/rooms";
import type { User } from "../../db/schema";
import { DomainError } from "../../core/domain-error";
import { roomStub } from "./stub";
import { teamOfRoom } from "../../db/queries/teams";
import { attachInvitationStatements, setMemberInvitation, takeInvitationStatement } from "../../db/queries/group-invitations";
import { invitationSignatureHolds, type SignedInvitation } from "../../core/group-invitations";
import { deviceListOf } from "./device-lists";

/**
 * A team room's members are its organisation's: nobody is invited into it or leaves it but through the team
 * (docs/decisions/067-enterprise-teams.md), so a member cannot let an outsider in.
 */
async function refuseTeamRoom(db: Db, roomId: string): Promise<void> {
  if (await teamOfRoom(db, roomId))
    throw new DomainError("team_room_managed", "Team rooms follow the team: invite and remove people on the team page");
}

export const BLOCKED_MESSAGE = "You cannot message this person";

/**
 * Asks people into a group the user is a member of. Already members are skipped, and so, silently, is
 * anyone who has blocked the user (a block is not announced). Answers how many invitations now wait.
 */
export async function inviteToGroup(
  db: Db,
  user: Pick<User, "id">,
  roomId: string,
  userIds: string[],
  signed: SignedInvitation[] = [],
): Promise<{ invited: number; signed?: number }> {
  if (roomKind(roomId) !== "group") throw new DomainError("groups_only_invite", "Only groups take invitations");
  if (!(await isMember(db, roomId, user.id))) {
    if (!(await findRoom(db, roomId))) throw new DomainError("room_not_found", "Room not found");
    throw new DomainError("not_member", "You are not a member of this room");
  }
  await refuseTeamRoom(db, roomId);
  const ids = [...new Set(userIds.filter((id) => id !== user.id))];
  const found = await findUsersByIds(db, ids);
  if (found.length !== ids.length) throw new DomainError("unknown_member", "Some members do not exist");
  const [members, blockers] = await Promise.all([membersAmong(db, roomId, ids), blockersAmong(db, user.id, ids)]);
  const invite = ids.filter((id) => !members.has(id) && !blockers.has(id));
  await addInvitations(db, roomId, user.id, invite);
  const statements = await checkedStatements(db, user.id, roomId, ids, signed);
  await attachInvitationStatements(db, roomId, user.id, statements);
  return { invited: invite.length, ...(signed.length ? { signed: statements.length } : {}) };
}

/**
 * The statements worth keeping: the inviter's own, for this room and someone invited, signed by a device of the
 * inviter's signed list (one read). Only to refuse junk early: every owner's or admin's device checks again.
 */
async function checkedStatements(db: Db, inviter: string, roomId: string, invited: string[], signed: SignedInvitation[]) {
  if (signed.length === 0) return [];
  const devices = new Set((await deviceListOf(db, inviter))?.devices.map((d) => d.signingKey) ?? []);
  const kept: { userId: string; statement: string }[] = [];
  for (const i of signed) {
    if (i.room !== roomId || i.inviter !== inviter || !invited.includes(i.invitee) || !devices.has(i.device)) continue;
    if (!(await invitationSignatureHolds(i)) || kept.some((k) => k.userId === i.invitee)) continue;
    kept.push({ userId: i.invitee, statement: JSON.stringify(i) });
  }
  return kept;
}

export async function invitationsFor(db: Db, user: Pick<User, "id">): Promise<InvitationInfo[]> {
  return invitationInfos(await listInvitations(db, user.id));
}

/** Invitation rows as the chat screen shows them (also from db/queries/chat-lists.ts). */
export function invitationInfos(rows: Awaited<ReturnType<typeof listInvitations>>): InvitationInfo[] {
  return rows.map((i) => ({
    roomId: i.roomId,
    name: i.name,
    invitedBy: i.invitedBy,
    // Who asked, as the group will show them (core/names.ts).
    invitedByName:
      i.invitedBy && i.invitedByName !== null
        ? nameForOthers({ id: i.invitedBy, nickname: i.invitedByName, anonymousMode: i.invitedByAnonymous ?? false }, i.roomId)
        : i.invitedByName,
    createdAt: i.createdAt.getTime(),
  }));
}

/** Accepting makes the user a member (from now on they can enter the room and receive its messages). */
export async function acceptInvitation(db: Db, user: Pick<User, "id">, roomId: string): Promise<RoomSummary> {
  const taken = await takeInvitationStatement(db, roomId, user.id);
  if (!taken) throw new DomainError("invitation_not_found", "Invitation not found");
  await addMembers(db, roomId, [{ userId: user.id }]);
  // The inviter's signed statement goes with them, for an owner's or admin's device to check (decision 081).
  if (taken.statement) await setMemberInvitation(db, roomId, user.id, taken.statement);
  const room = await findRoom(db, roomId);
  if (!room) throw new DomainError("room_not_found", "Room not found");
  const memberCount = (await listMembers(db, roomId)).length;
  return { id: room.id, kind: room.kind, name: room.name, encrypted: true, joined: true, memberCount, lastMessageAt: null };
}

export async function declineInvitation(db: Db, user: Pick<User, "id">, roomId: string): Promise<void> {
  if (!(await takeInvitation(db, roomId, user.id))) throw new DomainError("invitation_not_found", "Invitation not found");
}

/** Leaves a group: no longer a member, and the room closes the user's open sockets. */
export async function leaveGroup(env: Pick<Env, "ROOMS">, db: Db, user: Pick<User, "id">, roomId: string): Promise<void> {
  if (roomKind(roomId) !== "group") throw new DomainError("groups_only_leave", "Only groups can be left");
  if (!(await isMember(db, roomId, user.id))) throw new DomainError("not_in_group", "You are not in this group");
  await refuseTeamRoom(db, roomId);
  await removeMember(db, roomId, user.id);
  await expel(env, roomId, user.id);
}

/**
 * The group's owner removes a member (docs/decisions/073-group-epochs.md): no longer a member in D1, sockets
 * closed. The owner's device also signs the removal into the group's membership epochs, which is what makes
 * every member's device stop handing its sender key to them and refuse what they send.
 */
export async function removeFromGroup(
  env: Pick<Env, "ROOMS">,
  db: Db,
  user: Pick<User, "id">,
  roomId: string,
  userId: string,
): Promise<void> {
  if (roomKind(roomId) !== "group") throw new DomainError("membership_invalid", "Only groups have members to remove");
  const role = await memberRole(db, roomId, user.id);
  if (!role) throw new DomainError("not_in_group", "You are not in this group");
  if (role !== "owner") throw new DomainError("group_owner_removes", "Only the group's owner can remove someone");
  if (userId === user.id) throw new DomainError("group_remove_self", "Leave the group instead");
  await refuseTeamRoom(db, roomId);
  if (!(await memberRole(db, roomId, userId))) throw new DomainError("not_found", "Not a member of this group");
  await removeMember(db, roomId, userId);
  await expel(env, roomId, userId);
}

/**
 * Blocks a person:/**
 * Blocks a person: they can no longer open a direct chat with the user or invite them to a group, and their
 * sockets in the direct chat are closed, so the user receives nothing more from them there.
 */
export async function blockPerson(env: Pick<Env, "ROOMS">, db: Db, user: Pick<User, "id">, otherId: string): Promise<BlockedInfo> {
  if (otherId === user.id) throw new DomainError("cannot_block_self", "You cannot block yourself");
  const [other] = await findUsersByIds(db, [otherId]);
  if (!other) throw new DomainError("user_not_found", "User not found");
  await addBlock(db, user.id, other.id);
  await expel(env, dmRoomId(user.id, other.id), other.id);
  return { userId: other.id, nickname: nameForOthers(other) };
}

export async function unblockPerson(db: Db, user: Pick<User, "id">, otherId: string): Promise<void> {
  await removeBlock(db, user.id, otherId);
}

export async function blockedBy(db: Db, user: Pick<User, "id">): Promise<BlockedInfo[]> {
  // Someone blocked from an area room keeps the name they had there (core/names.ts).
  return blockedInfos(await listBlocked(db, user.id));
}

export function blockedInfos(rows: Awaited<ReturnType<typeof listBlocked>>): BlockedInfo[] {
  return rows.map((b) => ({ userId: b.userId, nickname: nameForOthers({ id: b.userId, ...b }) }));
}

/** Throws 403 when `otherId` has blocked `userId` (direct chats with them are closed to `userId`). */
export async function requireNotBlockedBy(db: Db, userId: string, otherId: string): Promise<void> {
  if ((await blockersAmong(db, userId, [otherId])).has(otherId)) throw new DomainError("blocked", BLOCKED_MESSAGE);
}

async function expel(env: Pick<Env, "ROOMS">, roomId: string, userId: string): Promise<void> {
  try {
    await roomStub(env, roomId).expel(userId);
  } catch (e) {
    // The membership is already changed in D1, which every new socket checks; live ones close at the latest
    // on their next reconnect.
    console.error("rooms: closing sockets", e);
  }
}
