// This browser's keys for private rooms (the protocol is core/e2e.ts, docs/protocol.md). The X25519 and
// Ed25519 private keys are generated non-extractable and kept in IndexedDB (CryptoKey objects are stored as
// they are); only the signed device record leaves the browser, through PUT /api/keys. The protocol module is
// loaded on first use, so area-room-only visits never download it.
import type { DeviceSecrets, E2eSession } from "../../../core/e2e";
import { newId } from "../../../core/ids";
import { currentDbUser, kvGet, kvSet } from "./db";

const e2e = () => import("../../../core/e2e");

interface StoredDevice {
  secrets: DeviceSecrets;
  publishedFor?: string;
}

const devices = new Map<string, Promise<StoredDevice>>();

/** This browser's device for the signed-in user, created on first use (and re-signed if the user id changed). */
function device(userId: string): Promise<StoredDevice> {
  let found = devices.get(userId);
  if (found) return found;
  found = (async () => {
    const { createDevice, signDeviceRecord } = await e2e();
    const stored = await kvGet<StoredDevice>("device:v2");
    if (stored && stored.secrets.record.userId === userId) return stored;
    const secrets = stored
      ? // A phone verification merged this browser into another account: same keys, record for the new id.
        { ...stored.secrets, record: await signDeviceRecord(stored.secrets.signing, { ...stored.secrets.record, userId }) }
      : await createDevice(userId, newId(12));
    const next: StoredDevice = { secrets };
    await kvSet("device:v2", next);
    return next;
  })();
  devices.set(userId, found);
  return found;
}

/** This browser's device keys for the signed-in user (pairing phones signs with them: mesh/pairing.ts). */
export async function deviceSecrets(userId: string): Promise<DeviceSecrets> {
  return (await device(userId)).secrets;
}

/** Publishes this device's signed record for the signed-in user (once per user and device), then its prekeys. */
export async function publishDeviceKey(userId: string): Promise<void> {
  const stored = await device(userId);
  if (stored.publishedFor === userId) return topUpPrekeys(userId);
  const { userId: _, ...record } = stored.secrets.record;
  const res = await fetch("/api/keys", {
    method: "PUT",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(record),
  });
  if (!res.ok) throw new Error(`${res.status}: could not publish the device key`);
  stored.publishedFor = userId;
  await kvSet("device:v2", stored);
  await topUpPrekeys(userId);
}

const toppedUp = new Map<string, Promise<void>>();

/**
 * Keeps this device's X3DH prekeys on the server (docs/protocol.md §4): a signed prekey, and one-time prekeys
 * topped up when fewer than the protocol's low mark are left. Checked once per page load and user.
 */
function topUpPrekeys(userId: string): Promise<void> {
  let found = toppedUp.get(userId);
  if (found) return found;
  found = (async () => {
    const s = await session();
    const url = `/api/keys/${encodeURIComponent(s.me.record.deviceId)}/prekeys`;
    const res = await fetch(url, { credentials: "include" });
    if (!res.ok) throw new Error(`${res.status}: could not check the prekeys`);
    const upload = await s.prekeysToPublish(await res.json());
    if (!upload) return;
    const put = await fetch(url, {
      method: "PUT",
      credentials: "include",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(upload),
    });
    if (!put.ok) throw new Error(`${put.status}: could not publish the prekeys`);
  })();
  // A failure is tried again on the next call rather than remembered.
  found.catch(() => toppedUp.delete(userId));
  toppedUp.set(userId, found);
  return found;
}

/** Withdraws this device's key on the server (sign-out): no one seals to it any more. */
export async function revokeDeviceKey(): Promise<void> {
  const stored = await kvGet<StoredDevice>("device:v2");
  if (!stored) return;
  // A prekey top-up still under way would publish to the withdrawn device after the DELETE: it finishes first.
  await Promise.allSettled(toppedUp.values());
  await fetch(`/api/keys/${encodeURIComponent(stored.secrets.record.deviceId)}`, { method: "DELETE", credentials: "include" });
}

/** Published device records are asked again after this long (or at once when a sender's device is unknown). */
const DIRECTORY_TTL_MS = 30_000;
const directoryCache = new Map<string, { at: number; records: unknown[] }>();

async function publishedDevices(userId: string, fresh = false): Promise<unknown[]> {
  const cached = directoryCache.get(userId);
  if (cached && !fresh && Date.now() - cached.at < DIRECTORY_TTL_MS) return cached.records;
  const res = await fetch(`/api/keys/${encodeURIComponent(userId)}`, { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: no device keys`);
  const body = (await res.json()) as { keys?: unknown };
  // The server's answer names the person once; each record is checked against that id (core/e2e.ts).
  const records = (Array.isArray(body.keys) ? body.keys : []).map((k) => ({ ...(k as object), userId }));
  directoryCache.set(userId, { at: Date.now(), records });
  return records;
}

/** One device's prekey bundle; each call takes one of its one-time prekeys off the server. */
async function prekeyBundle(userId: string, deviceId: string): Promise<unknown> {
  const res = await fetch(`/api/keys/bundle/${encodeURIComponent(userId)}?device=${encodeURIComponent(deviceId)}`, {
    credentials: "include",
  });
  if (!res.ok) throw new Error(`${res.status}: no prekeys`);
  const body = (await res.json()) as { devices?: unknown };
  return Array.isArray(body.devices) ? body.devices[0] : undefined;
}

const sessions = new Map<string, Promise<E2eSession>>();

/** The protocol session of this device for the signed-in user. */
export function session(): Promise<E2eSession> {
  const user = currentDbUser() ?? "";
  let found = sessions.get(user);
  if (found) return found;
  found = (async () => {
    const [{ E2eSession }, stored] = await Promise.all([e2e(), device(user)]);
    return new E2eSession(stored.secrets, { get: kvGet, set: kvSet }, { devices: publishedDevices, bundle: prekeyBundle });
  })();
  sessions.set(user, found);
  return found;
}

/** The safety number of this person and a contact, from the identity keys pinned on this device. */
export async function safetyNumberWith(peerId: string): Promise<string> {
  const [{ safetyNumber }, s] = await Promise.all([e2e(), session()]);
  // From the pins alone: asking for fresh lists here would pin a change without the chat showing it.
  const keysOf = async (userId: string) => {
    if ((await s.pinnedKeys(userId)).length === 0) await s.trustedDevices(userId);
    return s.pinnedKeys(userId);
  };
  const me = s.me.record.userId;
  return safetyNumber({ userId: me, keys: await keysOf(me) }, { userId: peerId, keys: await keysOf(peerId) });
}

/**
 * The safety number this person marked as verified with a contact, kept on this device only (panic wipe and
 * sign-out delete it with the keys). A mark no longer equal to the number means the contact's keys changed.
 */
export async function verifiedSafetyNumber(peerId: string): Promise<string | null> {
  return (await kvGet<string | null>(`verified:${peerId}`)) ?? null;
}

/** Marks the current safety number with a contact as verified, or (null) removes the mark. */
export async function setVerifiedSafetyNumber(peerId: string, digits: string | null): Promise<void> {
  await kvSet(`verified:${peerId}`, digits);
}
