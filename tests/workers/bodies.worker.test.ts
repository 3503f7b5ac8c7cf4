// Request bodies are read only under a limit fitting the route: past it, 413 with the JSON error envelope,
// whether the size is declared (Content-Length) or the body is streamed without one.
import { describe, expect, it } from "vitest";
import { JSON_MAX_BYTES, USSD_MAX_BYTES, WHATSAPP_MAX_BYTES } from "../../workers/body";
import { anonymousSession, call } from "./helpers";

const stream = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      // Several chunks, as a slow client would send them.
      for (let left = bytes; left > 0; left -= 16_384) controller.enqueue(new TextEncoder().encode("a".repeat(Math.min(left, 16_384))));
      controller.close();
    },
  });

describe("body limits", () => {
  it("refuses a JSON body past the limit with 413, declared or streamed, and still takes one within it", async () => {
    const { cookie } = await anonymousSession();
    const big = JSON.stringify({ nickname: "Ada", pad: "x".repeat(JSON_MAX_BYTES) });
    const declared = await call("/api/me", { method: "PATCH", cookie, headers: { "content-type": "application/json" }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      error: "Request body too large (at most 64 KiB)",
      code: "body_too_large",
      values: { kib: 64 },
    });

    const streamed = await call("/api/me", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "application/json" },
      body: stream(JSON_MAX_BYTES + 1),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({
      error: "Request body too large (at most 64 KiB)",
      code: "body_too_large",
      values: { kib: 64 },
    });

    // A streamed body within the limit reaches the handler whole.
    const body = JSON.stringify({ nickname: "Streamed", pad: "x".repeat(40_000) });
    const ok = await call("/api/me", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "application/json" },
      body: new Blob([body]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(ok.status).toBe(200);
    expect((await ok.json<{ user: { nickname: string } }>()).user.nickname).toBe("Streamed");
  });

  it("keeps the USSD and WhatsApp forms to a few KiB", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const ussd = await call("/ussd", {
      method: "POST",
      headers: form,
      body: `sessionId=s&phoneNumber=%2B2348000000001&text=${"1*".repeat(USSD_MAX_BYTES)}`,
    });
    expect(ussd.status).toBe(413);
    expect(await ussd.json()).toMatchObject({ error: "USSD request too large", code: "body_too_large" });
    const whatsapp = await call("/webhooks/whatsapp", {
      method: "POST",
      headers: form,
      body: stream(WHATSAPP_MAX_BYTES + 1),
      duplex: "half",
    } as RequestInit);
    expect(whatsapp.status).toBe(413);
    expect(await whatsapp.json()).toMatchObject({ error: "WhatsApp request too large", code: "body_too_large" });
  });

  it("gives voice uploads their own limit, also when streamed", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/ai/voice", {
      method: "POST",
      cookie,
      headers: { "content-type": "audio/webm" },
      body: stream(5 * 1024 * 1024 + 1),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Voice messages can be at most 5 MB", code: "voice_too_large" });
  });
});
