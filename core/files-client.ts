// The part of core/files.ts the browser's chat loads first: file messages, sizes and texts. Free of zod, so the
// chat screen's first load carries no schema library (bench/README.md, bundle); core/files.ts re-exports it all.
import { TIER_LIMITS, TRIAL_DAYS } from "./constants";

export const MiB = 1024 * 1024;

/** Plaintext bytes per encrypted chunk; each chunk carries a 16-byte AES-GCM tag. */
export const FILE_CHUNK_BYTES = MiB;
/** No tier sends more than this (Premium's limit). */
export const FILE_MAX_BYTES = 100 * MiB;

/** File ids as the server makes them. */
export const FILE_ID_PATTERN = /^[A-Za-z0-9_-]{16,32}$/;

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
} as const;

/** What a file message carries inside the (sealed, in private rooms) chat message: everything to fetch and open it. */
export interface FileMessage {
  fileId: string;
  name: string;
  size: number;
  mime: string;
  /** Raw AES-256-GCM key, base64url. */
  key: string;
  chunkSize: typeof FILE_CHUNK_BYTES;
  /** SHA-256 of the plaintext, hex. */
  sha256: string;
  /** A small JPEG data URL made on the sender's device, for images. */
  thumbnail?: string;
  kind: "file" | "voice";
  /** Voice notes in area rooms: the transcript made by the assistant. */
  transcript?: string;
}

// The rules of a file message. core/files.ts writes them as FileMessageSchema too; core/files.test.ts checks
// the two agree. The thumbnail is small enough that the whole message fits an envelope's text (8,000 characters).
export const FILE_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const FILE_SHA256_PATTERN = /^[0-9a-f]{64}$/;
export const FILE_THUMBNAIL_PATTERN = /^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/;
export const FILE_THUMBNAIL_MAX = 6_000;
export const FILE_TRANSCRIPT_MAX = 4000;

const text = (v: unknown, min: number, max: number): v is string => typeof v === "string" && v.length >= min && v.length <= max;
const matches = (v: unknown, pattern: RegExp): v is string => typeof v === "string" && pattern.test(v);

/** The file message in `value`, or null when any field breaks the rules (a peer's message is outside input). */
export function checkFileMessage(value: unknown): FileMessage | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const kind = v.kind === undefined ? "file" : v.kind;
  if (
    !matches(v.fileId, FILE_ID_PATTERN) ||
    !text(v.name, 1, 255) ||
    !(typeof v.size === "number" && Number.isSafeInteger(v.size) && v.size >= 0) ||
    !text(v.mime, 0, 100) ||
    !matches(v.key, FILE_KEY_PATTERN) ||
    v.chunkSize !== FILE_CHUNK_BYTES ||
    !matches(v.sha256, FILE_SHA256_PATTERN) ||
    !(v.thumbnail === undefined || (text(v.thumbnail, 0, FILE_THUMBNAIL_MAX) && FILE_THUMBNAIL_PATTERN.test(v.thumbnail))) ||
    !(kind === "file" || kind === "voice") ||
    !(v.transcript === undefined || text(v.transcript, 0, FILE_TRANSCRIPT_MAX))
  )
    return null;
  const m: FileMessage = {
    fileId: v.fileId,
    name: v.name,
    size: v.size,
    mime: v.mime,
    key: v.key,
    chunkSize: FILE_CHUNK_BYTES,
    sha256: v.sha256,
    kind,
  };
  if (v.thumbnail !== undefined) m.thumbnail = v.thumbnail;
  if (v.transcript !== undefined) m.transcript = v.transcript;
  return m;
}

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
    return checkFileMessage(JSON.parse(text.slice(FILE_MESSAGE_PREFIX.length)));
  } catch {
    return null;
  }
}
