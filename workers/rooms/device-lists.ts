// A person's signed device list (docs/protocol.md §2, docs/decisions/063-one-identity-per-person.md). The server
// stores the newest list a person's device publishes and hands it out; it checks the account key's signature
// only to refuse junk and keeps no older version over a newer one. Clients check everything again: the server
// cannot sign a list, so it cannot add a device, re-list a withdrawn one or roll a client back unnoticed.
import { type DeviceList, type DeviceListInput, verifyDeviceList } from "../../core/device-list";
import { DomainError } from "../../core/domain-error";
import type { Db } from "../../db";
import { deviceListRow, storeDeviceList } from "../../db/queries/device-lists";
import { recordSecurityEvent } from "../identity/security-events";

/** Stores the signed-in person's new list (1 read, 1 conditional write). */
export async function publishDeviceList(db: Db, userId: string, input: DeviceListInput): Promise<{ version: number }> {
  const list = await verifyDeviceList({ ...input, userId }, userId);
  if (!list) throw new DomainError("device_list_signature", "The device list's signature does not match its account key and user");
  const before = await deviceListRow(db, userId);
  const stored = await storeDeviceList(db, { userId, accountKey: list.accountKey, version: list.version, body: JSON.stringify(list) });
  if (!stored) throw new DomainError("device_list_stale", "A newer device list is stored", { version: before?.version ?? null });
  // A new account key is what every contact sees as a safety-number change: the person's security log says so.
  if (before && before.accountKey !== list.accountKey) await recordSecurityEvent(db, userId, "key_changed");
  return { version: list.version };
}

/** The stored list as published (clients verify it), or null. */
export async function deviceListOf(db: Db, userId: string): Promise<DeviceList | null> {
  const row = await deviceListRow(db, userId);
  return row ? (JSON.parse(row.body) as DeviceList) : null;
}
