// Request bodies: every one is read under a size limit fitting its route, and every one a handler left unread
// is drained or cancelled before the answer goes out (docs/decisions/010-production-is-not-development.md).
import type { Context, MiddlewareHandler } from "hono";
import type { ApiErrorCode, ErrorValues } from "../core/api-errors";
import { FILE_PART_BYTES } from "../core/files";
import { VOICE_MAX_BYTES } from "./assistant/voice-allowance";
import { errorBody } from "./errors";

const KiB = 1024;

/** Small JSON bodies and page forms; the largest real one (an assistant question with history) is ~30 KiB. */
export const JSON_MAX_BYTES = 64 * KiB;
/** Africa's Talking sends a handful of short fields; `text` grows with each answer of a session. */
export const USSD_MAX_BYTES = 8 * KiB;
/** Twilio's WhatsApp webhook: a message of at most 1,600 characters plus its metadata and media URLs. */
export const WHATSAPP_MAX_BYTES = 32 * KiB;

interface Limit {
  bytes: number;
  code: ApiErrorCode;
  error: string;
  values?: ErrorValues;
}

export function bodyLimitFor(path: string): Limit {
  if (path === "/api/ai/voice") return { bytes: VOICE_MAX_BYTES, code: "voice_too_large", error: "Voice messages can be at most 5 MB" };
  // One encrypted part of a file (docs/decisions/023-encrypted-files-in-rooms.md); the handler checks its exact length.
  if (/^\/api\/files\/[^/]+\/parts\/\d+$/.test(path))
    return {
      bytes: FILE_PART_BYTES,
      code: "body_too_large",
      error: "A file part can be at most 5 MB",
      values: { kib: FILE_PART_BYTES / KiB },
    };
  if (path === "/ussd" || path.startsWith("/ussd/"))
    return { bytes: USSD_MAX_BYTES, code: "body_too_large", error: "USSD request too large", values: { kib: USSD_MAX_BYTES / KiB } };
  if (path.startsWith("/webhooks/whatsapp"))
    return {
      bytes: WHATSAPP_MAX_BYTES,
      code: "body_too_large",
      error: "WhatsApp request too large",
      values: { kib: WHATSAPP_MAX_BYTES / KiB },
    };
  return {
    bytes: JSON_MAX_BYTES,
    code: "body_too_large",
    error: `Request body too large (at most ${JSON_MAX_BYTES / KiB} KiB)`,
    values: { kib: JSON_MAX_BYTES / KiB },
  };
}

/**
 * Reads and drops what is left of a body nobody read, so the connection can carry the next request. Cancelling
 * instead is not enough: workerd's local proxy then drops the connection and the next request fails with
 * "Network connection lost" (tests/e2e/hardening.spec.ts). Nothing is kept, and Cloudflare caps bodies at 100 MB.
 */
export async function discardBody(request: Request): Promise<void> {
  const body = request.body;
  if (!body || request.bodyUsed || body.locked) return;
  await drain(body.getReader());
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // The client went away: nothing left to drain.
  }
}

/**
 * The size limit of every request body, before any handler reads it: a declared Content-Length past the limit
 * is refused at once; a chunked body is read up to the limit and handed on as a buffer.
 */
export const limitBodies: MiddlewareHandler = async (c, next) => {
  const raw = c.req.raw;
  if (!raw.body) return next();
  const limit = bodyLimitFor(new URL(raw.url).pathname);
  const declared = raw.headers.get("content-length");
  if (declared !== null && !raw.headers.has("transfer-encoding")) {
    if (Number(declared) > limit.bytes) return tooLarge(c, raw, limit);
    return next();
  }
  const reader = raw.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit.bytes) {
      await drain(reader);
      return c.json(errorBody(limit.code, limit.error, limit.values ? { values: limit.values } : {}), 413);
    }
    chunks.push(value);
  }
  const buffer = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    buffer.set(chunk, at);
    at += chunk.byteLength;
  }
  c.req.raw = new Request(raw, { body: buffer });
  return next();
};

async function tooLarge(c: Context, raw: Request, limit: Limit): Promise<Response> {
  await discardBody(raw);
  return c.json(errorBody(limit.code, limit.error, limit.values ? { values: limit.values } : {}), 413);
}

/** Runs after every handler: whatever body it left unread is drained or cancelled before the answer leaves. */
export const discardUnreadBodies: MiddlewareHandler = async (c, next) => {
  const original = c.req.raw;
  await next();
  await discardBody(original);
  if (c.req.raw !== original) await discardBody(c.req.raw);
};
