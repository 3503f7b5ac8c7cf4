// API keys on real D1: created by verified people only and shown once, stored hashed, limited per owner per day by
// the owner's plan (429 with Retry-After), refused once revoked, and kept to the public API.
import { API_ERROR_CODES } from "../../core/api-errors";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ApiKeysAnswer, CreatedApiKey } from "../../core/api-keys";
import { PUBLIC_API } from "../../core/public-api";
import { serverDay } from "../../core/rewards";
import { anonymousSession, call, ORIGIN, setTier, verifiedSession } from "../../tests/workers/helpers";

async function newKey(cookie: string, name = "My script") {
  const res = await call("/api/api-keys", { method: "POST", cookie, json: { name } });
  expect(res.status).toBe(201);
  return (await res.json()) as CreatedApiKey;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function setCallsToday(keyId: string, calls: number) {
  await env.DB.prepare("insert or replace into api_key_usage (key_id, day, calls) values (?, ?, ?)")
    .bind(keyId, serverDay(new Date()), calls)
    .run();
}

describe("API keys", () => {
  it("only a verified person creates keys; an anonymous one is told to verify", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/api-keys", { method: "POST", cookie, json: { name: "x" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "verification_required" });
    const list = (await (await call("/api/api-keys", { cookie })).json()) as ApiKeysAnswer;
    expect(list).toMatchObject({ canCreate: false, plan: "Community", dailyCalls: 1000, devices: 5, keys: [] });
  });

  it("a key is shown once and stored only as a hash; calls with it act as its owner and are counted", async () => {
    const person = await verifiedSession("0811", "Keyholder");
    const created = await newKey(person.cookie);
    expect(created.key).toMatch(/^linkup_[A-Za-z0-9_-]{43}$/);
    const row = await env.DB.prepare("select * from api_keys where id = ?").bind(created.id).first<Record<string, string>>();
    expect(JSON.stringify(row)).not.toContain(created.key.slice(7));
    expect(row?.key_hash).toBeTruthy();

    const me = await call("/api/me", { headers: bearer(created.key) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { id: string } }).user.id).toBe(person.id);

    const list = (await (await call("/api/api-keys", { cookie: person.cookie })).json()) as ApiKeysAnswer;
    expect(list.keys).toHaveLength(1);
    expect(list.keys[0]).toMatchObject({ id: created.id, name: "My script", callsToday: 1 });
    expect(JSON.stringify(list)).not.toContain(created.key);
  });

  it("a Community key answers 429 with Retry-After past 1,000 calls a day; Premium's limit is 50,000", async () => {
    const person = await verifiedSession("0812");
    const created = await newKey(person.cookie);
    await setCallsToday(created.id, 999);
    expect((await call("/api/stats/public", { headers: bearer(created.key) })).status).toBe(200);
    const refused = await call("/api/stats/public", { headers: bearer(created.key) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toBe(
      "Daily API limit reached: Community allows 1,000 calls/day. Upgrade to Premium for 50,000 calls/day.",
    );
    // The same calls without the key are the site's own and are not limited by it.
    expect((await call("/api/stats/public")).status).toBe(200);

    await setTier(person.id, "premium");
    expect((await call("/api/stats/public", { headers: bearer(created.key) })).status).toBe(200);
    await setCallsToday(created.id, 50000);
    expect((await call("/api/stats/public", { headers: bearer(created.key) })).status).toBe(429);
  });

  it("Community holds up to 5 keys; a revoked key is refused and frees its place", async () => {
    const person = await verifiedSession("0813");
    const keys = [];
    for (let i = 0; i < 5; i++) keys.push(await newKey(person.cookie, `device ${i}`));
    const sixth = await call("/api/api-keys", { method: "POST", cookie: person.cookie, json: { name: "device 6" } });
    expect(sixth.status).toBe(403);
    expect(((await sixth.json()) as { error: string }).error).toBe(
      "Community allows up to 5 devices. Revoke a key or upgrade to Premium for unlimited devices.",
    );
    const revoked = await call(`/api/api-keys/${keys[0].id}`, { method: "DELETE", cookie: person.cookie, headers: { origin: ORIGIN } });
    expect(revoked.status).toBe(200);
    expect((await call("/api/me", { headers: bearer(keys[0].key) })).status).toBe(401);
    expect((await call("/api/me", { headers: bearer(keys[1].key) })).status).toBe(200);
    await newKey(person.cookie, "device 6");
  });

  it("another person cannot revoke my key", async () => {
    const owner = await verifiedSession("0814");
    const other = await verifiedSession("0815");
    const created = await newKey(owner.cookie);
    const res = await call(`/api/api-keys/${created.id}`, { method: "DELETE", cookie: other.cookie, headers: { origin: ORIGIN } });
    expect(res.status).toBe(404);
    expect((await call("/api/me", { headers: bearer(created.key) })).status).toBe(200);
  });

  it("a key reaches only the public API: not key management, security or admin, and a bad key is refused", async () => {
    const person = await verifiedSession("0816");
    const { key } = await newKey(person.cookie);
    expect((await call("/api/api-keys", { headers: bearer(key) })).status).toBe(403);
    expect((await call("/api/security/sessions", { headers: bearer(key) })).status).toBe(403);
    expect((await call("/api/admin/stats", { headers: bearer(key) })).status).toBe(403);
    // A cookie sent along does not widen what the key may do.
    expect((await call("/api/security/sessions", { headers: bearer(key), cookie: person.cookie })).status).toBe(403);
    const bad = await call("/api/me", { headers: bearer("linkup_not-a-real-key") });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: "Invalid API key", code: "api_key_invalid" });
  });
});

describe("the daily API limit is the owner's, taken atomically (docs/decisions/047-limits-taken-atomically.md)", () => {
  const tally = (statuses: number[]) => {
    const t: Record<number, number> = {};
    for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
    return t;
  };

  it("100 parallel calls over two keys of one person with 50 calls left: exactly 50 pass, 50 × 429 with Retry-After", async () => {
    const person = await verifiedSession("0806");
    const a = await newKey(person.cookie, "laptop");
    const b = await newKey(person.cookie, "phone");
    await setCallsToday(a.id, 950);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call("/api/stats/public", { headers: bearer(i % 2 ? a.key : b.key) })),
    );
    expect(tally(answers.map((r) => r.status))).toEqual({ 200: 50, 429: 50 });
    expect(answers.filter((r) => r.status === 429).every((r) => Number(r.headers.get("retry-after")) > 0)).toBe(true);
    const list = (await (await call("/api/api-keys", { cookie: person.cookie })).json()) as ApiKeysAnswer;
    expect(list.keys.reduce((sum, k) => sum + k.callsToday, 0)).toBe(1000);
  });

  it("revoking a spent key and creating another does not start the day again", async () => {
    const person = await verifiedSession("0806");
    const spent = await newKey(person.cookie);
    await setCallsToday(spent.id, 1000);
    expect((await call("/api/stats/public", { headers: bearer(spent.key) })).status).toBe(429);
    const revoked = await call(`/api/api-keys/${spent.id}`, { method: "DELETE", cookie: person.cookie, headers: { origin: ORIGIN } });
    expect(revoked.status).toBe(200);
    const fresh = await newKey(person.cookie, "fresh");
    const refused = await call("/api/stats/public", { headers: bearer(fresh.key) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toContain("Community allows 1,000 calls/day");
    // Another person's keys have their own day.
    const other = await verifiedSession("0806");
    expect((await call("/api/stats/public", { headers: bearer((await newKey(other.cookie)).key) })).status).toBe(200);
  });
});

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1, documents every public operation from its zod schema, and each one is a real route", async () => {
    const res = await call("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: object } }> } }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    // The refusals' codes, every one of them, for clients to branch on (docs/decisions/075-errors-as-codes.md).
    const errorSchema = (doc as unknown as { components: { schemas: { Error: { properties: { code: { enum: string[] } } } } } }).components
      .schemas.Error;
    expect(errorSchema.properties.code.enum).toEqual(API_ERROR_CODES);
    const translate = doc.paths["/api/ai/translate"].post.requestBody?.content["application/json"].schema.properties;
    expect(Object.keys(translate ?? {})).toEqual(["text", "targetLanguage", "sourceLanguage"]);
    for (const op of PUBLIC_API) {
      expect(doc.paths[op.path]?.[op.method], `${op.method} ${op.path}`).toBeDefined();
      // A real route answers with its own status (400 for an empty body, 401 without sign-in), never the 404 of
      // an unknown path.
      const answer = await call(op.path, { method: op.method.toUpperCase(), ...(op.method === "post" ? { json: {} } : {}) });
      expect(answer.status, `${op.method} ${op.path}`).not.toBe(404);
    }
  });
});
