import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { DomainError, type ErrorCode } from "../core/domain-error";
import { currentRequestId } from "./logs";

/** How each domain refusal goes out over HTTP: the one table (docs/decisions/045-domain-errors.md). */
export const HTTP_STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  suspended: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  upgrade_required: 426,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
  upstream_timeout: 504,
};

const CODE_FOR_STATUS = new Map<number, ErrorCode>();
for (const [code, status] of Object.entries(HTTP_STATUS) as [ErrorCode, ContentfulStatusCode][]) {
  if (!CODE_FOR_STATUS.has(status)) CODE_FOR_STATUS.set(status, code);
}

/** The code for a status, for the few refusal results that still carry a status (verification, two-factor, voice). */
export function codeForStatus(status: number): ErrorCode {
  const code = CODE_FOR_STATUS.get(status);
  if (!code) throw new Error(`No domain error code for HTTP status ${status}`);
  return code;
}

/** Parses a JSON body against a schema: malformed JSON and wrong types are 400s with a clear message. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new DomainError("invalid", "Malformed JSON body");
  }
  return parseWith(schema, raw);
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    // A rule's own refusal (a custom issue naming a code, e.g. a reserved nickname) is worded for the person: as is.
    const own = first?.code === "custom" ? (first.params as { code?: unknown } | undefined)?.code : undefined;
    if (typeof own === "string") throw new DomainError("invalid", first.message, { code: own });
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    throw new DomainError("invalid", `Invalid request: ${where}${first?.message ?? "bad input"}`);
  }
  return parsed.data;
}

/** The one error handler of every Hono app: known errors as the JSON envelope, the rest a generic 500. */
export function onError(err: Error, c: Context): Response {
  if (err instanceof DomainError) {
    // A limit says when to come back; the header says it to every HTTP client (RFC 9110 §10.2.3).
    const retry = err.extra.retryAfterSeconds;
    if (typeof retry === "number") c.header("Retry-After", String(retry));
    return c.json({ error: err.message, ...err.extra }, HTTP_STATUS[err.code]);
  }
  if (err instanceof HTTPException) {
    if (err.res) return err.res;
    return c.json({ error: err.message || "Request refused" }, err.status);
  }
  // The stack stays in the log line; the answer names only the request, for a person to quote to support.
  console.error("Unhandled error", c.req.method, new URL(c.req.url).pathname, err);
  return c.json({ error: "Internal server error", requestId: currentRequestId() ?? null }, 500);
}

export function notFound(c: Context): Response {
  return c.json({ error: "Not found" }, 404);
}
