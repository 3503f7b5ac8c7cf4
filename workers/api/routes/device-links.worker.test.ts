// Device links through the real Worker and D1 (docs/protocol.md §2a): only the person's own sessions see a link,
// a code is used once and expires, a person starts at most LINKS_PER_HOUR an hour, and what the server relays
// between the two devices lets the new one open the account key only with the code's secret.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccountKey } from "../../../core/device-list";
import {
  checkLinkRequest,
  LINKS_PER_HOUR,
  type LinkView,
  linkKeys,
  macLinkRequest,
  openLinkGrant,
  randomCodeChars,
  sealLinkGrant,
} from "../../../core/device-link";
import { createDevice } from "../../../core/e2e";
import { anonymousSession, call } from "../../../tests/workers/helpers";

const start = async (cookie: string) => {
  const res = await call("/api/device-links", { method: "POST", cookie });
  return { status: res.status, body: res.status === 201 ? await res.json<{ id: string; expiresAt: string }>() : null };
};

describe("device links", () => {
  it("relay a MACed record and a sealed account key between one person's devices, once", async () => {
    const a = await anonymousSession();
    const other = await anonymousSession();
    expect((await call("/api/device-links", { method: "POST" })).status).toBe(401);
    const { status, body } = await start(a.cookie);
    expect(status).toBe(201);
    const id = body!.id;
    expect(id).toMatch(/^[0-9A-Z]{6}$/);
    expect(Date.parse(body!.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    // The new device, signed in as the same person, types the code (the secret never reaches the server).
    const secret = randomCodeChars(10);
    const laptop = await createDevice(a.user.id, "laptop-1");
    const { userId: _, ...record } = laptop.record;
    const request = await macLinkRequest(await linkKeys(a.user.id, id, secret), a.user.id, id, record);
    // Someone else's session cannot see or use the link.
    expect((await call(`/api/device-links/${id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await call(`/api/device-links/${id}/request`, { method: "PUT", cookie: other.cookie, json: request })).status).toBe(404);
    expect(
      (await call(`/api/device-links/${id}/request`, { method: "PUT", cookie: a.cookie, json: { ...request, mac: "x" } })).status,
    ).toBe(400);
    expect((await call(`/api/device-links/${id}/request`, { method: "PUT", cookie: a.cookie, json: request })).status).toBe(200);
    // A second request on the same code (another device, or the server's own) is refused.
    const ghost = await createDevice(a.user.id, "ghost");
    const { userId: __, ...ghostRecord } = ghost.record;
    const again = { ...ghostRecord, mac: request.mac };
    expect((await call(`/api/device-links/${id}/request`, { method: "PUT", cookie: a.cookie, json: again })).status).toBe(404);

    // The old device reads the request and checks it with its own copy of the secret.
    const seen = await (await call(`/api/device-links/${id}`, { cookie: a.cookie })).json<LinkView>();
    const keys = await linkKeys(a.user.id, id, secret);
    expect(seen.request).toEqual(request);
    expect(await checkLinkRequest(keys, a.user.id, id, seen.request!)).toBe(true);
    const account = await createAccountKey(true);
    const grant = await sealLinkGrant(keys, a.user.id, id, seen.request!.signingKey, account);
    expect((await call(`/api/device-links/${id}/grant`, { method: "PUT", cookie: a.cookie, json: grant })).status).toBe(200);
    expect((await call(`/api/device-links/${id}/grant`, { method: "PUT", cookie: a.cookie, json: grant })).status).toBe(404);

    const taken = await (await call(`/api/device-links/${id}`, { cookie: a.cookie })).json<LinkView>();
    expect(
      await openLinkGrant(await linkKeys(a.user.id, id, secret), a.user.id, id, laptop.record.signingKey, taken.grant!),
    ).not.toBeNull();
    // What D1 keeps holds neither the secret nor the account key in the clear.
    const row = await env.DB.prepare('SELECT request, "grant" FROM device_links WHERE id = ?').bind(id).first<{ grant: string }>();
    expect(row?.grant).not.toContain(secret);
    expect(JSON.stringify(row)).not.toMatch(/"d"/);
    // Taken: the code is spent, and what passed through is forgotten.
    expect((await call(`/api/device-links/${id}`, { method: "DELETE", cookie: a.cookie })).status).toBe(200);
    expect((await call(`/api/device-links/${id}`, { cookie: a.cookie })).status).toBe(404);
    const spent = await env.DB.prepare('SELECT request, "grant" FROM device_links WHERE id = ?').bind(id).first();
    expect(spent).toEqual({ request: null, grant: null });
  });

  it("expire after ten minutes, one at a time, and at most five an hour per person", async () => {
    const a = await anonymousSession();
    const first = (await start(a.cookie)).body!.id;
    // Ten minutes on: the code no longer takes a request.
    await env.DB.prepare("UPDATE device_links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, first)
      .run();
    const laptop = await createDevice(a.user.id, "laptop-1");
    const { userId: _, ...record } = laptop.record;
    const request = await macLinkRequest(await linkKeys(a.user.id, first, "0123456789"), a.user.id, first, record);
    expect((await call(`/api/device-links/${first}/request`, { method: "PUT", cookie: a.cookie, json: request })).status).toBe(404);
    expect((await call(`/api/device-links/${first}`, { cookie: a.cookie })).status).toBe(404);

    const second = (await start(a.cookie)).body!.id;
    const third = (await start(a.cookie)).body!.id;
    // Starting a new code spends the one before.
    expect((await call(`/api/device-links/${second}`, { cookie: a.cookie })).status).toBe(404);
    expect((await call(`/api/device-links/${third}`, { cookie: a.cookie })).status).toBe(200);
    for (let i = 3; i < LINKS_PER_HOUR; i++) expect((await start(a.cookie)).status).toBe(201);
    expect((await start(a.cookie)).status).toBe(429);
    // Another person is not limited by her.
    expect((await start((await anonymousSession()).cookie)).status).toBe(201);
    // An hour on, she may start again.
    await env.DB.prepare("UPDATE device_links SET created_at = created_at - 3600001 WHERE user_id = ?").bind(a.user.id).run();
    expect((await start(a.cookie)).status).toBe(201);
  });
});
