import { describe, expect, it } from "vitest";
import { toBase64Url } from "./ids";
import { checkPass, PASS_TTL_MS, type SessionPass, signPass } from "./session-pass";

function macUnder(secret: string) {
  return async (text: string) => {
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text))));
  };
}

const mac = macUnder("the server's secret");
const now = Date.parse("2026-11-27T10:00:00Z");
const pass = (over: Partial<SessionPass> = {}): SessionPass => ({
  v: 2,
  s: "session-hash-1",
  i: now,
  e: now + PASS_TTL_MS,
  n: 2,
  u: { id: "u1", role: "user", subscriptionTier: "free" },
  ...over,
});

describe("session pass", () => {
  it("is accepted while fresh, for its own session, with what it was issued with", async () => {
    const checked = await checkPass(await signPass(pass(), mac), "session-hash-1", mac, now);
    expect(checked).toEqual({ ok: true, pass: pass() });
  });

  it("is refused once expired", async () => {
    const text = await signPass(pass(), mac);
    expect(await checkPass(text, "session-hash-1", mac, now + PASS_TTL_MS)).toEqual({ ok: false, reason: "expired" });
  });

  it("is refused beside another session's cookie", async () => {
    expect(await checkPass(await signPass(pass(), mac), "session-hash-2", mac, now)).toEqual({ ok: false, reason: "other_session" });
  });

  it("refuses a pass signed under another secret, or one whose payload was changed", async () => {
    const foreign = await signPass(pass({ u: { id: "u1", role: "admin" } }), macUnder("a guess"));
    expect(await checkPass(foreign, "session-hash-1", mac, now)).toEqual({ ok: false, reason: "forged" });
    // A real pass with its payload swapped for one that says admin, the signature kept.
    const [v, , sig] = (await signPass(pass(), mac)).split(".");
    const [, body] = (await signPass(pass({ u: { id: "u1", role: "admin" } }), macUnder("a guess"))).split(".");
    expect(await checkPass(`${v}.${body}.${sig}`, "session-hash-1", mac, now)).toEqual({ ok: false, reason: "forged" });
  });

  it("refuses a pass of the version before (it carried no issue time, which a revocation is compared with)", async () => {
    const { i: _issued, ...old } = pass();
    const body = toBase64Url(new TextEncoder().encode(JSON.stringify({ ...old, v: 1 })));
    expect((await checkPass(`v1.${body}.${await mac(`session-pass:v1.${body}`)}`, "session-hash-1", mac, now)).ok).toBe(false);
  });

  it("refuses what is not a pass", async () => {
    for (const text of ["", "v2", "v2.a.b.c", "v3.abc.def", `v2.${"x".repeat(4000)}.sig`]) {
      expect((await checkPass(text, "session-hash-1", mac, now)).ok).toBe(false);
    }
    // Signed, but not a pass's shape.
    const body = toBase64Url(new TextEncoder().encode(JSON.stringify({ v: 2, s: "session-hash-1" })));
    expect(await checkPass(`v2.${body}.${await mac(`session-pass:v2.${body}`)}`, "session-hash-1", mac, now)).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
});
