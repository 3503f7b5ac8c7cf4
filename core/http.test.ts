import { describe, expect, it } from "vitest";
import { apiRequest, HttpError, queryJson, retryDelay, shouldRetryQuery } from "./http";

const respond = (status: number, body: string, statusText = "") =>
  (async () => new Response(body || null, { status, statusText })) as unknown as typeof fetch;

describe("client request conventions", () => {
  it("turns a non-OK answer into 'status: body', or the status text when the body is empty", async () => {
    await expect(apiRequest("GET", "/x", undefined, respond(429, '{"error":"Too many"}'))).rejects.toThrow('429: {"error":"Too many"}');
    await expect(apiRequest("GET", "/x", undefined, respond(502, "", "Bad Gateway"))).rejects.toThrow("502: Bad Gateway");
    const err = (await apiRequest("GET", "/x", undefined, respond(400, `{"error":"Invalid"}`)).catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.errorText).toBe("Invalid");
  });

  it("sends JSON with a JSON content type only when there is a body, always with credentials", async () => {
    const seen: RequestInit[] = [];
    const fetcher = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response("{}");
    }) as unknown as typeof fetch;
    await apiRequest("POST", "/a", { a: 1 }, fetcher);
    await apiRequest("DELETE", "/b", undefined, fetcher);
    expect(seen[0]).toMatchObject({ credentials: "include", body: '{"a":1}', headers: { "content-type": "application/json" } });
    expect(seen[1].body).toBeUndefined();
    expect(seen[1].headers).toBeUndefined();
  });

  it("retries queries up to 3 times but never on 401 or 403", () => {
    expect(shouldRetryQuery(0, new Error("500: boom"))).toBe(true);
    expect(shouldRetryQuery(2, new Error("500: boom"))).toBe(true);
    expect(shouldRetryQuery(3, new Error("500: boom"))).toBe(false);
    expect(shouldRetryQuery(0, new Error("401: Sign in required"))).toBe(false);
    expect(shouldRetryQuery(0, new Error("403: Forbidden"))).toBe(false);
  });

  it("doubles the retry delay from 1 s up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("loads data with retries, and can turn a 401 into null", async () => {
    let calls = 0;
    const flaky = (async () =>
      ++calls < 3 ? new Response("down", { status: 503 }) : new Response('{"ok":true}')) as unknown as typeof fetch;
    const sleeps: number[] = [];
    expect(await queryJson("/x", { fetcher: flaky, sleep: async (ms) => void sleeps.push(ms) })).toEqual({ ok: true });
    expect(sleeps).toEqual([1000, 2000]);
    expect(await queryJson("/me", { fetcher: respond(401, "no"), on401: "null" })).toBeNull();
    await expect(queryJson("/me", { fetcher: respond(401, "no") })).rejects.toThrow("401: no");
  });
});
