// A private group's membership statements (core/group-epochs.ts, docs/protocol.md §6a,
// docs/decisions/073-group-epochs.md). The server stores what a member's device signed and hands it to the
// members; it cannot sign one, so it cannot add a member of its own, keep a removed one in, or roll the group
// back unnoticed: every client checks each step again. The checks here only refuse junk early.
import { checkStep, EPOCHS_KEPT, EPOCHS_PAGE, type GroupEpoch, type GroupEpochInput, readEpoch } from "../../core/group-epochs";
import { roomKind } from "../../core/room-ids";
import { DomainError } from "../../core/domain-error";
import type { Db } from "../../db";
import { epochRow, epochsFrom, storeEpoch } from "../../db/queries/group-epochs";
import { dropMemberInvitations, pruneEpochs } from "../../db/queries/group-invitations";
import type { User } from "../../db/schema";
import { deviceListOf } from "./device-lists";
import { requireRoomAccess } from "./rooms";

function requireGroup(roomId: string) {
  if (roomKind(roomId) !== "group") throw new DomainError("not_found", "Only groups have a signed membership");
}

/** GET /api/rooms/:id/epochs?since=N: a member reads the statements from epoch N on (2 reads). */
export async function groupEpochsOf(db: Db, user: User, roomId: string, since: number): Promise<{ epochs: GroupEpoch[] }> {
  requireGroup(roomId);
  await requireRoomAccess(db, user, roomId);
  const rows = await epochsFrom(db, roomId, since, EPOCHS_PAGE);
  return { epochs: rows.map((r) => JSON.parse(r.body) as GroupEpoch) };
}

/**
 * PUT /api/rooms/:id/epochs: a member's device publishes the next statement, signed by it, under the member's
 * own name (201). Refused (409) when another statement holds the number already; then the device reads the newer
 * one and signs again. The very same statement again answers 200. About 5 D1 statements: access, the previous statement, the signer's
 * device list, the insert; then one DELETE of what fell out of the kept window, and for an add one UPDATE that
 * drops the newcomer's spent invitation.
 */
export async function publishGroupEpoch(
  db: Db,
  user: User,
  roomId: string,
  input: GroupEpochInput,
): Promise<{ epoch: number; stored: boolean }> {
  requireGroup(roomId);
  await requireRoomAccess(db, user, roomId);
  const statement = readEpoch(input);
  if (!statement || statement.room !== roomId) throw new DomainError("membership_invalid", "Not a membership statement of this group");
  if (statement.by !== user.id) throw new DomainError("membership_own_name", "A membership change is signed under your own name");
  let prev: GroupEpoch | null = null;
  if (statement.epoch > 1) {
    const row = await epochRow(db, roomId, statement.epoch - 1);
    if (!row) throw new DomainError("membership_out_of_step", "The previous epoch is not stored");
    prev = JSON.parse(row.body) as GroupEpoch;
  }
  const list = await deviceListOf(db, user.id);
  const refused = await checkStep(prev, statement, async () => list?.devices.map((d) => d.signingKey) ?? []);
  if (refused === "no-right") throw new DomainError("membership_no_right", "Only the group's owner or an admin can change who is in it");
  if (refused === "bad-signature") throw new DomainError("membership_invalid", "Not signed by a device of your signed device list");
  if (refused) throw new DomainError("membership_out_of_step", "Not the next step of the stored membership");
  const body = JSON.stringify(statement);
  if (!(await storeEpoch(db, { roomId, epoch: statement.epoch, body }))) {
    // Two tabs of one device sign the same change identically (Ed25519 is deterministic): the second is a repeat.
    if ((await epochRow(db, roomId, statement.epoch))?.body === body) return { epoch: statement.epoch, stored: false };
    throw new DomainError("membership_out_of_step", "Another change took this epoch first");
  }
  // Only the newest EPOCHS_KEPT statements stay (docs/decisions/081-no-silent-join.md): one DELETE per write; a
  // device further behind re-anchors on the oldest kept (docs/protocol.md §6a).
  if (statement.epoch > EPOCHS_KEPT) await pruneEpochs(db, roomId, statement.epoch - EPOCHS_KEPT + 1);
  // Signed in: their invitation is spent, and the member list stops carrying it.
  if (statement.change.kind === "add") await dropMemberInvitations(db, roomId, [statement.change.userId]);
  return { epoch: statement.epoch, stored: true };
}
