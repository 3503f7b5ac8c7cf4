// Device keys for end-to-end encryption (docs/protocol.md §2): publishing a device's signed record, handing
// a person's records out, and revoking a device on sign-out. The server checks a record's signature only to
// refuse junk early; clients check it again and trust only what they pinned.
import { MAX_DEVICE_KEYS, MAX_ONE_TIME_PREKEYS, type PublishKeyInput, type PublishPrekeysInput } from "../../core/rooms";
import { verifyPrekey } from "../../core/x3dh";
import type { Db } from "../../db";
import {
  addPrekeys,
  deleteDeviceKey,
  deviceKeyInfo,
  findUsersByIds,
  listDeviceKeys,
  prekeyStatus,
  signedPrekeysOf,
  takeOneTimePrekey,
  upsertDeviceKey,
} from "../../db/queries/rooms";
import { DomainError } from "../../core/domain-error";
import { recordSecurityEvent } from "../identity/security-events";

export async function publishDeviceKey(db: Db, userId: string, key: PublishKeyInput): Promise<void> {
  if (key.signingKey || key.signature) {
    // The end-to-end crypto module (about 30 KiB with its ratchet) loads with the first signed key, not with every
    // isolate (docs/decisions/082-a-worker-that-starts-small.md).
    const { verifyDeviceRecord } = await import("../../core/e2e");
    const signed = await verifyDeviceRecord({
      userId,
      deviceId: key.deviceId,
      publicKey: key.publicKey,
      signingKey: key.signingKey,
      signature: key.signature,
    });
    if (!signed) throw new DomainError("device_signature", "The device record's signature does not match its keys and user");
  }
  // Each device republishes its key whenever it opens the chat: only a new device or a new key is an event.
  const before = (await listDeviceKeys(db, userId)).find((k) => k.deviceId === key.deviceId);
  await upsertDeviceKey(db, { userId, ...key }, MAX_DEVICE_KEYS);
  if (!before) await recordSecurityEvent(db, userId, "key_added");
  else if (before.publicKey !== key.publicKey) await recordSecurityEvent(db, userId, "key_changed");
}

export async function deviceKeysOf(db: Db, userId: string) {
  const [found] = await findUsersByIds(db, [userId]);
  if (!found) throw new DomainError("user_not_found", "User not found");
  return (await listDeviceKeys(db, userId)).map(deviceKeyInfo);
}

export async function revokeDeviceKey(db: Db, userId: string, deviceId: string): Promise<void> {
  if (!(await deleteDeviceKey(db, userId, deviceId))) throw new DomainError("device_not_found", "Device not found");
  await recordSecurityEvent(db, userId, "key_removed");
}

// ---------------------------------------------------------------- X3DH prekeys (docs/protocol.md §4)

/** The caller's own signed device, or 404: prekeys belong to a device its owner published. */
async function ownSignedDevice(db: Db, userId: string, deviceId: string) {
  const device = (await listDeviceKeys(db, userId)).find((d) => d.deviceId === deviceId);
  if (!device?.signingKey) throw new DomainError("device_not_found", "Device not found");
  return { ...device, signingKey: device.signingKey };
}

export async function prekeysOfOwnDevice(db: Db, userId: string, deviceId: string) {
  await ownSignedDevice(db, userId, deviceId);
  return prekeyStatus(db, userId, deviceId);
}

/** Adds a device's prekeys: the signed one must carry its identity key's signature; one-time ones are bounded. */
export async function publishPrekeys(db: Db, userId: string, deviceId: string, input: PublishPrekeysInput) {
  const device = await ownSignedDevice(db, userId, deviceId);
  if (input.signedPrekey && !(await verifyPrekey(device.signingKey, userId, deviceId, input.signedPrekey)))
    throw new DomainError("prekey_signature", "The signed prekey's signature does not match this device's identity key");
  const status = await prekeyStatus(db, userId, deviceId);
  if (status.oneTimePrekeys + input.oneTimePrekeys.length > MAX_ONE_TIME_PREKEYS)
    throw new DomainError("prekey_limit", `A device keeps at most ${MAX_ONE_TIME_PREKEYS} one-time prekeys on the server`, {
      values: { limit: MAX_ONE_TIME_PREKEYS },
    });
  await addPrekeys(db, { userId, deviceId }, input.signedPrekey, input.oneTimePrekeys);
  return prekeyStatus(db, userId, deviceId);
}

/**
 * A person's prekey bundles, one per signed device that has a signed prekey (or only `onlyDevice`): the
 * device record, its signed prekey and one one-time prekey, which is taken out so no one else receives it.
 * When none is left the bundle has only the signed prekey (X3DH without DH4).
 */
export async function prekeyBundles(db: Db, userId: string, onlyDevice?: string) {
  const [found] = await findUsersByIds(db, [userId]);
  if (!found) throw new DomainError("user_not_found", "User not found");
  const signed = new Map((await signedPrekeysOf(db, userId)).map((p) => [p.deviceId, p]));
  const devices = [];
  for (const d of await listDeviceKeys(db, userId)) {
    const spk = signed.get(d.deviceId);
    if (!spk?.signature || !d.signingKey || (onlyDevice !== undefined && d.deviceId !== onlyDevice)) continue;
    const opk = await takeOneTimePrekey(db, userId, d.deviceId);
    devices.push({
      ...deviceKeyInfo(d),
      signedPrekey: { keyId: spk.keyId, publicKey: spk.publicKey, signature: spk.signature },
      ...(opk ? { oneTimePrekey: opk } : {}),
    });
  }
  return devices;
}
