import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

/** A refusal the client should see: its message goes out as `{ error }`, with any extra fields. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Parses a JSON body against a schema: malformed JSON and wrong types are 400s with a clear message. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(400, "Malformed JSON body");
  }
  return parseWith(schema, raw);
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    throw new ApiError(400, `Invalid request: ${where}${first?.message ?? "bad input"}`);
  }
  return parsed.data;
}

/** The one error handler of every Hono app: known errors as the JSON envelope, the rest a generic 500. */
export function onError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return c.json({ error: err.message, ...err.extra }, err.status);
  if (err instanceof HTTPException) {
    if (err.res) return err.res;
    return c.json({ error: err.message || "Request refused" }, err.status);
  }
  console.error("Unhandled error", c.req.method, new URL(c.req.url).pathname, err);
  return c.json({ error: "Internal server error" }, 500);
}

export function notFound(c: Context): Response {
  return c.json({ error: "Not found" }, 404);
}
