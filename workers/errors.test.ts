// The one table from domain refusal codes to HTTP statuses (docs/decisions/045-domain-errors.md).
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { DomainError, ERROR_CODES } from "../core/domain-error";
import { CHANNEL_TEXTS, sosRefusalText } from "../core/ussd-texts";
import { codeForStatus, HTTP_STATUS, onError } from "./errors";

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
    });
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });

  it("go back from a status to the code that sends it", () => {
    for (const code of ERROR_CODES) expect(HTTP_STATUS[codeForStatus(HTTP_STATUS[code])]).toBe(HTTP_STATUS[code]);
    expect(codeForStatus(403)).toBe("forbidden");
    expect(() => codeForStatus(418)).toThrow();
  });

  it("go out over HTTP as { error, ...extra } with the table's status", async () => {
    const app = new Hono().onError(onError);
    app.get("/", () => {
      throw new DomainError("rate_limited", "Slow down", { retryAfterSeconds: 60 });
    });
    const res = await app.request("/");
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: "Slow down", retryAfterSeconds: 60 });
  });

  it("are said on phone channels in the person's language, not the API's English", () => {
    expect(sosRefusalText(CHANNEL_TEXTS.hausa, "rate_limited")).toBe(CHANNEL_TEXTS.hausa.sosTooMany);
    expect(sosRefusalText(CHANNEL_TEXTS.pidgin, "suspended")).toBe(CHANNEL_TEXTS.pidgin.suspended);
    expect(sosRefusalText(CHANNEL_TEXTS.yoruba, "not_found")).toBe(CHANNEL_TEXTS.yoruba.refused);
  });
});
