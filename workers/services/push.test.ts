// Web Push checked from the receiving side: a loopback HTTP server stands in for the browser's push service,
// what it received is decrypted with `http_ece` and the subscriber's keys, and the VAPID JWT is verified
// against the public key.
import { createECDH, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../core/ids";
import type { AppEnv } from "../env";
import { encryptPayload, endpointAllowed, sendPush, vapidJwt } from "./push";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function vapidEnv(): Promise<AppEnv> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const pub = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const { d } = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return {
    VAPID_PUBLIC_KEY: toBase64Url(pub),
    VAPID_PRIVATE_KEY: d,
    VAPID_SUBJECT: "mailto:test@linkup.example",
    ENVIRONMENT: "development",
  } as AppEnv;
}

function subscriber() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: toBase64Url(ecdh.getPublicKey()), authB64: toBase64Url(auth) };
}

function decrypt(body: Buffer, sub: ReturnType<typeof subscriber>): string {
  return ece.decrypt(body, { version: "aes128gcm", privateKey: sub.ecdh, authSecret: sub.auth }).toString("utf8");
}

async function verifyJwt(jwt: string, publicKeyB64: string): Promise<boolean> {
  const [h, c, s] = jwt.split(".");
  const key = await crypto.subtle.importKey("raw", fromBase64Url(publicKeyB64), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, fromBase64Url(s), new TextEncoder().encode(`${h}.${c}`));
}

let received: Received[] = [];
let status = 201;
let base = "";
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
    res.statusCode = status;
    res.end();
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("web push", () => {
  it("encrypts a payload the subscriber can decrypt (aes128gcm, RFC 8291)", async () => {
    const sub = subscriber();
    const body = await encryptPayload({ p256dh: sub.p256dh, auth: sub.authB64 }, new TextEncoder().encode("Emergency nearby: fire"));
    expect(decrypt(Buffer.from(body), sub)).toBe("Emergency nearby: fire");
    // Another subscriber's keys cannot read it.
    expect(() => decrypt(Buffer.from(body), subscriber())).toThrow();
  });

  it("posts an encrypted, VAPID-signed push to the push service", async () => {
    received = [];
    status = 201;
    const env = await vapidEnv();
    const sub = subscriber();
    const payload = { title: "SOS nearby", body: "Medical: help at the market", url: "/emergency" };
    const outcome = await sendPush(env, { endpoint: `${base}/push/abc`, p256dh: sub.p256dh, auth: sub.authB64 }, payload, {
      urgency: "high",
    });
    expect(outcome).toEqual({ ok: true, status: 201 });
    expect(received).toHaveLength(1);
    const [req] = received;
    expect(req.path).toBe("/push/abc");
    expect(req.headers["content-encoding"]).toBe("aes128gcm");
    expect(req.headers.urgency).toBe("high");
    expect(Number(req.headers.ttl)).toBeGreaterThan(0);
    expect(JSON.parse(decrypt(req.body, sub))).toEqual(payload);

    const m = /^vapid t=([^,]+), k=(.+)$/.exec(String(req.headers.authorization));
    expect(m).not.toBeNull();
    const [, jwt, k] = m as RegExpExecArray;
    expect(k).toBe(env.VAPID_PUBLIC_KEY);
    expect(await verifyJwt(jwt, env.VAPID_PUBLIC_KEY as string)).toBe(true);
    const header = JSON.parse(new TextDecoder().decode(fromBase64Url(jwt.split(".")[0])));
    const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(jwt.split(".")[1])));
    expect(header).toEqual({ typ: "JWT", alg: "ES256" });
    expect(claims.aud).toBe(base);
    expect(claims.sub).toBe("mailto:test@linkup.example");
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims.exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);
  });

  it("a JWT signed with other keys does not verify", async () => {
    const a = await vapidEnv();
    const b = await vapidEnv();
    const jwt = await vapidJwt(a, "https://push.example.com/x");
    expect(await verifyJwt(jwt, b.VAPID_PUBLIC_KEY as string)).toBe(false);
  });

  it("reports an expired subscription (410) as gone", async () => {
    status = 410;
    const env = await vapidEnv();
    const sub = subscriber();
    const outcome = await sendPush(env, { endpoint: `${base}/gone`, p256dh: sub.p256dh, auth: sub.authB64 }, { title: "x" });
    expect(outcome).toMatchObject({ ok: false, status: 410, gone: true });
    status = 201;
  });

  it("accepts loopback http endpoints only in development", () => {
    expect(endpointAllowed({ ENVIRONMENT: "development" }, "http://127.0.0.1:9999/p")).toBe(true);
    expect(endpointAllowed({ ENVIRONMENT: undefined }, "http://127.0.0.1:9999/p")).toBe(false);
    expect(endpointAllowed({ ENVIRONMENT: undefined }, "https://localhost/p")).toBe(false);
    expect(endpointAllowed({ ENVIRONMENT: undefined }, "http://push.example.com/p")).toBe(false);
    expect(endpointAllowed({ ENVIRONMENT: undefined }, "https://fcm.googleapis.com/fcm/send/x")).toBe(true);
  });

  it("outside development accepts only https endpoints on public host names", () => {
    const production = { ENVIRONMENT: undefined };
    for (const ok of [
      "https://fcm.googleapis.com/fcm/send/x",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://web.push.apple.com/x",
    ])
      expect(endpointAllowed(production, ok), ok).toBe(true);
    for (const bad of [
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.5/p",
      "https://192.168.1.1/p",
      "https://2130706433/p", // 127.0.0.1 written as one number
      "https://0x7f.1/p",
      "https://[::1]/p",
      "https://[fd00::1]/p",
      "https://[::ffff:169.254.169.254]/p",
      "https://localhost/p",
      "https://push.localhost/p",
      "https://printer.local/p",
      "https://metadata.google.internal/p",
      "https://router.home.arpa/p",
      "https://intranet/p",
      "https://user:pass@fcm.googleapis.com/p",
      "http://fcm.googleapis.com/p",
      "ftp://fcm.googleapis.com/p",
      "not a url",
    ])
      expect(endpointAllowed(production, bad), bad).toBe(false);
    // In development the same rules hold, except that a local receiver on loopback stands in for a push service.
    expect(endpointAllowed({ ENVIRONMENT: "development" }, "https://127.0.0.1:9999/p")).toBe(true);
    expect(endpointAllowed({ ENVIRONMENT: "development" }, "https://169.254.169.254/p")).toBe(false);
  });
});
