// Files in rooms (docs/decisions/023-encrypted-files-in-rooms.md): the server keeps ciphertext in R2 and decides
// who may send (verified, a member, within the tier's size and monthly count) and who may fetch (members now).
import { TIER_LIMITS, TRIAL_DAYS } from "../../core/constants";
import {
  type CreateUpload,
  type CreateUploadAnswer,
  chunkCountFor,
  FILE_MAX_BYTES,
  FILE_TEXTS,
  type FileInfo,
  fileLimitsFor,
  partBytesFor,
  partCountFor,
  type UploadedPart,
} from "../../core/files";
import { faultPoint } from "../../core/faults";
import { newId } from "../../core/ids";
import { roomKind } from "../../core/room-ids";
import type { Db } from "../../db";
import {
  countDownload,
  deleteFileRow,
  type FileRow,
  fileTransfersThisMonth,
  filesInRoomsOf,
  findFile,
  giveBackFileTransfer,
  insertFile,
  markReady,
  partsOf,
  recordPart,
  takeFileTransfer,
} from "../../db/queries/files";
import type { User } from "../../db/schema";
import { recordEvent } from "../analytics";
import type { AppEnv } from "../env";
import { giveBackVoiceMessageOfMonth, voiceMessagesThisMonth } from "../assistant/usage";
import { takeVoiceAllowance, VOICE_MAX_BYTES } from "../assistant/voice-allowance";
import { DomainError } from "../../core/domain-error";
import { requireRoomAccess } from "../rooms/rooms";

/** R2, and the fault-point settings of the crash runs (core/faults.ts; development only). */
type Bucket = Pick<AppEnv, "FILES"> & NonNullable<Parameters<typeof faultPoint>[1]>;

const upgrade = { plan: "premium", trialDays: TRIAL_DAYS };
/** The type a private room's file row keeps: the real one is sealed in the chat message (decision 074). */
export const SEALED_MIME = "application/octet-stream";
/** How long after its transcription a recording can still become an area room's voice note. */
const VOICE_CLAIM_MS = 15 * 60 * 1000;

export function fileInfo(row: FileRow): FileInfo {
  return {
    id: row.id,
    roomId: row.roomId ?? "",
    ownerId: row.ownerId,
    kind: row.kind,
    size: row.size,
    mime: row.mime,
    state: row.state,
    encryptionLevel: row.encryptionLevel,
    downloadCount: row.downloadCount,
    createdAt: row.createdAt.getTime(),
    partCount: row.partCount,
  };
}

/** Seconds to the 1st of next month (UTC), when the month's transfers renew. */
function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Takes one of the month's transfers, or refuses a file the sender's tier does not allow: too large (413, or 402
 * with an offer), or the month is full. The count is one conditional write (docs/decisions/047-limits-taken-atomically.md).
 */
async function takeAllowance(db: Db, user: User, size: number, now: Date): Promise<void> {
  const limits = fileLimitsFor(user.subscriptionTier);
  if (size > FILE_MAX_BYTES) throw new DomainError("file_too_large", FILE_TEXTS.tooLarge);
  if (size > limits.maxBytes)
    throw new DomainError("file_premium_size", FILE_TEXTS.communityTooLarge, { offer: "premium_feature", upgrade });
  if (await takeFileTransfer(db, user.id, now, limits.transfersPerMonth)) return;
  const monthly = limits.transfersPerMonth ?? 0;
  if (user.subscriptionTier === "free")
    throw new DomainError("file_premium_month", FILE_TEXTS.communityMonthFull, { offer: "limit_reached", upgrade });
  throw new DomainError("file_month_full", FILE_TEXTS.monthFull(monthly), {
    values: { limit: monthly },
    retryAfterSeconds: secondsToNextMonth(now),
  });
}

/**
 * A voice note counts as a voice message (Premium 50 a month, Community none), not as a file transfer. In an area
 * room the recording was transcribed and counted by POST /api/ai/voice first; the note replaces that plaintext
 * copy, which is deleted here, once (docs/decisions/023-encrypted-files-in-rooms.md).
 */
async function requireVoiceAllowance(env: Bucket, db: Db, user: User, input: CreateUpload, now: Date): Promise<{ limit: number | null }> {
  if (input.size > VOICE_MAX_BYTES) throw new DomainError("voice_too_large", "Voice messages can be at most 5 MB");
  const limit = TIER_LIMITS[user.subscriptionTier].voiceMessages;
  if (input.voiceId) {
    const recording = await findFile(db, input.voiceId);
    const fresh = recording && now.getTime() - recording.createdAt.getTime() < VOICE_CLAIM_MS;
    if (!fresh || recording.kind !== "voice" || recording.ownerId !== user.id || recording.roomId || roomKind(input.roomId) !== "nearby")
      throw new DomainError("voice_unknown", "Unknown voice recording");
    await env.FILES.delete(recording.r2Key);
    await deleteFileRow(db, recording.id);
  } else {
    const refused = await takeVoiceAllowance(db, user, now);
    if (refused)
      throw new DomainError(refused.body.code, refused.body.error, {
        values: refused.body.values,
        offer: refused.body.offer,
        upgrade: refused.body.upgrade,
      });
  }
  return { limit };
}

/** Starts an upload: checks the room and the allowance, counts the transfer and opens an R2 multipart upload. */
export async function createUpload(env: Bucket, db: Db, user: User, input: CreateUpload, now = new Date()): Promise<CreateUploadAnswer> {
  await requireRoomAccess(db, user, input.roomId);
  if (input.chunkCount !== chunkCountFor(input.size))
    throw new DomainError("chunk_count", "Invalid request: chunkCount does not match size");
  if (input.kind === "voice" || input.voiceId) {
    const { limit } = await requireVoiceAllowance(env, db, user, { ...input, kind: "voice" }, now);
    const row = await openUpload(env, db, user, { ...input, kind: "voice" }).catch(async (e: unknown) => {
      if (!input.voiceId) await giveBackVoiceMessageOfMonth(db, user.id, now);
      throw e;
    });
    const used = await voiceMessagesThisMonth(db, user.id, now);
    return { file: fileInfo(row), usedThisMonth: used, monthlyLimit: limit };
  }
  await takeAllowance(db, user, input.size, now);
  const row = await openUpload(env, db, user, input).catch(async (e: unknown) => {
    await giveBackFileTransfer(db, user.id, now);
    throw e;
  });
  const used = await fileTransfersThisMonth(db, user.id, now);
  return { file: fileInfo(row), usedThisMonth: used, monthlyLimit: fileLimitsFor(user.subscriptionTier).transfersPerMonth };
}

async function openUpload(env: Bucket, db: Db, user: User, input: CreateUpload): Promise<FileRow> {
  const id = newId();
  const r2Key = `rooms/${input.roomId}/${id}`;
  const upload = await env.FILES.createMultipartUpload(r2Key, { httpMetadata: { contentType: "application/octet-stream" } });
  // Dying here leaves a multipart upload no row names: R2 aborts it 7 days after it began
  // (docs/decisions/055-webhooks-and-files-survive-a-crash.md); the sender's retry opens a new one.
  await faultPoint("file.opened", env);
  // In a private room the kind and MIME type travel only in the sealed chat message (decision 074): the row keeps
  // placeholders. The request's kind still chose the allowance above (a voice note counts as a voice message).
  const sealed = roomKind(input.roomId) !== "nearby";
  const row = await insertFile(db, {
    id,
    ownerId: user.id,
    kind: sealed ? "file" : input.kind,
    // The name is sealed in the chat message; the server keeps none.
    name: "",
    size: input.size,
    mime: sealed ? SEALED_MIME : input.mime,
    r2Key,
    roomId: input.roomId,
    uploadId: upload.uploadId,
    state: "uploading",
    partCount: partCountFor(input.chunkCount),
    // Private rooms are end-to-end encrypted; area rooms are public (docs/architecture.md §5).
    encryptionLevel: roomKind(input.roomId) === "nearby" ? "standard" : "premium",
  });
  // Dying here leaves a row the sender never heard of: the Cron aborts it after a day (cleanUnfinishedUploads).
  await faultPoint("file.recorded", env);
  return row;
}

/** The sender's upload still under way; anyone else gets 404 (they have no business knowing of it). */
async function ownUpload(db: Db, user: User, id: string): Promise<FileRow & { uploadId: string }> {
  const row = await findFile(db, id);
  if (!row || row.ownerId !== user.id || !row.roomId) throw new DomainError("file_not_found", "File not found");
  if (row.state !== "uploading" || !row.uploadId) throw new DomainError("upload_complete", "This upload is already complete");
  return row as FileRow & { uploadId: string };
}

/** Stores part `n`; its length must be exactly the part's (docs/decisions/023-encrypted-files-in-rooms.md). */
export async function uploadPart(env: Bucket, db: Db, user: User, id: string, n: number, body: ArrayBuffer): Promise<UploadedPart> {
  const row = await ownUpload(db, user, id);
  if (n > row.partCount) throw new DomainError("part_count", `This file has ${row.partCount} parts`, { values: { count: row.partCount } });
  const expected = partBytesFor(row.size, n);
  if (body.byteLength !== expected)
    throw new DomainError("part_size", `Part ${n} must be ${expected} bytes`, { values: { part: n, bytes: expected } });
  const upload = env.FILES.resumeMultipartUpload(row.r2Key, row.uploadId);
  const part = await upload.uploadPart(n, body);
  // Dying here: the sender sends the part again, and R2 keeps the last one sent under that number.
  await faultPoint("file.part-stored", env);
  await recordPart(db, id, n, part.etag);
  return { partNumber: n, etag: part.etag };
}

/** The parts the server has, so a sender continues after a dropped connection. */
export async function uploadedParts(db: Db, user: User, id: string): Promise<UploadedPart[]> {
  await ownUpload(db, user, id);
  return partsOf(db, id);
}

/**
 * Completes the upload; a retry gets the same answer (docs/decisions/055-webhooks-and-files-survive-a-crash.md):
 * after the file was marked ready, and after R2 completed it but the Worker died before marking it.
 */
export async function completeUpload(env: Bucket, db: Db, user: User, id: string): Promise<FileInfo> {
  const done = await findFile(db, id);
  if (done?.state === "ready" && done.ownerId === user.id && done.roomId) return fileInfo(done);
  const row = await ownUpload(db, user, id);
  const parts = await partsOf(db, id);
  const missing = Array.from({ length: row.partCount }, (_, i) => i + 1).filter((n) => !parts.some((p) => p.partNumber === n));
  if (missing.length > 0)
    throw new DomainError("parts_missing", `Parts still missing: ${missing.join(", ")}`, {
      missing,
      values: { parts: missing.join(", ") },
    });
  try {
    await env.FILES.resumeMultipartUpload(row.r2Key, row.uploadId).complete(parts);
  } catch (e) {
    // R2 completed it on an earlier try (the upload is gone, the object is whole): only the marking is left.
    const object = await env.FILES.head(row.r2Key);
    if (object?.size !== row.size && object?.size !== expectedBytes(row)) throw e;
  }
  await faultPoint("file.completed", env);
  await markReady(db, id);
  await faultPoint("file.ready", env);
  await recordEvent(db, "file", { userId: user.id });
  return fileInfo({ ...row, state: "ready", uploadId: null });
}

/** The stored object's length: every part's exact length (the ciphertext is longer than the file). */
function expectedBytes(row: FileRow): number {
  let total = 0;
  for (let n = 1; n <= row.partCount; n++) total += partBytesFor(row.size, n);
  return total;
}

/** The ciphertext, for a member of the file's room now (a removed member gets 403). */
export async function openDownload(
  env: Bucket,
  db: Db,
  user: User,
  id: string,
): Promise<{ row: FileRow; body: ReadableStream; size: number }> {
  const row = await findFile(db, id);
  if (!row?.roomId || row.state !== "ready") throw new DomainError("file_not_found", "File not found");
  await requireRoomAccess(db, user, row.roomId);
  // A premium-encryption file needs a verified phone to download (docs/decisions/023-encrypted-files-in-rooms.md).
  if (row.encryptionLevel === "premium" && user.authMode !== "verified")
    throw new DomainError("file_download_verify", FILE_TEXTS.downloadVerificationRequired);
  const object = await env.FILES.get(row.r2Key);
  if (!object) throw new DomainError("file_not_found", "File not found");
  await countDownload(db, id);
  return { row, body: object.body, size: object.size };
}

/** The sender deletes a file: the R2 object (or the unfinished upload) and its row go. */
export async function deleteFile(env: Bucket, db: Db, user: User, id: string): Promise<void> {
  const row = await findFile(db, id);
  if (!row || row.ownerId !== user.id || !row.roomId) throw new DomainError("file_not_found", "File not found");
  if (row.state === "uploading" && row.uploadId) await env.FILES.resumeMultipartUpload(row.r2Key, row.uploadId).abort();
  else await env.FILES.delete(row.r2Key);
  await deleteFileRow(db, id);
}

export async function listFiles(db: Db, user: User): Promise<FileInfo[]> {
  return (await filesInRoomsOf(db, user.id)).map(fileInfo);
}
