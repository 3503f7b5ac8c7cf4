// This browser's keys for private rooms (the protocol is core/e2e.ts, docs/protocol.md). The X25519 and
// Ed25519 private keys are generated non-extractable and kept in IndexedDB (CryptoKey objects are stored as
// they are); only the signed device record leaves the browser, through PUT /api/keys. The protocol module is
// loaded on first use, so area-room-only visits never download it.
import type { DeviceSecrets, E2eSession } from "../../../core/e2e";
import type { GroupMembership, GroupServer } from "../../../core/group-epochs";
import { newId } from "../../../core/ids";
import { currentDbUser, kvGet, kvSet } from "./db";

const e2e = () => import("../../../core/e2e");
const lists = () => import("../../../core/device-list");

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
  const { deviceId, publicKey, signingKey } = stored.secrets.record;
  if (stored.publishedFor === userId) {
    await joinDeviceList(userId, { deviceId, publicKey, signingKey });
    return topUpPrekeys(userId);
  }
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
  await joinDeviceList(userId, { deviceId, publicKey, signingKey });
  await topUpPrekeys(userId);
}

/**
 * The person's account key, when this device holds it (it made it, or was linked with it). Extractable, so it can
 * be sealed to a device being linked (docs/protocol.md §2a); the device's own keys stay non-extractable.
 */
export interface StoredAccount {
  userId: string;
  pair: CryptoKeyPair;
}

const listed = new Map<string, Promise<void>>();

/**
 * Puts this device in its person's signed device list (docs/decisions/063-one-identity-per-person.md): a device
 * holding the account key adds itself; a person with no list, or none of whose devices is left, starts an
 * account key here (contacts see a safety-number change). A device of a person whose other devices hold the
 * key waits to be linked from one of them: until then its private messages wait and say so.
 */
function joinDeviceList(userId: string, record: { deviceId: string; publicKey: string; signingKey: string }): Promise<void> {
  let found = listed.get(userId);
  if (found) return found;
  found = (async () => {
    const { createAccountKey, nextDeviceList, signDeviceList, verifyDeviceList } = await lists();
    const current = await verifyDeviceList(await fetchDeviceList(userId), userId);
    const me = (d: { deviceId: string; publicKey: string; signingKey: string }) =>
      d.deviceId === record.deviceId && d.publicKey === record.publicKey && d.signingKey === record.signingKey;
    let account = await kvGet<StoredAccount>("account:v1");
    const mine = account?.userId === userId ? account.pair : null;
    const ourKey = mine ? await accountKeyOf(mine) : null;
    if (current && current.accountKey === ourKey && current.devices.some(me)) return;
    if (current && current.accountKey !== ourKey && current.devices.length > 0) return; // waits to be linked
    if (!mine || (current && current.accountKey !== ourKey)) {
      account = { userId, pair: await createAccountKey(true) };
      await kvSet("account:v1", account);
    }
    const pair = (account as StoredAccount).pair;
    const base = current && current.accountKey === (await accountKeyOf(pair)) ? current : null;
    const next = await signDeviceList(pair, nextDeviceList(base, { add: record }, userId));
    const { userId: _, ...body } = next;
    const res = await fetch("/api/keys/list", {
      method: "PUT",
      credentials: "include",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${res.status}: could not publish the device list`);
    directoryCache.delete(userId);
  })();
  found.catch(() => listed.delete(userId));
  listed.set(userId, found);
  return found;
}

export async function accountKeyOf(pair: CryptoKeyPair): Promise<string> {
  const { exportRawKey } = await import("../../../core/webcrypto");
  const { toBase64Url } = await import("../../../core/ids");
  return toBase64Url(await exportRawKey(pair.publicKey));
}

/**
 * After this device was linked (web/app/mesh/link.ts): the lists kept for the page are asked again, and this
 * device's place in its person's list is looked up afresh.
 */
export function forgetDeviceLists(userId: string): void {
  listed.delete(userId);
  directoryCache.delete(userId);
}

/** Withdraws this device from its person's signed list (sign-out), when this device holds the account key. */
async function leaveDeviceList(deviceId: string): Promise<void> {
  const account = await kvGet<StoredAccount>("account:v1");
  if (!account) return;
  const { nextDeviceList, signDeviceList, verifyDeviceList } = await lists();
  const current = await verifyDeviceList(await fetchDeviceList(account.userId), account.userId);
  if (!current || current.accountKey !== (await accountKeyOf(account.pair))) return;
  const next = await signDeviceList(account.pair, nextDeviceList(current, { withdraw: deviceId }, account.userId));
  const { userId: _, ...body } = next;
  await fetch("/api/keys/list", {
    method: "PUT",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
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
  // Contacts learn of the withdrawal from the signed list (and never accept this device again).
  await leaveDeviceList(stored.secrets.record.deviceId).catch(() => {});
  await fetch(`/api/keys/${encodeURIComponent(stored.secrets.record.deviceId)}`, { method: "DELETE", credentials: "include" });
}

/** Published device records are asked again after this long (or at once when a sender's device is unknown). */
const DIRECTORY_TTL_MS = 30_000;
const directoryCache = new Map<string, { at: number; list: unknown }>();

/** A person's signed device list as the server hands it out (null: none); core/e2e.ts checks it. */
export async function fetchDeviceList(userId: string, fresh = false): Promise<unknown> {
  const cached = directoryCache.get(userId);
  if (cached && !fresh && Date.now() - cached.at < DIRECTORY_TTL_MS) return cached.list;
  const res = await fetch(`/api/keys/${encodeURIComponent(userId)}`, { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: no device keys`);
  const body = (await res.json()) as { list?: unknown };
  const list = body.list ?? null;
  directoryCache.set(userId, { at: Date.now(), list });
  return list;
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
    return new E2eSession(stored.secrets, { get: kvGet, set: kvSet }, { deviceList: fetchDeviceList, bundle: prekeyBundle });
  })();
  sessions.set(user, found);
  return found;
}

/** The server side of a group's signed membership (docs/protocol.md §6a): it relays statements, never makes them. */
const groupServer: GroupServer = {
  async epochs(room, since) {
    const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/epochs?since=${since}`, { credentials: "include" });
    if (!res.ok) throw new Error(`${res.status}: no membership statements`);
    const body = (await res.json()) as { epochs?: unknown };
    return Array.isArray(body.epochs) ? body.epochs : [];
  },
  async publish(room, epoch) {
    const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/epochs`, {
      method: "PUT",
      credentials: "include",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(epoch),
    });
    if (res.status === 409) return false;
    if (!res.ok) throw new Error(`${res.status}: the membership change was refused`);
    return true;
  },
};

const memberships = new Map<string, Promise<GroupMembership>>();

/** The signed membership of this device's private groups (core/group-epochs.ts), beside its protocol session. */
export function groupMembership(): Promise<GroupMembership> {
  const user = currentDbUser() ?? "";
  let found = memberships.get(user);
  if (found) return found;
  found = (async () => {
    const [{ GroupMembership }, stored, s] = await Promise.all([import("../../../core/group-epochs"), device(user), session()]);
    return new GroupMembership(stored.secrets, s, { get: kvGet, set: kvSet }, groupServer);
  })();
  memberships.set(user, found);
  return found;
}

/**
 * The safety number of this person and a contact: from the two account keys (docs/protocol.md §5), the same on
 * every device of either person. It is the newest accepted list's key, so a change waiting to be accepted
 * already shows as a different number.
 */
export async function safetyNumberWith(peerId: string): Promise<string> {
  const [{ safetyNumber }, s] = await Promise.all([e2e(), session()]);
  const keysOf = async (userId: string) => {
    const key = await s.accountKey(userId);
    if (!key) throw new Error("No account key yet");
    return [key];
  };
  const me = s.me.record.userId;
  return safetyNumber({ userId: me, keys: await keysOf(me) }, { userId: peerId, keys: await keysOf(peerId) });
}

/** When this device began a session with the contact without a one-time prekey (docs/protocol.md §4), or null. */
export async function missingOneTimePrekeys(peerId: string): Promise<number | null> {
  return (await session()).missingOneTimePrekeys(peerId);
}

/** Accepts a contact's new or changed keys shown in the chat (a verified contact's wait for this). */
export async function acceptKeyChanges(peerId: string): Promise<void> {
  const s = await session();
  const { changes } = await s.trustedDevices(peerId, true);
  await s.acknowledge(changes);
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
