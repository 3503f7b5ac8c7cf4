// Security headers on every answer of the Worker: APIs, webhooks, USSD and pages alike.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "./helpers";

const cspOf = (res: Response) => res.headers.get("content-security-policy") ?? "";

describe("security headers", () => {
  it("are on API answers, refusals and pages, with a fresh script nonce each time", async () => {
    const answers = [
      await call("/api/health"),
      await call("/api/me"),
      await call("/api/nothing-here"),
      await call("/ussd", { method: "POST", body: "x" }),
      await call("/webhooks/whatsapp", { method: "POST", body: "From=x" }),
      await call("/chat"),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toMatch(/^geolocation=\(self\), microphone=\(self\), bluetooth=\(self\), camera=\(\)/);
      expect(cspOf(res)).toContain("frame-ancestors 'none'");
      expect(cspOf(res)).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9_-]{22}'/);
      // Plain http (local development) gets no HSTS.
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
    const nonces = answers.map((r) => /'nonce-([^']+)'/.exec(cspOf(r))?.[1]);
    expect(new Set(nonces).size).toBe(answers.length);
  });

  it("adds HSTS on https", async () => {
    const res = await SELF.fetch("https://linkup.example/api/health");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(cspOf(res)).toContain("upgrade-insecure-requests");
  });
});
