import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { type ApiErrorCode, isApiErrorCode } from "../core/api-errors";
import { DomainError, type ErrorKind } from "../core/domain-error";
import { currentRequestId } from "./logs";

/** How each kind of refusal goes out over HTTP: the one table (docs/decisions/045-domain-errors.md). */
export const HTTP_STATUS: Record<ErrorKind, ContentfulStatusCode> = {
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
  internal: 500,
};

/** Parses a JSON body against a schema: malformed JSON and wrong types are 400s with a clear message. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new DomainError("malformed_json", "Malformed JSON body");
  }
  return parseWith(schema, raw);
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    // A rule's own refusal (a custom issue naming a code, e.g. a reserved nickname) is worded for the person: as is.
    const own = first?.code === "custom" ? (first.params as { code?: unknown } | undefined)?.code : undefined;
    if (isApiErrorCode(own)) throw new DomainError(own, first.message);
    // The field travels as a value: a screen that knows its form says which field is wrong in its own words.
    const field = first?.path.join(".") ?? "";
    const where = field ? `${field}: ` : "";
    throw new DomainError("invalid_request", `Invalid request: ${where}${first?.message ?? "bad input"}`, {
      values: { field, detail: first?.message ?? "bad input" },
    });
  }
  return parsed.data;
}

/** The JSON envelope of every refusal (docs/decisions/075-errors-as-codes.md): English words, a code, its values. */
export function errorBody(code: ApiErrorCode, error: string, extra: Record<string, unknown> = {}) {
  return { ...extra, error, code };
}

/** The one error handler of every Hono app: known errors as the JSON envelope, the rest a generic 500. */
export function onError(err: Error, c: Context): Response {
  if (err instanceof DomainError) {
    // A limit says when to come back; the header says it to every HTTP client (RFC 9110 §10.2.3).
    const retry = err.extra.retryAfterSeconds;
    if (typeof retry === "number") c.header("Retry-After", String(retry));
    return c.json(errorBody(err.code, err.message, err.extra), HTTP_STATUS[err.kind]);
  }
  if (err instanceof HTTPException) {
    if (err.res) return err.res;
    return c.json(errorBody("request_refused", err.message || "Request refused"), err.status);
  }
  // The stack stays in the log line; the answer names only the request, for a person to quote to support.
  console.error("Unhandled error", c.req.method, new URL(c.req.url).pathname, err);
  return c.json(errorBody("internal_error", "Internal server error", { requestId: currentRequestId() ?? null }), 500);
}

export function notFound(c: Context): Response {
  return c.json(errorBody("not_found", "Not found"), 404);
}
