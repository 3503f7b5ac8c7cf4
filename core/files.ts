// Files sent in rooms (docs/decisions/023-encrypted-files-in-rooms.md): the sender's device encrypts a file in
// chunks with a fresh key; the server stores only the ciphertext (R2 multipart) and decides who may send and fetch.
// Shared by the Worker and the browser.
import { z } from "zod";
import { TIER_LIMITS, type Tier } from "./constants";
import {
  FILE_CHUNK_BYTES,
  FILE_ID_PATTERN,
  FILE_KEY_PATTERN,
  FILE_SHA256_PATTERN,
  FILE_THUMBNAIL_MAX,
  FILE_THUMBNAIL_PATTERN,
  FILE_TRANSCRIPT_MAX,
} from "./files-client";
import { RoomIdSchema } from "./rooms";

// What the browser's chat needs of files lives in files-client.ts (zod/mini, no classic zod on the /chat budget).
export * from "./files-client";

export const FILE_TAG_BYTES = 16;
/**
 * Chunks per R2 part. R2 wants every part but the last to be at least 5 MiB and of one size, so a part is five
 * whole encrypted chunks (5 MiB + 80 bytes) and a resumed upload restarts at most 5 MiB.
 */
export const FILE_CHUNKS_PER_PART = 5;
export const FILE_PART_BYTES = FILE_CHUNKS_PER_PART * (FILE_CHUNK_BYTES + FILE_TAG_BYTES);

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

export const FileIdSchema = z.string().regex(FILE_ID_PATTERN);
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

/** A file message as a schema (the browser checks it with checkFileMessage in files-client.ts; tests keep them alike). */
export const FileMessageSchema = z.object({
  fileId: FileIdSchema,
  name: z.string().min(1).max(255),
  size: z.number().int().min(0),
  mime: z.string().max(100),
  key: z.string().regex(FILE_KEY_PATTERN),
  chunkSize: z.literal(FILE_CHUNK_BYTES),
  sha256: z.string().regex(FILE_SHA256_PATTERN),
  thumbnail: z.string().max(FILE_THUMBNAIL_MAX).regex(FILE_THUMBNAIL_PATTERN).optional(),
  kind: z.enum(["file", "voice"]).default("file"),
  transcript: z.string().max(FILE_TRANSCRIPT_MAX).optional(),
});
