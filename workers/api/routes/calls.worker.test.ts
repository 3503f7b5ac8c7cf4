// GET /api/calls/ice-servers: Cloudflare TURN faked at its HTTP edge (outbound fetch), public STUN in production
// without a key, host candidates only in development, and only for verified phones.
import { createExecutionContext, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { anonymousSession, call, ORIGIN, verifiedSession } from "../../../tests/workers/helpers";
import type { AppEnv } from "../../env";
import { api } from "../index";

const TURN_ANSWER = {
  iceServers: [
    { urls: ["stun:stun.cloudflare.com:3478", "stun:stun.cloudflare.com:53"] },
    {
      urls: [
        "turn:turn.cloudflare.com:3478?transport=udp",
        "turn:turn.cloudflare.com:53?transport=udp",
        "turns:turn.cloudflare.com:443?transport=tcp",
      ],
      username: "short-lived-user",
      credential: "short-lived-secret",
    },
  ],
};

/** The API with extra bindings, as the Worker would run it. */
async function iceServers(cookie: string, bindings: Partial<AppEnv>) {
  const req = new Request(`${ORIGIN}/calls/ice-servers`, { headers: { cookie } });
  return api.fetch(req, { ...env, ...bindings } as AppEnv, createExecutionContext());
}

afterEach(() => vi.restoreAllMocks());

describe("ICE servers for calls", () => {
  it("makes short-lived Cloudflare TURN credentials with the key, without ever showing the key", async () => {
    const { cookie } = await verifiedSession("0809");
    const sent: { url: string; auth: string | null; body: unknown }[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const req = new Request(input, init);
      if (!req.url.startsWith("https://rtc.live.cloudflare.com/")) return realFetch(input, init);
      sent.push({ url: req.url, auth: req.headers.get("authorization"), body: await req.json() });
      return Response.json(TURN_ANSWER, { status: 201 });
    });
    const res = await iceServers(cookie, { TURN_KEY_ID: "turn-key-id", TURN_KEY_API_TOKEN: "turn-api-token" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(text).not.toContain("turn-api-token");
    expect(JSON.parse(text)).toEqual({
      relay: "turn",
      ttl: 14400,
      // Port 53 is blocked by browsers: dropped.
      iceServers: [
        { urls: ["stun:stun.cloudflare.com:3478"] },
        {
          urls: ["turn:turn.cloudflare.com:3478?transport=udp", "turns:turn.cloudflare.com:443?transport=tcp"],
          username: "short-lived-user",
          credential: "short-lived-secret",
        },
      ],
    });
    expect(sent).toEqual([
      {
        url: "https://rtc.live.cloudflare.com/v1/turn/keys/turn-key-id/credentials/generate-ice-servers",
        auth: "Bearer turn-api-token",
        body: { ttl: 14400 },
      },
    ]);
  });

  it("answers a clear 502 when Cloudflare refuses, never a stack trace", async () => {
    const { cookie } = await verifiedSession("0809");
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ error: "bad token" }, { status: 401 }));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await iceServers(cookie, { TURN_KEY_ID: "turn-key-id", TURN_KEY_API_TOKEN: "wrong" });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: "Call relay credentials are unavailable right now. Try again in a moment.",
      code: "call_relay_unavailable",
    });
  });

  it("hands out public STUN in production without a key, and host candidates only in development", async () => {
    const { cookie } = await verifiedSession("0809");
    const production = await iceServers(cookie, { ENVIRONMENT: "production" });
    expect(await production.json()).toEqual({ relay: "stun", iceServers: [{ urls: ["stun:stun.cloudflare.com:3478"] }] });
    const development = await call("/api/calls/ice-servers", { cookie });
    expect(await development.json()).toEqual({ relay: "none", iceServers: [] });
  });

  it("is for verified phones only", async () => {
    expect((await call("/api/calls/ice-servers")).status).toBe(401);
    const anon = await anonymousSession();
    const res = await call("/api/calls/ice-servers", { cookie: anon.cookie });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "This feature requires phone verification" });
  });
});
