// Rooms, members, device keys, message metadata and mesh connections (docs/architecture.md §5).
import { and, desc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "../index";
import { deviceKeys, devicePrekeys, roomActivity, roomInvitations, roomMembers, roomPresence, rooms, userBlocks, users } from "../schema";

export type RoomKind = "nearby" | "group" | "dm";
export type RoomRow = typeof rooms.$inferSelect;

/** Creates the room if it does not exist yet (its name stays the first one given). */
export async function ensureRoom(db: Db, room: { id: string; kind: RoomKind; name: string; createdBy?: string | null }) {
  await db
    .insert(rooms)
    .values({ id: room.id, kind: room.kind, name: room.name, createdBy: room.createdBy ?? null })
    .onConflictDoNothing();
  return (await db.select().from(rooms).where(eq(rooms.id, room.id)).get()) as RoomRow;
}

export async function findRoom(db: Db, id: string): Promise<RoomRow | undefined> {
  return db.select().from(rooms).where(eq(rooms.id, id)).get();
}

export async function addMembers(db: Db, roomId: string, members: { userId: string; role?: "member" | "owner" }[]) {
  if (members.length === 0) return;
  await db
    .insert(roomMembers)
    .values(members.map((m) => ({ roomId, userId: m.userId, role: m.role ?? "member" })))
    .onConflictDoNothing();
}

/** Removes a member; if the group's owner left, the longest-standing member becomes owner. */
export async function removeMember(db: Db, roomId: string, userId: string) {
  await db.delete(roomMembers).where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)));
  const owner = await db
    .select({ userId: roomMembers.userId })
    .from(roomMembers)
    .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.role, "owner")))
    .get();
  if (owner) return;
  const next = await db
    .select({ userId: roomMembers.userId })
    .from(roomMembers)
    .where(eq(roomMembers.roomId, roomId))
    .orderBy(roomMembers.joinedAt, roomMembers.userId)
    .get();
  if (next)
    await db
      .update(roomMembers)
      .set({ role: "owner" })
      .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, next.userId)));
}

/** A member's role in a room ("owner" or "member"), or null for someone not in it. */
export async function memberRole(db: Db, roomId: string, userId: string): Promise<"owner" | "member" | null> {
  const row = await db
    .select({ role: roomMembers.role })
    .from(roomMembers)
    .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)))
    .get();
  return row?.role ?? null;
}

export async function isMember(db: Db, roomId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ userId: roomMembers.userId })
    .from(roomMembers)
    .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)))
    .get();
  return Boolean(row);
}

/** The rooms a user belongs to, newest activity first, with member counts and the last message time. */
export async function listUserRooms(db: Db, userId: string) {
  return db
    .select({
      id: rooms.id,
      kind: rooms.kind,
      name: rooms.name,
      joinedAt: roomMembers.joinedAt,
      memberCount: sql<number>`(select count(*) from room_members m where m.room_id = ${rooms.id})`,
      // The room's own batch keeps it (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
      lastMessageAt: sql<number | null>`${roomActivity.lastMessageAt}`,
      // A team room follows its team (docs/decisions/067-enterprise-teams.md): the chat offers the team page, not "leave".
      team: sql<number>`exists (select 1 from orgs o where o.room_id = ${rooms.id})`,
    })
    .from(roomMembers)
    .innerJoin(rooms, eq(rooms.id, roomMembers.roomId))
    .leftJoin(roomActivity, eq(roomActivity.roomId, rooms.id))
    .where(eq(roomMembers.userId, userId))
    .orderBy(desc(sql`coalesce(${roomActivity.lastMessageAt}, ${roomMembers.joinedAt})`))
    .all();
}

/** Members with their nicknames and published device keys (what a sender encrypts to). */
export async function listMembers(db: Db, roomId: string) {
  const members = await db
    .select({
      userId: roomMembers.userId,
      role: roomMembers.role,
      nickname: users.nickname,
      anonymousMode: users.anonymousMode,
      joinedAt: roomMembers.joinedAt,
      // A signed invitation not yet spent (docs/decisions/081-no-silent-join.md).
      invitation: roomMembers.invitation,
    })
    .from(roomMembers)
    .innerJoin(users, eq(users.id, roomMembers.userId))
    .where(eq(roomMembers.roomId, roomId))
    // Owner first, then by joining order (members added together tie on time: then by id, stable).
    .orderBy(sql`case when ${roomMembers.role} = 'owner' then 0 else 1 end`, roomMembers.joinedAt, roomMembers.userId)
    .all();
  const keys = members.length
    ? await db
        .select()
        .from(deviceKeys)
        .where(
          inArray(
            deviceKeys.userId,
            members.map((m) => m.userId),
          ),
        )
        .all()
    : [];
  return members.map((m) => ({
    ...m,
    keys: keys.filter((k) => k.userId === m.userId).map(deviceKeyInfo),
  }));
}

export async function findUsersByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, nickname: users.nickname, anonymousMode: users.anonymousMode, authMode: users.authMode })
    .from(users)
    .where(inArray(users.id, ids))
    .all();
}

/** Which of these people are members of the room. */
export async function membersAmong(db: Db, roomId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: roomMembers.userId })
    .from(roomMembers)
    .where(and(eq(roomMembers.roomId, roomId), inArray(roomMembers.userId, userIds)))
    .all();
  return new Set(rows.map((r) => r.userId));
}

// ---------------------------------------------------------------- invitations

export async function addInvitations(db: Db, roomId: string, invitedBy: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await db
    .insert(roomInvitations)
    .values(userIds.map((userId) => ({ roomId, userId, invitedBy })))
    .onConflictDoNothing();
}

/** A person's open invitations, newest first, with the group's name and who asked. */
export async function listInvitations(db: Db, userId: string) {
  return db
    .select({
      roomId: roomInvitations.roomId,
      name: rooms.name,
      invitedBy: roomInvitations.invitedBy,
      invitedByName: users.nickname,
      invitedByAnonymous: users.anonymousMode,
      createdAt: roomInvitations.createdAt,
    })
    .from(roomInvitations)
    .innerJoin(rooms, eq(rooms.id, roomInvitations.roomId))
    .leftJoin(users, eq(users.id, roomInvitations.invitedBy))
    .where(eq(roomInvitations.userId, userId))
    .orderBy(desc(roomInvitations.createdAt))
    .all();
}

/** Deletes one invitation; answers whether there was one. */
export async function takeInvitation(db: Db, roomId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(roomInvitations)
    .where(and(eq(roomInvitations.roomId, roomId), eq(roomInvitations.userId, userId)))
    .returning({ roomId: roomInvitations.roomId });
  return rows.length > 0;
}

// ---------------------------------------------------------------- blocks

export async function addBlock(db: Db, blockerId: string, blockedId: string) {
  await db.insert(userBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
}

export async function removeBlock(db: Db, blockerId: string, blockedId: string) {
  await db.delete(userBlocks).where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
}

/** The people a person has blocked, with their nicknames, newest first. */
export async function listBlocked(db: Db, blockerId: string) {
  return db
    .select({ userId: userBlocks.blockedId, nickname: users.nickname, anonymousMode: users.anonymousMode, createdAt: userBlocks.createdAt })
    .from(userBlocks)
    .innerJoin(users, eq(users.id, userBlocks.blockedId))
    .where(eq(userBlocks.blockerId, blockerId))
    .orderBy(desc(userBlocks.createdAt))
    .all();
}

/** Which of `userIds` have blocked `blockedId`. */
export async function blockersAmong(db: Db, blockedId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(and(eq(userBlocks.blockedId, blockedId), inArray(userBlocks.blockerId, userIds)))
    .all();
  return new Set(rows.map((r) => r.blockerId));
}

// ---------------------------------------------------------------- device keys

/**
 * Publishes (or replaces) the public key of one device of a user, then keeps only their `keep` most recently
 * published keys (each device republishes when it opens the chat, so the oldest is the longest unseen).
 */
export async function upsertDeviceKey(
  db: Db,
  key: { userId: string; deviceId: string; publicKey: string; signingKey?: string | null; signature?: string | null },
  keep: number,
) {
  const signed = { signingKey: key.signingKey ?? null, signature: key.signature ?? null };
  await db
    .insert(deviceKeys)
    .values({ ...key, ...signed, createdAt: new Date() })
    .onConflictDoUpdate({
      target: [deviceKeys.userId, deviceKeys.deviceId],
      set: { publicKey: key.publicKey, ...signed, createdAt: new Date() },
    });
  const newest = db
    .select({ deviceId: deviceKeys.deviceId })
    .from(deviceKeys)
    .where(eq(deviceKeys.userId, key.userId))
    .orderBy(desc(deviceKeys.createdAt), sql`${deviceKeys.deviceId} = ${key.deviceId} desc`)
    .limit(keep);
  await db.delete(deviceKeys).where(and(eq(deviceKeys.userId, key.userId), notInArray(deviceKeys.deviceId, newest)));
}

/** Removes one device's key (the device signed out): no one seals to it any more. */
export async function deleteDeviceKey(db: Db, userId: string, deviceId: string) {
  const gone = await db
    .delete(deviceKeys)
    .where(and(eq(deviceKeys.userId, userId), eq(deviceKeys.deviceId, deviceId)))
    .returning({ deviceId: deviceKeys.deviceId });
  return gone.length > 0;
}

/** A device's published key as the API hands it out (the signed fields only where the device signed). */
export function deviceKeyInfo(k: { deviceId: string; publicKey: string; signingKey?: string | null; signature?: string | null }) {
  return k.signingKey && k.signature
    ? { deviceId: k.deviceId, publicKey: k.publicKey, signingKey: k.signingKey, signature: k.signature }
    : { deviceId: k.deviceId, publicKey: k.publicKey };
}

export async function listDeviceKeys(db: Db, userId: string) {
  return db
    .select({
      deviceId: deviceKeys.deviceId,
      publicKey: deviceKeys.publicKey,
      signingKey: deviceKeys.signingKey,
      signature: deviceKeys.signature,
      createdAt: deviceKeys.createdAt,
    })
    .from(deviceKeys)
    .where(eq(deviceKeys.userId, userId))
    .orderBy(deviceKeys.createdAt)
    .all();
}

// ---------------------------------------------------------------- prekeys (X3DH)

/** The device's signed prekey (replacing the previous one) and new one-time prekeys (ids already there kept). */
export async function addPrekeys(
  db: Db,
  device: { userId: string; deviceId: string },
  signed: { keyId: number; publicKey: string; signature: string } | undefined,
  oneTime: { keyId: number; publicKey: string }[],
) {
  const mine = and(eq(devicePrekeys.userId, device.userId), eq(devicePrekeys.deviceId, device.deviceId));
  if (signed) {
    // Insert first, then drop the older one: a bundle asked in between always finds a signed prekey.
    await db
      .insert(devicePrekeys)
      .values({ ...device, kind: "signed", ...signed })
      .onConflictDoUpdate({
        target: [devicePrekeys.userId, devicePrekeys.deviceId, devicePrekeys.kind, devicePrekeys.keyId],
        set: { publicKey: signed.publicKey, signature: signed.signature },
      });
    await db.delete(devicePrekeys).where(and(mine, eq(devicePrekeys.kind, "signed"), ne(devicePrekeys.keyId, signed.keyId)));
  }
  // D1 binds at most 100 parameters per statement: 15 rows of 6 at a time.
  for (let i = 0; i < oneTime.length; i += 15)
    await db
      .insert(devicePrekeys)
      .values(oneTime.slice(i, i + 15).map((k) => ({ ...device, kind: "one-time" as const, ...k })))
      .onConflictDoNothing();
}

/** The signed prekey id and how many one-time prekeys wait, for one device. */
export async function prekeyStatus(db: Db, userId: string, deviceId: string) {
  const rows = await db
    .select({ kind: devicePrekeys.kind, keyId: devicePrekeys.keyId })
    .from(devicePrekeys)
    .where(and(eq(devicePrekeys.userId, userId), eq(devicePrekeys.deviceId, deviceId)))
    .all();
  return {
    signedPrekeyId: rows.find((r) => r.kind === "signed")?.keyId ?? null,
    oneTimePrekeys: rows.filter((r) => r.kind === "one-time").length,
  };
}

export async function signedPrekeysOf(db: Db, userId: string) {
  return db
    .select({
      deviceId: devicePrekeys.deviceId,
      keyId: devicePrekeys.keyId,
      publicKey: devicePrekeys.publicKey,
      signature: devicePrekeys.signature,
    })
    .from(devicePrekeys)
    .where(and(eq(devicePrekeys.userId, userId), eq(devicePrekeys.kind, "signed")))
    .all();
}

/**
 * Takes one one-time prekey of a device out of the table and returns it, or undefined when none is left. One
 * DELETE … RETURNING statement, so two requests at the same moment never receive the same prekey.
 */
export async function takeOneTimePrekey(db: Db, userId: string, deviceId: string) {
  const mine = and(eq(devicePrekeys.userId, userId), eq(devicePrekeys.deviceId, deviceId), eq(devicePrekeys.kind, "one-time"));
  const first = db.select({ keyId: devicePrekeys.keyId }).from(devicePrekeys).where(mine).orderBy(devicePrekeys.keyId).limit(1);
  const [taken] = await db
    .delete(devicePrekeys)
    .where(and(mine, eq(devicePrekeys.keyId, first)))
    .returning({ keyId: devicePrekeys.keyId, publicKey: devicePrekeys.publicKey });
  return taken;
}

// ---------------------------------------------------------------- what the rooms' batches wrote

/** Sockets open in a room, as of its last batch (docs/decisions/056-the-room-is-the-record-of-its-messages.md). */
export async function countActiveConnections(db: Db, roomId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`coalesce(sum(${roomPresence.sockets}), 0)` })
    .from(roomPresence)
    .where(eq(roomPresence.roomId, roomId))
    .get();
  return Number(row?.n ?? 0);
}

/** Public area rooms with their member counts: those whose cell starts with one of `prefixes`, or the largest. */
export async function listAreaRooms(db: Db, opts: { prefixes?: string[]; limit: number }) {
  const memberCount = sql<number>`(select count(*) from room_members m where m.room_id = ${rooms.id})`;
  const inRegion = opts.prefixes?.length
    ? sql.join(
        opts.prefixes.map((p) => sql`${rooms.id} like ${`nearby:${p}%`}`),
        sql` or `,
      )
    : undefined;
  return db
    .select({ id: rooms.id, name: rooms.name, memberCount })
    .from(rooms)
    .where(inRegion ? and(eq(rooms.kind, "nearby"), sql`(${inRegion})`) : eq(rooms.kind, "nearby"))
    .orderBy(desc(memberCount))
    .limit(opts.limit)
    .all();
}

/**
 * The rooms where the person may have a socket open: where the rooms' last batches saw them, and every room
 * they belong to (a socket opened since the last batch is not in the batch yet).
 */
export async function openConnectionRoomsOf(db: Db, userId: string): Promise<string[]> {
  const [present, member] = await Promise.all([
    db.select({ roomId: roomPresence.roomId }).from(roomPresence).where(eq(roomPresence.userId, userId)).all(),
    db.select({ roomId: roomMembers.roomId }).from(roomMembers).where(eq(roomMembers.userId, userId)).all(),
  ]);
  return [...new Set([...present, ...member].map((r) => r.roomId))];
}
