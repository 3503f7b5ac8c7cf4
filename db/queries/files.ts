// Files sent in rooms, their uploaded parts and the monthly transfer count (docs/decisions/023-encrypted-files-in-rooms.md).
import { and, desc, eq, inArray, like, lt, or, sql } from "drizzle-orm";
import type { Db } from "../index";
import { fileParts, files, roomMembers, usageDaily } from "../schema";

export type FileRow = typeof files.$inferSelect;

export async function insertFile(db: Db, row: typeof files.$inferInsert): Promise<FileRow> {
  const [inserted] = await db.insert(files).values(row).returning();
  return inserted;
}

export async function findFile(db: Db, id: string): Promise<FileRow | undefined> {
  return db.select().from(files).where(eq(files.id, id)).get();
}

export async function deleteFileRow(db: Db, id: string): Promise<void> {
  await db.delete(files).where(eq(files.id, id));
}

export async function recordPart(db: Db, fileId: string, partNumber: number, etag: string): Promise<void> {
  await db
    .insert(fileParts)
    .values({ fileId, partNumber, etag })
    .onConflictDoUpdate({
      target: [fileParts.fileId, fileParts.partNumber],
      set: { etag },
    });
}

export async function partsOf(db: Db, fileId: string): Promise<{ partNumber: number; etag: string }[]> {
  return db
    .select({ partNumber: fileParts.partNumber, etag: fileParts.etag })
    .from(fileParts)
    .where(eq(fileParts.fileId, fileId))
    .orderBy(fileParts.partNumber);
}

/** The upload is whole: the parts' list is no longer needed, and the file can be fetched. One batch: both or neither. */
export async function markReady(db: Db, fileId: string): Promise<void> {
  await (db as unknown as { batch: (q: readonly unknown[]) => Promise<unknown> }).batch([
    db.update(files).set({ state: "ready", uploadId: null }).where(eq(files.id, fileId)),
    db.delete(fileParts).where(eq(fileParts.fileId, fileId)),
  ]);
}

/**
 * Uploads begun before `before` that never completed, oldest first (the partial index files_uploading_idx,
 * docs/decisions/051-retention.md).
 */
export function unfinishedUploads(db: Db, before: Date, limit: number) {
  return db
    .select({ id: files.id, r2Key: files.r2Key, uploadId: files.uploadId })
    .from(files)
    .where(and(eq(files.state, "uploading"), lt(files.createdAt, before)))
    .orderBy(files.createdAt)
    .limit(limit);
}

/** Removes an unfinished upload's row (its parts go with it) unless it was completed meanwhile. */
export async function deleteUnfinishedUpload(db: Db, id: string): Promise<void> {
  await db.delete(files).where(and(eq(files.id, id), eq(files.state, "uploading")));
}

export async function countDownload(db: Db, fileId: string): Promise<void> {
  await db
    .update(files)
    .set({ downloadCount: sql`${files.downloadCount} + 1` })
    .where(eq(files.id, fileId));
}

/** Files of the rooms the person is in now: every ready file, and their own uploads still under way. */
export async function filesInRoomsOf(db: Db, userId: string, limit = 200): Promise<FileRow[]> {
  const rooms = db.select({ roomId: roomMembers.roomId }).from(roomMembers).where(eq(roomMembers.userId, userId));
  return db
    .select()
    .from(files)
    .where(and(inArray(files.roomId, rooms), or(eq(files.state, "ready"), eq(files.ownerId, userId))))
    .orderBy(desc(files.createdAt))
    .limit(limit);
}

/** The person's voice messages, newest first. */
export function voiceFilesOf(db: Db, ownerId: string, limit = 20) {
  return db
    .select({ id: files.id, transcript: files.transcript, size: files.size, createdAt: files.createdAt })
    .from(files)
    .where(and(eq(files.ownerId, ownerId), eq(files.kind, "voice")))
    .orderBy(desc(files.createdAt))
    .limit(limit)
    .all();
}

export async function setTranscript(db: Db, fileId: string, transcript: string): Promise<void> {
  await db.update(files).set({ transcript }).where(eq(files.id, fileId));
}

/** File transfers are counted per UTC calendar month: the sum of the month's daily rows. */
export async function fileTransfersThisMonth(db: Db, userId: string, now: Date): Promise<number> {
  const month = now.toISOString().slice(0, 7);
  const row = await db
    .select({ total: sql<number>`coalesce(sum(${usageDaily.fileTransfers}), 0)` })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), like(usageDaily.date, `${month}-%`)))
    .get();
  return Number(row?.total ?? 0);
}

/**
 * Counts one file transfer on `now`'s day if the month's transfers are still under `limit` (null: no limit). The
 * day's row exists first; the count is one conditional update over the month's rows, so parallel uploads never
 * pass the limit (docs/decisions/047-limits-taken-atomically.md). Whether it was counted.
 */
export async function takeFileTransfer(db: Db, userId: string, now: Date, limit: number | null): Promise<boolean> {
  const date = now.toISOString().slice(0, 10);
  await db.insert(usageDaily).values({ userId, date, fileTransfers: 0 }).onConflictDoNothing();
  const monthUsed = sql`(select coalesce(sum(m.file_transfers), 0) from usage_daily m
    where m.user_id = ${userId} and m.date like ${`${date.slice(0, 7)}-%`})`;
  const rows = await db
    .update(usageDaily)
    .set({ fileTransfers: sql`${usageDaily.fileTransfers} + 1` })
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, date), limit === null ? undefined : sql`${monthUsed} < ${limit}`))
    .returning({ userId: usageDaily.userId });
  return rows.length > 0;
}

/** Gives back a transfer counted on `now`'s day (the upload could not be opened), never below zero. */
export async function giveBackFileTransfer(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(usageDaily)
    .set({ fileTransfers: sql`max(${usageDaily.fileTransfers} - 1, 0)` })
    .where(and(eq(usageDaily.userId, userId), eq(usageDaily.date, now.toISOString().slice(0, 10))));
}
