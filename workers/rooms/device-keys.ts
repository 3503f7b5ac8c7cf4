// Device keys for end-to-end encryption (docs/protocol.md §2): publishing a device's signed record, handing
// a person's records out, and revoking a device on sign-out. The server checks a record's signature only to
// refuse junk early; clients check it again and trust only what they pinned.
import { verifyDeviceRecord } from "../../core/e2e";
import { MAX_DEVICE_KEYS, type PublishKeyInput } from "../../core/rooms";
import type { Db } from "../../db";
import { deleteDeviceKey, deviceKeyInfo, findUsersByIds, listDeviceKeys, upsertDeviceKey } from "../../db/queries/rooms";
import { ApiError } from "../errors";
import { recordSecurityEvent } from "../identity/security-events";

export async function publishDeviceKey(db: Db, userId: string, key: PublishKeyInput): Promise<void> {
  if (key.signingKey || key.signature) {
    const signed = await verifyDeviceRecord({
      userId,
      deviceId: key.deviceId,
      publicKey: key.publicKey,
      signingKey: key.signingKey,
      signature: key.signature,
    });
    if (!signed) throw new ApiError(400, "The device record's signature does not match its keys and user");
  }
  // Each device republishes its key whenever it opens the chat: only a new device or a new key is an event.
  const before = (await listDeviceKeys(db, userId)).find((k) => k.deviceId === key.deviceId);
  await upsertDeviceKey(db, { userId, ...key }, MAX_DEVICE_KEYS);
  if (!before) await recordSecurityEvent(db, userId, "key_added");
  else if (before.publicKey !== key.publicKey) await recordSecurityEvent(db, userId, "key_changed");
}

export async function deviceKeysOf(db: Db, userId: string) {
  const [found] = await findUsersByIds(db, [userId]);
  if (!found) throw new ApiError(404, "User not found");
  return (await listDeviceKeys(db, userId)).map(deviceKeyInfo);
}

export async function revokeDeviceKey(db: Db, userId: string, deviceId: string): Promise<void> {
  if (!(await deleteDeviceKey(db, userId, deviceId))) throw new ApiError(404, "Device not found");
  await recordSecurityEvent(db, userId, "key_removed");
}
