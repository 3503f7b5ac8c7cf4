// A person's device list through the real Worker and D1 (docs/protocol.md §2): only the person publishes it, it
// must carry their account key's signature, an older version never replaces a newer one, and it is handed out
// beside the device records.
import { describe, expect, it } from "vitest";
import { createAccountKey, type DeviceList, nextDeviceList, signDeviceList } from "../../../core/device-list";
import { createDevice } from "../../../core/e2e";
import { anonymousSession, call } from "../../../tests/workers/helpers";

const listOf = async (cookie: string, userId: string) =>
  (await (await call(`/api/keys/${userId}`, { cookie })).json<{ list: DeviceList | null }>()).list;

describe("device lists", () => {
  it("are published by their person only, signed, never rolled back, and handed out with the keys", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    expect((await call("/api/keys/list", { method: "PUT", json: {} })).status).toBe(401);
    expect(await listOf(b.cookie, a.user.id)).toBeNull();

    const account = await createAccountKey();
    const phone = await createDevice(a.user.id, "phone-1");
    const v1 = await signDeviceList(account, nextDeviceList(null, { add: phone.record }, a.user.id));
    const { userId: _, ...body1 } = v1;
    const put = await call("/api/keys/list", { method: "PUT", cookie: a.cookie, json: body1 });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ ok: true, version: 1 });
    expect(await listOf(b.cookie, a.user.id)).toEqual(v1);

    // The same list under someone else's session is not signed for them.
    expect((await call("/api/keys/list", { method: "PUT", cookie: b.cookie, json: body1 })).status).toBe(400);
    // A device slipped into the signed list breaks the signature.
    const ghost = await createDevice(a.user.id, "ghost");
    const tampered = {
      ...body1,
      devices: [...body1.devices, { deviceId: "ghost", publicKey: ghost.record.publicKey, signingKey: ghost.record.signingKey }],
    };
    expect((await call("/api/keys/list", { method: "PUT", cookie: a.cookie, json: tampered })).status).toBe(400);

    const laptop = await createDevice(a.user.id, "laptop-1");
    const v2 = await signDeviceList(account, nextDeviceList(v1, { add: laptop.record }, a.user.id));
    const { userId: __, ...body2 } = v2;
    expect((await call("/api/keys/list", { method: "PUT", cookie: a.cookie, json: body2 })).status).toBe(200);
    // Publishing version 1 again (a slow device, or a replay) leaves version 2 in place.
    const stale = await call("/api/keys/list", { method: "PUT", cookie: a.cookie, json: body1 });
    expect(stale.status).toBe(409);
    expect((await listOf(b.cookie, a.user.id))?.version).toBe(2);

    // A person who lost every device starts a new account key: it replaces the list (contacts see the change).
    const fresh = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: phone.record }, a.user.id));
    const { userId: ___, ...body3 } = fresh;
    expect((await call("/api/keys/list", { method: "PUT", cookie: a.cookie, json: body3 })).status).toBe(200);
    expect((await listOf(b.cookie, a.user.id))?.accountKey).toBe(fresh.accountKey);
  });
});
