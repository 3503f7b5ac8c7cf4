// Disappearing messages, the Worker's part (docs/decisions/040-disappearing-messages.md): who may set a chat's
// timer (a member of a direct chat or private group) and the default timer a person's new chats start with.
// The room keeps the timer, stamps expiries and deletes expired messages (durable-objects/disappearing.ts).
import type { DisappearTimer } from "../../core/disappearing";
import { roomKind } from "../../core/envelope";
import { nameForOthers } from "../../core/names";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { DomainError } from "../../core/domain-error";
import { requireRoomAccess } from "./rooms";
import { roomStub } from "./stub";
import { teamOfRoom } from "../../db/queries/teams";

export const PUBLIC_ROOM_MESSAGE = "Disappearing messages are for direct chats and groups";

async function requirePrivateMember(db: Db, user: User, roomId: string): Promise<void> {
  await requireRoomAccess(db, user, roomId);
  if (roomKind(roomId) === "nearby") throw new DomainError("disappearing_public_room", PUBLIC_ROOM_MESSAGE);
}

/** GET /api/rooms/:id/disappearing. */
export async function disappearingOf(env: Pick<Env, "ROOMS">, db: Db, user: User, roomId: string): Promise<{ timer: DisappearTimer }> {
  await requirePrivateMember(db, user, roomId);
  return { timer: await roomStub(env, roomId).disappearingTimer() };
}

/**
 * PUT /api/rooms/:id/disappearing: any member may change it; the room announces the change in the chat. A team
 * room's timer is its organisation's message retention, set on the team page (docs/decisions/067-enterprise-teams.md).
 */
export async function setDisappearing(
  env: Pick<Env, "ROOMS">,
  db: Db,
  user: User,
  roomId: string,
  timer: DisappearTimer,
): Promise<{ timer: DisappearTimer; changed: boolean }> {
  await requirePrivateMember(db, user, roomId);
  if (await teamOfRoom(db, roomId))
    throw new DomainError("team_retention", "A team room keeps its team's message retention: change it on the team page");
  return roomStub(env, roomId).setDisappearing({ roomId, timer, by: user.id, byName: nameForOthers(user, roomId) });
}

/** A chat the person just started takes their auto-delete setting as its timer. */
export async function applyDefaultTimer(env: Pick<Env, "ROOMS">, user: User, roomId: string): Promise<void> {
  const timer = user.autoDelete as DisappearTimer;
  if (timer === "never") return;
  await roomStub(env, roomId).setDisappearing({ roomId, timer, by: user.id, byName: nameForOthers(user, roomId) });
}
