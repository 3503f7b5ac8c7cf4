// Passkeys on the server (issue 15): who may register, challenges good once, and a passkey as the second factor
// of a sign-in, where a code no longer passes. The full ceremony with an authenticator is the browser test's
// (tests/e2e/advanced-security.spec.ts, Chromium's virtual authenticator).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { anonymousSession, call, signInByCode, verifiedSession } from "../../tests/workers/helpers";

const fakeAttestation = {
  id: "abc",
  rawId: "abc",
  type: "public-key",
  response: { clientDataJSON: "e30", attestationObject: "o2NmbXRkbm9uZQ" },
  clientExtensionResults: {},
};

describe("passkeys", () => {
  it("need a verified phone to register, and refuse an answer to no challenge or to a used one", async () => {
    const anon = await anonymousSession();
    expect((await call("/api/security/passkeys/options", { method: "POST", cookie: anon.cookie, json: {} })).status).toBe(403);
    const { cookie } = await verifiedSession("0816");
    expect(await (await call("/api/security/passkeys", { cookie })).json()).toEqual({ passkeys: [] });
    const none = await call("/api/security/passkeys", { method: "POST", cookie, json: { name: "Phone", response: fakeAttestation } });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ error: "Start again: the passkey request has expired", code: "passkey_expired" });

    const options = await (await call("/api/security/passkeys/options", { method: "POST", cookie, json: {} })).json<{
      challenge: string;
      rp: { id: string };
      authenticatorSelection: { userVerification: string };
    }>();
    expect(options.rp.id).toBe("localhost");
    expect(options.authenticatorSelection.userVerification).toBe("required");
    // A forged answer fails, and spends the challenge: the same answer again is told to start again.
    const forged = await call("/api/security/passkeys", { method: "POST", cookie, json: { name: "Phone", response: fakeAttestation } });
    expect(await forged.json()).toEqual({ error: "That passkey could not be verified. Please try again.", code: "passkey_failed" });
    const again = await call("/api/security/passkeys", { method: "POST", cookie, json: { name: "Phone", response: fakeAttestation } });
    expect(await again.json()).toEqual({ error: "Start again: the passkey request has expired", code: "passkey_expired" });
    const malformed = await call("/api/security/passkeys", { method: "POST", cookie, json: { response: { id: 1 } } });
    expect(malformed.status).toBe(400);
    expect((await call("/api/security/passkeys/nope", { method: "DELETE", cookie })).status).toBe(404);
  });

  it("make a passkey the second factor of the next sign-in, where a code alone is refused", async () => {
    const person = await verifiedSession("0816");
    await env.DB.prepare("INSERT INTO passkeys (id, user_id, public_key, name) VALUES (?, ?, 'pk', 'Phone')")
      .bind(`cred-${person.id}`, person.id)
      .run();
    const next = await signInByCode(person.local);
    expect(next.body).toEqual({ secondFactorRequired: true, merged: false, methods: { code: false, passkey: true } });
    expect((await call("/api/me", { cookie: next.cookie })).status).toBe(401);
    expect(await (await call("/api/auth/second-factor", { cookie: next.cookie })).json()).toEqual({ code: false, passkey: true });
    const code = await call("/api/auth/second-factor", { method: "POST", cookie: next.cookie, json: { code: "123456" } });
    expect(code.status).toBe(400);
    expect(await code.json()).toEqual({ error: "Use your passkey to finish signing in", code: "use_passkey" });
    const options = await call("/api/auth/second-factor/passkey/options", { method: "POST", cookie: next.cookie, json: {} });
    expect((await options.json<{ allowCredentials: { id: string }[] }>()).allowCredentials.map((c) => c.id)).toEqual([`cred-${person.id}`]);
    // Removing the passkey (from the signed-in browser) is an event, and the next sign-in needs the phone only.
    expect((await call(`/api/security/passkeys/cred-${person.id}`, { method: "DELETE", cookie: person.cookie })).status).toBe(200);
    const events = await (await call("/api/security/overview", { cookie: person.cookie })).json<{ events: { message: string }[] }>();
    expect(events.events[0].message).toBe("A passkey was removed: Phone");
    expect((await signInByCode(person.local)).body.user).toBeTruthy();
  });
});
