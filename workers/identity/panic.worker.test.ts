// Panic mode on the server (issue 15): the session ends at once, the preset SOS goes out only when asked for,
// and a security notice records the use for the next sign-in.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { anonymousSession, call } from "../../tests/workers/helpers";

describe("panic mode", () => {
  it("ends this session and sends no SOS unless asked", async () => {
    const { cookie, user } = await anonymousSession();
    const res = await call("/api/security/panic", { method: "POST", cookie, json: {} });
    expect(await res.json()).toEqual({ ok: true, sos: null });
    expect(res.headers.getSetCookie().join(";")).toMatch(/linkup_session=;|Max-Age=0/);
    expect((await call("/api/me", { cookie })).status).toBe(401);
    const sent = await env.DB.prepare("select count(*) as n from emergency_broadcasts where user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(sent?.n).toBe(0);
    const notice = await env.DB.prepare("select title from notifications where user_id = ?").bind(user.id).first<{ title: string }>();
    expect(notice?.title).toBe("Panic mode used");
  });

  it("sends the preset SOS first when asked, once per request id", async () => {
    const { cookie, user } = await anonymousSession();
    const res = await call("/api/security/panic", { method: "POST", cookie, json: { sendSos: true, clientRequestId: "panic-test-0001" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sos: { id: string } | null }).sos?.id).toBeTruthy();
    const row = await env.DB.prepare("select message from emergency_broadcasts where user_id = ?")
      .bind(user.id)
      .first<{ message: string }>();
    expect(row?.message).toBe("I need help. This SOS was sent by LinkUp panic mode.");
    expect((await call("/api/me", { cookie })).status).toBe(401);
  });

  it("refuses without a session and with a malformed body", async () => {
    expect((await call("/api/security/panic", { method: "POST", json: {} })).status).toBe(401);
    const { cookie } = await anonymousSession();
    const bad = await call("/api/security/panic", { method: "POST", cookie, json: { sendSos: "yes" } });
    expect(bad.status).toBe(400);
    expect((await call("/api/me", { cookie })).status).toBe(200);
  });
});
