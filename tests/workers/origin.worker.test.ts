// Cross-site requests: mutating /api calls need a same-site Origin or a content type no cross-site form can
// send; WebSocket upgrades from another site's page are refused.
import { describe, expect, it } from "vitest";
import { anonymousSession, call, ORIGIN } from "./helpers";

describe("mutating /api requests", () => {
  it("refuses a form-typed body without an Origin, as an old browser's cross-site form would send it", async () => {
    for (const type of ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]) {
      const res = await call("/api/auth/anonymous", { method: "POST", headers: { "content-type": type }, body: "a=1" });
      expect(res.status, type).toBe(415);
      expect((await res.json<{ error: string }>()).error).toMatch(/application\/json/);
    }
  });

  it("takes JSON without an Origin, and anything from the site's own Origin", async () => {
    const json = await call("/api/auth/anonymous", { method: "POST", json: {} });
    expect(json.status).toBe(201);
    const same = await call("/api/auth/anonymous", { method: "POST", headers: { origin: ORIGIN, "content-type": "text/plain" }, body: "" });
    expect(same.status).toBe(201);
    const { cookie } = await anonymousSession();
    const foreign = await call("/api/me", {
      method: "PATCH",
      cookie,
      json: { nickname: "X" },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const opaque = await call("/api/me", { method: "PATCH", cookie, json: { nickname: "X" }, headers: { origin: "null" } });
    expect(opaque.status).toBe(403);
  });
});

describe("WebSocket upgrades", () => {
  it("refuses another site's Origin before anything else", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/ws/rooms/nearby:s1v0g", { cookie, headers: { upgrade: "websocket", origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Cross-origin WebSocket refused", code: "cross_origin" });
  });
});
