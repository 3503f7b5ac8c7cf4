// Linking a device through a server that relays everything (docs/protocol.md §2a): the server cannot put its own
// key in the new device's place, nor open or alter the account key on its way.
import { describe, expect, it } from "vitest";
import { createAccountKey, signDeviceList, verifyDeviceList } from "./device-list";
import {
  checkLinkRequest,
  formatLinkCode,
  linkFingerprint,
  linkKeys,
  macLinkRequest,
  openLinkGrant,
  parseLinkCode,
  randomCodeChars,
  sealLinkGrant,
} from "./device-link";
import { createDevice } from "./e2e";
import { toBase64Url } from "./ids";
import { exportRawKey } from "./webcrypto";

const request = (d: Awaited<ReturnType<typeof createDevice>>) => {
  const { userId: _, ...r } = d.record;
  return r;
};

describe("device link codes", () => {
  it("are read back as typed, however the person spaces or mistypes look-alike letters", () => {
    const id = randomCodeChars(6);
    const secret = randomCodeChars(10);
    const shown = formatLinkCode(id, secret);
    expect(shown).toMatch(/^(\S{4} ){3}\S{4}$/);
    expect(parseLinkCode(shown)).toEqual({ id, secret });
    expect(parseLinkCode(shown.toLowerCase().replace(/ /g, "-"))).toEqual({ id, secret });
    expect(parseLinkCode("ABCO 1234 5678 9ILX")).toEqual({ id: "ABC012", secret: "345678911X" });
    expect(parseLinkCode("ABCD 1234")).toBeNull();
    expect(parseLinkCode("ABCD 1234 5678 9UXY")).toBeNull();
  });
});

describe("linking a device through a malicious relay", () => {
  it("the old device accepts the typed device's key and no other; the new device opens the account key", async () => {
    const id = randomCodeChars(6);
    const secret = randomCodeChars(10);
    const newDevice = await createDevice("ada", "phone-2");
    const atNew = await linkKeys("ada", id, secret);
    const sent = await macLinkRequest(atNew, "ada", id, request(newDevice));

    const atOld = await linkKeys("ada", id, secret);
    expect(await checkLinkRequest(atOld, "ada", id, sent)).toBe(true);
    // The server swaps in a device of its own, keeping the MAC, or MACs it under a guessed secret: refused.
    const ghost = await createDevice("ada", "phone-2");
    expect(await checkLinkRequest(atOld, "ada", id, { ...request(ghost), mac: sent.mac })).toBe(false);
    const guessed = await macLinkRequest(await linkKeys("ada", id, randomCodeChars(10)), "ada", id, request(ghost));
    expect(await checkLinkRequest(atOld, "ada", id, guessed)).toBe(false);
    // Or replays the request to another link or person.
    expect(await checkLinkRequest(await linkKeys("ada", "ZZZZZZ", secret), "ada", "ZZZZZZ", sent)).toBe(false);
    expect(await checkLinkRequest(await linkKeys("bob", id, secret), "bob", id, sent)).toBe(false);
    // Both screens show the same eight digits for the device being linked, and other digits for another key.
    expect(await linkFingerprint(sent.signingKey)).toBe(await linkFingerprint(newDevice.record.signingKey));
    expect(await linkFingerprint(sent.signingKey)).toMatch(/^\d{4} \d{4}$/);
    expect(await linkFingerprint(ghost.record.signingKey)).not.toBe(await linkFingerprint(sent.signingKey));

    const account = await createAccountKey(true);
    const grant = await sealLinkGrant(atOld, "ada", id, sent.signingKey, account);
    const opened = await openLinkGrant(atNew, "ada", id, newDevice.record.signingKey, grant);
    expect(opened?.accountKey).toBe(toBase64Url(await exportRawKey(account.publicKey)));
    // The key opened signs lists the old device's contacts accept.
    const list = await signDeviceList(opened!.pair, {
      userId: "ada",
      version: 2,
      devices: [{ deviceId: "phone-2", publicKey: newDevice.record.publicKey, signingKey: newDevice.record.signingKey }],
      revoked: [],
    });
    expect((await verifyDeviceList(list, "ada"))?.accountKey).toBe(opened?.accountKey);

    // The grant opens for that device only, and not once altered; the server, with no secret, cannot open it.
    expect(await openLinkGrant(atNew, "ada", id, ghost.record.signingKey, grant)).toBeNull();
    const flipped = { ...grant, ciphertext: `${grant.ciphertext.slice(0, -2)}${grant.ciphertext.endsWith("AA") ? "AB" : "AA"}` };
    expect(await openLinkGrant(atNew, "ada", id, newDevice.record.signingKey, flipped)).toBeNull();
    expect(await openLinkGrant(await linkKeys("ada", id, randomCodeChars(10)), "ada", id, newDevice.record.signingKey, grant)).toBeNull();
  });
});
