// X3DH prekeys through the real Worker and D1 (docs/protocol.md §4): only a device's owner publishes them, the
// signed prekey must carry the device's identity signature, and each one-time prekey is handed out once.
import { describe, expect, it } from "vitest";
import { createDevice, type DeviceSecrets } from "../../../core/e2e";
import { MAX_ONE_TIME_PREKEYS } from "../../../core/rooms";
import { newPrekey, type Prekey, signPrekey, verifyPrekey } from "../../../core/x3dh";
import { anonymousSession, call } from "../../../tests/workers/helpers";

interface Bundle {
  deviceId: string;
  publicKey: string;
  signingKey: string;
  signature: string;
  signedPrekey: Prekey;
  oneTimePrekey?: Prekey;
}

async function publishedDevice(cookie: string, userId: string, deviceId: string): Promise<DeviceSecrets> {
  const device = await createDevice(userId, deviceId);
  const { userId: _, ...record } = device.record;
  expect((await call("/api/keys", { method: "PUT", cookie, json: record })).status).toBe(200);
  return device;
}

const oneTime = async (from: number, count: number) =>
  Promise.all(Array.from({ length: count }, async (_, i) => (await newPrekey(from + i)).prekey));

async function signed(device: DeviceSecrets, keyId = 1): Promise<Prekey> {
  return signPrekey(device.signing, device.record.userId, device.record.deviceId, (await newPrekey(keyId)).prekey);
}

const bundles = async (cookie: string, userId: string, query = "") =>
  (await (await call(`/api/keys/bundle/${userId}${query}`, { cookie })).json<{ devices: Bundle[] }>()).devices;

describe("prekeys", () => {
  it("need a session", async () => {
    for (const [method, path] of [
      ["GET", "/api/keys/bundle/someone"],
      ["GET", "/api/keys/phone-1/prekeys"],
      ["PUT", "/api/keys/phone-1/prekeys"],
    ] as const) {
      const res = await call(path, { method, json: method === "GET" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toEqual({ error: "Sign in required", code: "sign_in_required" });
    }
    const a = await anonymousSession();
    expect((await call("/api/keys/bundle/nobody", { cookie: a.cookie })).status).toBe(404);
  });

  it("hands each one-time prekey out once, with the signed prekey, then falls back to the signed prekey alone", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const device = await publishedDevice(a.cookie, a.user.id, "phone-1");
    const spk = await signed(device);
    const otks = await oneTime(10, 2);
    const put = await call("/api/keys/phone-1/prekeys", {
      method: "PUT",
      cookie: a.cookie,
      json: { signedPrekey: spk, oneTimePrekeys: otks },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ signedPrekeyId: 1, oneTimePrekeys: 2 });

    const first = await bundles(b.cookie, a.user.id);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ deviceId: "phone-1", signingKey: device.record.signingKey, signedPrekey: spk });
    expect(await verifyPrekey(first[0]!.signingKey, a.user.id, "phone-1", first[0]!.signedPrekey)).toBe(true);
    const second = await bundles(b.cookie, a.user.id);
    const handedOut = [first[0]!.oneTimePrekey, second[0]!.oneTimePrekey];
    expect(handedOut.map((k) => k?.keyId).sort()).toEqual([10, 11]);
    expect(handedOut).toEqual(expect.arrayContaining(otks));

    const third = await bundles(b.cookie, a.user.id);
    expect(third[0]!.signedPrekey).toEqual(spk);
    expect(third[0]!.oneTimePrekey).toBeUndefined();
    // The owner sees the batch ran out and tops it up.
    expect(await (await call("/api/keys/phone-1/prekeys", { cookie: a.cookie })).json()).toEqual({ signedPrekeyId: 1, oneTimePrekeys: 0 });
  });

  it("never gives one one-time prekey to two requests at the same moment", async () => {
    const a = await anonymousSession();
    const others = await Promise.all([anonymousSession(), anonymousSession(), anonymousSession(), anonymousSession()]);
    const device = await publishedDevice(a.cookie, a.user.id, "phone-1");
    const json = { signedPrekey: await signed(device), oneTimePrekeys: await oneTime(0, 3) };
    expect((await call("/api/keys/phone-1/prekeys", { method: "PUT", cookie: a.cookie, json })).status).toBe(200);
    const got = await Promise.all(others.map((o) => bundles(o.cookie, a.user.id)));
    const ids = got.map((d) => d[0]!.oneTimePrekey?.keyId).filter((id) => id !== undefined);
    expect(ids.sort()).toEqual([0, 1, 2]);
  });

  it("narrows a bundle to one device, so a session with one device does not use up the others' prekeys", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    for (const id of ["phone-1", "laptop-1"]) {
      const device = await publishedDevice(a.cookie, a.user.id, id);
      const json = { signedPrekey: await signed(device), oneTimePrekeys: await oneTime(0, 1) };
      expect((await call(`/api/keys/${id}/prekeys`, { method: "PUT", cookie: a.cookie, json })).status).toBe(200);
    }
    expect((await bundles(b.cookie, a.user.id, "?device=laptop-1")).map((d) => d.deviceId)).toEqual(["laptop-1"]);
    expect(await (await call("/api/keys/phone-1/prekeys", { cookie: a.cookie })).json()).toMatchObject({ oneTimePrekeys: 1 });
  });

  it("lets only the device's owner publish, with its own identity signature, within the bounds", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const device = await publishedDevice(a.cookie, a.user.id, "phone-1");
    const url = "/api/keys/phone-1/prekeys";

    // Someone else cannot add prekeys to a's device (their own device of that name does not exist).
    const byB = await call(url, { method: "PUT", cookie: b.cookie, json: { signedPrekey: await signed(device) } });
    expect(byB.status).toBe(404);
    expect(await byB.json()).toEqual({ error: "Device not found", code: "device_not_found" });
    expect((await call(url, { cookie: b.cookie })).status).toBe(404);

    // A signed prekey signed by another identity key (the server's own, say) is refused.
    const forged = await signed(await createDevice(a.user.id, "phone-1"));
    const bad = await call(url, { method: "PUT", cookie: a.cookie, json: { signedPrekey: forged } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: "The signed prekey's signature does not match this device's identity key",
      code: "prekey_signature",
    });

    const junk = await call(url, { method: "PUT", cookie: a.cookie, json: { oneTimePrekeys: [{ keyId: -1, publicKey: "x" }] } });
    expect(junk.status).toBe(400);
    expect((await junk.json<{ error: string }>()).error).toMatch(/^Invalid request: oneTimePrekeys/);

    const full = await oneTime(0, MAX_ONE_TIME_PREKEYS);
    expect((await call(url, { method: "PUT", cookie: a.cookie, json: { oneTimePrekeys: full } })).status).toBe(200);
    const over = await call(url, { method: "PUT", cookie: a.cookie, json: { oneTimePrekeys: await oneTime(500, 1) } });
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({
      error: `A device keeps at most ${MAX_ONE_TIME_PREKEYS} one-time prekeys on the server`,
      code: "prekey_limit",
      values: { limit: MAX_ONE_TIME_PREKEYS },
    });
  });

  it("drops a device's prekeys with the device when it signs out", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    const device = await publishedDevice(a.cookie, a.user.id, "phone-1");
    const json = { signedPrekey: await signed(device), oneTimePrekeys: await oneTime(0, 2) };
    expect((await call("/api/keys/phone-1/prekeys", { method: "PUT", cookie: a.cookie, json })).status).toBe(200);
    expect((await call("/api/keys/phone-1", { method: "DELETE", cookie: a.cookie })).status).toBe(200);
    expect(await bundles(b.cookie, a.user.id)).toEqual([]);
    await publishedDevice(a.cookie, a.user.id, "phone-1");
    expect(await (await call("/api/keys/phone-1/prekeys", { cookie: a.cookie })).json()).toEqual({
      signedPrekeyId: null,
      oneTimePrekeys: 0,
    });
  });
});
