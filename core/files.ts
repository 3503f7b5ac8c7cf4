// Files sent in rooms (docs/decisions/022b-encrypted-files-in-rooms.md): the sender's device encrypts a file in
// chunks with a fresh key; the server stores only the ciphertext (R2 multipart) and decides who may send and fetch.
// Shared by the Worker and the browser.
import { z } from "zod";
import { TIER_LIMITS, TRIAL_DAYS, type Tier } from "./constants";
import { RoomIdSchema } from "./rooms";

const MiB = 1024 * 1024;

/** Plaintext bytes per encrypted chunk; each chunk carries a 16-byte AES-GCM tag. */
export const FILE_CHUNK_BYTES = MiB;
export const FILE_TAG_BYTES = 16;
/**
 * Chunks per R2 part. R2 wants every part but the last to be at least 5 MiB and of one size, so a part is five
 * whole encrypted chunks (5 MiB + 80 bytes) and a resumed upload restarts at most 5 MiB.
 */
export const FILE_CHUNKS_PER_PART = 5;
export const FILE_PART_BYTES = FILE_CHUNKS_PER_PART * (FILE_CHUNK_BYTES + FILE_TAG_BYTES);
/** No tier sends more than this (Premium's limit). */
export const FILE_MAX_BYTES = 100 * MiB;

/** How many chunks a file of `size` plaintext bytes makes (an empty file is one empty chunk). */
export function chunkCountFor(size: number): number {
  return Math.max(1, Math.ceil(size / FILE_CHUNK_BYTES));
}

export function partCountFor(chunkCount: number): number {
  return Math.ceil(chunkCount / FILE_CHUNKS_PER_PART);
}

/** The exact ciphertext bytes of part `n` (1-based) of a file: the server refuses any other length. */
export function partBytesFor(size: number, n: number): number {
  const chunks = chunkCountFor(size);
  const first = (n - 1) * FILE_CHUNKS_PER_PART;
  const last = Math.min(chunks, first + FILE_CHUNKS_PER_PART);
  if (n < 1 || first >= chunks) return 0;
  const plain = Math.min(size, last * FILE_CHUNK_BYTES) - first * FILE_CHUNK_BYTES;
  return plain + (last - first) * FILE_TAG_BYTES;
}

/** Per-tier file limits: transfers a month (null: unlimited) and the largest file. */
export function fileLimitsFor(tier: Tier): { transfersPerMonth: number | null; maxBytes: number } {
  return { transfersPerMonth: TIER_LIMITS[tier].fileTransfers, maxBytes: TIER_LIMITS[tier].fileMaxBytes };
}

export function formatMegabytes(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}

export const FILE_TEXTS = {
  /** The toast title when verification is required for file sharing or downloading. */
  premiumFeatureTitle: "Premium Feature",
  verificationRequired: "Verify your phone number to share files.",
  downloadVerificationRequired: "Verify your phone number to download this file.",
  tooLarge: `Files can be at most ${formatMegabytes(FILE_MAX_BYTES)}.`,
  communityTooLarge: `Files over ${formatMegabytes(TIER_LIMITS.free.fileMaxBytes)} are a Premium feature. Upgrade to Premium for files up to ${formatMegabytes(TIER_LIMITS.premium.fileMaxBytes)} — try it free for ${TRIAL_DAYS} days.`,
  communityMonthFull: `You've used your ${TIER_LIMITS.free.fileTransfers} free file transfers for this month. Upgrade to Premium for ${TIER_LIMITS.premium.fileTransfers} a month — try it free for ${TRIAL_DAYS} days.`,
  monthFull: (limit: number) => `You've used your ${limit} file transfers for this month. They renew on the 1st.`,
  notSent: "This file was not sent (yet).",
} as const;

/** POST /api/files: the sender declares the room and the plaintext size; the name travels only sealed. */
export const CreateUploadSchema = z.object({
  roomId: RoomIdSchema,
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  chunkCount: z.number().int().min(1).max(1_000_000),
  mime: z
    .string()
    .max(100)
    .regex(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i, "Not a MIME type"),
  kind: z.enum(["file", "voice"]).default("file"),
  /** A voice note of an area room: the recording the assistant transcribed (POST /api/ai/voice), which it replaces. */
  voiceId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,32}$/)
    .optional(),
});
export type CreateUpload = z.infer<typeof CreateUploadSchema>;

export const FileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,32}$/);
export const PartNumberSchema = z.coerce.number().int().min(1).max(10_000);

export interface FileInfo {
  id: string;
  roomId: string;
  ownerId: string;
  kind: "file" | "voice";
  /** Plaintext bytes. */
  size: number;
  mime: string;
  state: "uploading" | "ready";
  encryptionLevel: "premium" | "standard";
  downloadCount: number;
  createdAt: number;
  partCount: number;
}

export interface CreateUploadAnswer {
  file: FileInfo;
  /** File transfers (or, for a voice note, voice messages) this month, and the tier's limit. */
  usedThisMonth: number;
  monthlyLimit: number | null;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/** What a file message carries inside the (sealed, in private rooms) chat message: everything to fetch and open it. */
export const FileMessageSchema = z.object({
  fileId: FileIdSchema,
  name: z.string().min(1).max(255),
  size: z.number().int().min(0),
  mime: z.string().max(100),
  /** Raw AES-256-GCM key, base64url. */
  key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  chunkSize: z.literal(FILE_CHUNK_BYTES),
  /** SHA-256 of the plaintext, hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** A small JPEG data URL made on the sender's device, for images. */
  // Small enough that the whole message fits an envelope's text (8,000 characters).
  thumbnail: z
    .string()
    .max(6_000)
    .regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/)
    .optional(),
  kind: z.enum(["file", "voice"]).default("file"),
  /** Voice notes in area rooms: the transcript made by the assistant. */
  transcript: z.string().max(4000).optional(),
});
export type FileMessage = z.infer<typeof FileMessageSchema>;

/** File sizes in Bytes, KB, MB, GB with 1024 units. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}

/** A file message travels as the text of an ordinary (sealed, in private rooms) message with this prefix. */
export const FILE_MESSAGE_PREFIX = "linkup:file:";

export function fileMessageText(m: FileMessage): string {
  return FILE_MESSAGE_PREFIX + JSON.stringify(m);
}

/** The file a message carries, or null when it is text (or a file message that does not check out). */
export function parseFileMessage(text: string | null | undefined): FileMessage | null {
  if (!text?.startsWith(FILE_MESSAGE_PREFIX)) return null;
  try {
    const parsed = FileMessageSchema.safeParse(JSON.parse(text.slice(FILE_MESSAGE_PREFIX.length)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
