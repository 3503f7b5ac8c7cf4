// Device keys and room keys of this browser for end-to-end encrypted rooms (core/crypto.ts does the maths).
// The X25519 private key is generated non-extractable and kept in IndexedDB (CryptoKey objects are stored
// as they are); only the public key leaves the browser, through PUT /api/keys.
import {
  decryptContent,
  derivePairwiseKey,
  type EncryptedContent,
  encryptContent,
  exportPublicKey,
  generateDeviceKeyPair,
  generateSenderKey,
  type SenderKey,
  unwrapSenderKey,
  wrapSenderKey,
} from "../../../core/crypto";
import { newId } from "../../../core/ids";
import { currentDbUser, kvGet, kvSet } from "./db";

interface DeviceKeys {
  deviceId: string;
  pair: CryptoKeyPair;
  publicKey: string;
  publishedFor?: string;
}

const devices = new Map<string, Promise<DeviceKeys>>();

/** This browser's device key pair for the signed-in user, created on first use. */
export function deviceKeys(): Promise<DeviceKeys> {
  const user = currentDbUser() ?? "";
  let device = devices.get(user);
  if (device) return device;
  device = (async () => {
    const stored = await kvGet<DeviceKeys>("deviceKeys");
    if (stored) return stored;
    const pair = await generateDeviceKeyPair(false);
    const keys: DeviceKeys = { deviceId: newId(12), pair, publicKey: await exportPublicKey(pair.publicKey) };
    await kvSet("deviceKeys", keys);
    return keys;
  })();
  devices.set(user, device);
  return device;
}

/** Publishes this device's public key for the signed-in user (once per user and device). */
export async function publishDeviceKey(userId: string): Promise<void> {
  const keys = await deviceKeys();
  if (keys.publishedFor === userId) return;
  const res = await fetch("/api/keys", {
    method: "PUT",
    credentials: "include",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ deviceId: keys.deviceId, publicKey: keys.publicKey }),
  });
  if (!res.ok) throw new Error(`${res.status}: could not publish the device key`);
  keys.publishedFor = userId;
  await kvSet("deviceKeys", keys);
}

/** Most devices of one person a direct message is sealed for (the newest ones). */
const MAX_DEVICES = 8;

/**
 * The published public keys of a user's devices, newest last (kept in IndexedDB so private rooms still work
 * offline with the keys seen last).
 */
export async function userPublicKeys(userId: string): Promise<string[]> {
  try {
    const res = await fetch(`/api/keys/${encodeURIComponent(userId)}`, { credentials: "include" });
    if (res.ok) {
      const body = (await res.json()) as { keys?: { publicKey?: unknown }[] };
      const keys = (Array.isArray(body.keys) ? body.keys : [])
        .map((k) => k.publicKey)
        .filter((k): k is string => typeof k === "string" && /^[A-Za-z0-9_-]{43}$/.test(k))
        .slice(-MAX_DEVICES);
      await kvSet(`userKeys:${userId}`, keys);
      return keys;
    }
  } catch {
    // Offline: the keys seen last.
  }
  return (await kvGet<string[]>(`userKeys:${userId}`)) ?? [];
}

/** The newest published public key of a user. */
export async function peerPublicKey(userId: string): Promise<string | null> {
  return (await userPublicKeys(userId)).at(-1) ?? null;
}

const pairwiseCache = new Map<string, Promise<CryptoKey>>();

/** The AES key this device shares with a peer's key, bound to one room. */
export async function pairwiseKey(peerKey: string, room: string): Promise<CryptoKey> {
  const cacheKey = `${currentDbUser()}|${room}|${peerKey}`;
  let key = pairwiseCache.get(cacheKey);
  if (!key) {
    key = deviceKeys().then((d) => derivePairwiseKey(d.pair, peerKey, room));
    pairwiseCache.set(cacheKey, key);
  }
  return key;
}

/** My sender key for a group, created once and kept. */
export async function mySenderKey(room: string): Promise<SenderKey> {
  const stored = await kvGet<SenderKey>(`senderKey:mine:${room}`);
  if (stored) return stored;
  const key = await generateSenderKey();
  await kvSet(`senderKey:mine:${room}`, key);
  return key;
}

export async function storeSenderKey(room: string, key: SenderKey): Promise<void> {
  await kvSet(`senderKey:${room}:${key.keyId}`, key);
}
export async function findSenderKey(room: string, keyId: string): Promise<SenderKey | undefined> {
  const mine = await kvGet<SenderKey>(`senderKey:mine:${room}`);
  if (mine?.keyId === keyId) return mine;
  return kvGet<SenderKey>(`senderKey:${room}:${keyId}`);
}
/** Which member devices (`userId:publicKey`) already hold my sender key for a room. */
export async function senderKeySharedWith(room: string): Promise<Set<string>> {
  return new Set((await kvGet<string[]>(`senderKey:shared:${room}`)) ?? []);
}
export async function markSenderKeyShared(room: string, devices: string[]): Promise<void> {
  const set = await senderKeySharedWith(room);
  for (const id of devices) set.add(id);
  await kvSet(`senderKey:shared:${room}`, [...set]);
}

export { decryptContent, type EncryptedContent, encryptContent, generateSenderKey, unwrapSenderKey, wrapSenderKey };
