// Every refusal leaves the API with a stable code and the values its message needs, beside the English words
// (docs/decisions/075-errors-as-codes.md): a path through each way an error is built (the router, the JSON
// parser, a schema, a guard, a domain module, a body limit, a 402 offer) answers a body core/api-errors.ts accepts.
import { describe, expect, it } from "vitest";
import { ApiErrorBodySchema } from "../../core/api-errors";
import { newId } from "../../core/ids";
import { CATALOGS } from "../../core/i18n/catalogs";
import { formatMessage } from "../../core/i18n/translate";
import { anonymousSession, call } from "./helpers";

async function refusal(res: Response) {
  expect(res.ok).toBe(false);
  const body = await res.json();
  const parsed = ApiErrorBodySchema.safeParse(body);
  expect(parsed.success, JSON.stringify(body)).toBe(true);
  return parsed.data!;
}

describe("API refusals", () => {
  it("carry a code on every way an error is built", async () => {
    const s = await anonymousSession();
    const answers = {
      unknownPath: await call("/api/nothing-here"),
      malformedJson: await call("/api/emergency/broadcast", {
        method: "POST",
        cookie: s.cookie,
        body: "{",
        headers: { "content-type": "application/json" },
      }),
      schema: await call("/api/emergency/broadcast", {
        method: "POST",
        cookie: s.cookie,
        json: { message: "  ", clientRequestId: newId() },
      }),
      signIn: await call("/api/emergency/broadcast", { method: "POST", json: { message: "help", clientRequestId: newId() } }),
      domain: await call(`/api/rooms/${encodeURIComponent("group:nope")}/members`, { cookie: s.cookie }),
      bodyLimit: await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { nickname: "x".repeat(70 * 1024) } }),
      offer: await call("/api/ai/voice", {
        method: "POST",
        cookie: s.cookie,
        body: new Uint8Array(10),
        headers: { "content-type": "audio/webm" },
      }),
    };
    const codes = Object.fromEntries(await Promise.all(Object.entries(answers).map(async ([k, r]) => [k, (await refusal(r)).code])));
    expect(codes).toMatchObject({
      unknownPath: "not_found",
      malformedJson: "malformed_json",
      schema: "invalid_request",
      signIn: "sign_in_required",
      bodyLimit: "body_too_large",
      offer: "voice_premium",
    });
    expect(["room_not_found", "not_member"]).toContain(codes.domain);
  });

  it("name the refused field and the limit, so a screen can say them in its language", async () => {
    const s = await anonymousSession();
    const empty = await refusal(
      await call("/api/emergency/broadcast", { method: "POST", cookie: s.cookie, json: { message: "  ", clientRequestId: newId() } }),
    );
    expect(empty).toMatchObject({ code: "invalid_request", values: { field: "message" } });
    expect(empty.error).toContain("Please describe the emergency");
    const tooBig = await refusal(await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { nickname: "x".repeat(70 * 1024) } }));
    expect(tooBig).toMatchObject({ code: "body_too_large", values: { kib: 64 } });
    // The English catalog's words, filled with the values, are the API's own sentence.
    expect(formatMessage(CATALOGS.english[`errors.${tooBig.code}`], "en", tooBig.values)).toBe(tooBig.error);
    expect(formatMessage(CATALOGS.hausa[`errors.${tooBig.code}`], "ha", tooBig.values)).toContain("64");
  });
});
