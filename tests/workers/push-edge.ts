// The push service faked at its HTTP edge for the Worker tests: every call to it answers 201 and is noted by its
// endpoint path (one endpoint per person), everything else goes through; fault points are reset around each test
// (core/faults.ts), since the SOS tests that count pushes also fail paths at those points.
import { afterEach, beforeEach, expect, vi } from "vitest";
import { resetFaults } from "../../core/faults";
import { toBase64Url } from "../../core/ids";
import { anonymousSession, call } from "./helpers";

export const PUSH_SERVICE = "https://updates.push.services.mozilla.com";

/** Registers the fake for the calling test file; `calls` holds this test's push-service calls. */
export function fakePushEdge(): { calls: string[] } {
  const edge = { calls: [] as string[] };
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    edge.calls = [];
    resetFaults();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (!req.url.startsWith(PUSH_SERVICE)) return realFetch(input, init);
      edge.calls.push(new URL(req.url).pathname);
      return new Response(null, { status: 201 });
    });
  });
  afterEach(() => {
    resetFaults();
    vi.restoreAllMocks();
  });
  return edge;
}

/** A new anonymous person placed `at`, with a push subscription at the fake edge; answers their id. */
export async function subscriberAt(at: { latitude: number; longitude: number }): Promise<string> {
  const s = await anonymousSession();
  expect((await call("/api/me/location", { method: "PUT", cookie: s.cookie, json: at })).status).toBe(200);
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const p256dh = toBase64Url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const keys = { p256dh, auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))) };
  const res = await call("/api/push/subscribe", {
    method: "POST",
    cookie: s.cookie,
    json: { endpoint: `${PUSH_SERVICE}/${s.user.id}`, keys },
  });
  expect(res.status).toBe(201);
  return s.user.id;
}
