// The one table from refusal kinds to HTTP statuses (docs/decisions/045-domain-errors.md), and the code every
// refusal carries (docs/decisions/075-errors-as-codes.md).
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { HTTPException } from "hono/http-exception";
import { API_ERROR_CODES, API_ERRORS, ApiErrorBodySchema } from "../core/api-errors";
import { DomainError, ERROR_KINDS } from "../core/domain-error";
import { CHANNEL_TEXTS, sosRefusalText } from "../core/ussd-texts";
import { HTTP_STATUS, notFound, onError, parseWith } from "./errors";
import { z } from "zod";

describe("domain error codes", () => {
  it("give the statuses clients already rely on", () => {
    expect(HTTP_STATUS).toEqual({
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
    });
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_KINDS].sort());
  });

  it("are snake_case and each has a kind with a status", () => {
    for (const code of API_ERROR_CODES) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(HTTP_STATUS[API_ERRORS[code]]).toBeGreaterThanOrEqual(400);
    }
  });

  it("go out over HTTP as { error, code, values, ...extra } with the kind's status", async () => {
    const app = new Hono().onError(onError);
    app.get("/", () => {
      throw new DomainError("too_many_sos", "Slow down", { retryAfterSeconds: 60, values: { minutes: 1 } });
    });
    const res = await app.request("/");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(await res.json()).toEqual({ error: "Slow down", code: "too_many_sos", values: { minutes: 1 }, retryAfterSeconds: 60 });
  });

  it("leave no answer of the error handler without a code", async () => {
    const app = new Hono().onError(onError).notFound(notFound);
    app.get("/domain", () => {
      throw new DomainError("room_not_found", "Room not found");
    });
    app.get("/hono", () => {
      throw new HTTPException(405, { message: "Nope" });
    });
    app.get("/crash", () => {
      throw new Error("boom");
    });
    app.get("/invalid", (c) => c.json(parseWith(z.object({ unit: z.string() }), {})));
    for (const path of ["/domain", "/hono", "/crash", "/invalid", "/nowhere"]) {
      const res = await app.request(path);
      const body = ApiErrorBodySchema.safeParse(await res.json());
      expect(body.success, path).toBe(true);
    }
    const invalid = await (await app.request("/invalid")).json();
    expect(invalid).toMatchObject({ code: "invalid_request", values: { field: "unit" } });
  });

  it("are said on phone channels in the person's language, not the API's English", () => {
    expect(sosRefusalText(CHANNEL_TEXTS.hausa, "rate_limited")).toBe(CHANNEL_TEXTS.hausa.sosTooMany);
    expect(sosRefusalText(CHANNEL_TEXTS.pidgin, "suspended")).toBe(CHANNEL_TEXTS.pidgin.suspended);
    expect(sosRefusalText(CHANNEL_TEXTS.yoruba, "not_found")).toBe(CHANNEL_TEXTS.yoruba.refused);
  });
});
