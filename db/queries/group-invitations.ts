// Signed invitations into private groups (core/group-invitations.ts, docs/decisions/081-no-silent-join.md): the
// inviter's device's statement rides on the invitation row, moves to the member row on acceptance, and is dropped
// once a membership statement signs the person in. Runs on D1 and libSQL alike.
import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { Db } from "../index";
import { groupEpochs, roomInvitations, roomMembers } from "../schema";

/** Puts each statement on the open invitation its signer made for that person (one UPDATE per person, ≤ 50). */
export async function attachInvitationStatements(db: Db, roomId: string, invitedBy: string, rows: { userId: string; statement: string }[]) {
  for (const r of rows)
    await db
      .update(roomInvitations)
      .set({ statement: r.statement })
      .where(and(eq(roomInvitations.roomId, roomId), eq(roomInvitations.userId, r.userId), eq(roomInvitations.invitedBy, invitedBy)));
}

/** Takes (deletes) a person's invitation: undefined when there was none, else its statement (or null). */
export async function takeInvitationStatement(db: Db, roomId: string, userId: string): Promise<{ statement: string | null } | undefined> {
  const rows = await db
    .delete(roomInvitations)
    .where(and(eq(roomInvitations.roomId, roomId), eq(roomInvitations.userId, userId)))
    .returning({ statement: roomInvitations.statement });
  return rows[0];
}

export async function setMemberInvitation(db: Db, roomId: string, userId: string, invitation: string | null) {
  await db
    .update(roomMembers)
    .set({ invitation })
    .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)));
}

/** Statements signed in: their invitations are spent (the member list stops carrying them). */
export async function dropMemberInvitations(db: Db, roomId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await db
    .update(roomMembers)
    .set({ invitation: null })
    .where(and(eq(roomMembers.roomId, roomId), inArray(roomMembers.userId, userIds), isNotNull(roomMembers.invitation)));
}

/** Keeps a group's newest statements: deletes those numbered below `below` (one DELETE on the primary key). */
export async function pruneEpochs(db: Db, roomId: string, below: number) {
  await db.delete(groupEpochs).where(and(eq(groupEpochs.roomId, roomId), lt(groupEpochs.epoch, below)));
}
